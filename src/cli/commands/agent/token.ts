// `sjgate agent token OP --body FILE|-`: a capability for one call of OP with exactly these body bytes, minted with
// the secret of SJ_AGENT_HARNESS_SECRET_FILE for the running daemon (its audience from GET /api/v1/agent/harness, its
// environment from /api/v1/info). It is valid for --ttl seconds (at most 60) and once.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Command } from 'commander';
import { ConfigError } from '../../../config.js';
import {
  AGENT_OPS,
  type AgentOp,
  bodyDigest,
  CAPABILITY_HEADER,
  capabilityKey,
  MAX_TTL_SECONDS,
  mintCapability,
} from '../../../domain/agent-capability.js';
import { action, type CliEnv, UsageError } from '../../context.js';
import { integerIn, oneOf } from '../../parsers.js';

interface TokenOptions {
  body?: string;
  ttl: number;
}

const OPS = Object.keys(AGENT_OPS) as AgentOp[];

export function registerToken(agent: Command, env: CliEnv): void {
  agent
    .command('token')
    .description('mint a capability for one call of OP with exactly the bytes of --body (none: an empty body)')
    .argument('<OP>', `the operation: ${OPS.join(', ')}`, oneOf(OPS))
    .option('--body <FILE>', "the request's body, byte for byte: a file, or - for standard input")
    .option('--ttl <SECONDS>', `how long it is valid, 1 to ${MAX_TTL_SECONDS}`, integerIn(1, MAX_TTL_SECONDS), 60)
    .addHelpText(
      'after',
      `
Needs SJ_AGENT_HARNESS_SECRET_FILE, the daemon's secret. The token works once, on this daemon until it restarts.

Examples:
  $ echo -n '{"trade_id":"c604f33c"}' > cancel.json
  $ curl -X POST localhost:8080/api/v1/order/cancel_order -H 'content-type: application/json' \\
      -H "${CAPABILITY_HEADER}: $(sjgate agent token cancel_order --body cancel.json)" --data-binary @cancel.json`,
    )
    .action(
      action<TokenOptions>(
        env,
        async (cli, options, [op]) => {
          const secret = cli.config.agentHarness.secret;
          if (secret === null) {
            throw new ConfigError("SJ_AGENT_HARNESS_SECRET_FILE is not set: give the daemon's secret to mint a token");
          }
          const body = await readBody(options.body);
          const [harness, info] = await cli.call((client) =>
            Promise.all([client.agent.harness<{ audience: string }>(), client.server.info<{ simulation: boolean }>()]),
          );
          const iat = Math.floor(Date.now() / 1000);
          const claims = {
            env: info.simulation ? 'simulation' : 'production',
            op: op as AgentOp,
            iat,
            exp: iat + options.ttl,
            audience: Buffer.from(harness.audience, 'hex'),
            nonce: randomBytes(16),
            digest: bodyDigest(body),
          } as const;
          const token = mintCapability(capabilityKey(secret), claims);
          const answer = { header: CAPABILITY_HEADER, token, op: claims.op, iat, exp: claims.exp };
          cli.emit(answer, ({ token }) => token);
        },
        { fields: ['header', 'token', 'op', 'iat', 'exp'] },
      ),
    );
}

async function readBody(source: string | undefined): Promise<Uint8Array> {
  if (source === undefined) return new Uint8Array(0);
  if (source !== '-') {
    try {
      return readFileSync(source);
    } catch (error) {
      throw new UsageError(`--body ${source} cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
    }
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin as Readable) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
