import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/context.js';
import { capabilityKey, NonceLedger, verifyCapability } from '../../../../src/domain/agent-capability.js';
import { fakeDaemon } from '../../../helpers/cli.js';

const AUDIENCE = 'cd'.repeat(32);
const SECRET = '5a'.repeat(32);

describe('sjgate agent token against a fake daemon', () => {
  let simulation = true;
  const daemon = fakeDaemon((request) => {
    if (request.url === '/api/v1/agent/harness') return [200, { audience: AUDIENCE, enabled: true }];
    return [200, { simulation }];
  });
  const { seen, sjgate } = daemon;
  const dir = mkdtempSync(join(tmpdir(), 'sjgate-agent-'));
  const saved = process.env.SJ_AGENT_HARNESS_SECRET_FILE;
  const bodyFile = join(dir, 'body.json');
  const body = '{"trade_id": "c604f33c"}\n';
  beforeEach(() => {
    simulation = true;
  });
  before(async () => {
    await daemon.start();
    writeFileSync(join(dir, 'secret'), SECRET);
    chmodSync(join(dir, 'secret'), 0o600);
    writeFileSync(bodyFile, body);
    process.env.SJ_AGENT_HARNESS_SECRET_FILE = join(dir, 'secret');
  });
  after(async () => {
    await daemon.stop();
    if (saved === undefined) delete process.env.SJ_AGENT_HARNESS_SECRET_FILE;
    else process.env.SJ_AGENT_HARNESS_SECRET_FILE = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  const verify = (token: string, op: 'cancel_order' | 'place_order', env: 'simulation' | 'production', bytes = body) =>
    verifyCapability(
      token,
      {
        key: capabilityKey(Buffer.from(SECRET, 'hex')),
        env,
        op,
        audience: Buffer.from(AUDIENCE, 'hex'),
        body: Buffer.from(bytes),
        now: Math.floor(Date.now() / 1000),
      },
      new NonceLedger(),
    );

  test('prints a token for the op and the exact bytes of the body, for the daemon it asked', async () => {
    const run = await sjgate('agent', 'token', 'cancel_order', '--body', bodyFile);
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(
      seen.map((request) => `${request.method} ${request.url}`),
      ['GET /api/v1/agent/harness', 'GET /api/v1/info'],
    );
    const token = run.stdout.trim();
    assert.match(token, /^sj1_[0-9a-f]{262}$/);
    assert.equal(verify(token, 'cancel_order', 'simulation'), null);
    assert.equal(verify(token, 'cancel_order', 'simulation', body.trim())?.check, 'digest');
    assert.equal(verify(token, 'place_order', 'simulation')?.check, 'op');
  });

  test('a production daemon gets a production token; --json gives the header and the times', async () => {
    simulation = false;
    const run = await sjgate('agent', 'token', 'cancel_order', '--body', bodyFile, '--ttl', '10', '--format', 'json');
    assert.equal(run.code, EXIT.ok, run.stderr);
    const answer = JSON.parse(run.stdout);
    assert.equal(answer.header, 'X-Shioaji-Agent-Capability');
    assert.equal(answer.exp - answer.iat, 10);
    assert.equal(verify(answer.token, 'cancel_order', 'production'), null);
  });

  test('bad usage is exit 2 and asks the daemon nothing', async () => {
    for (const args of [
      ['agent', 'token', 'sell_everything'],
      ['agent', 'token', 'cancel_order', '--ttl', '61'],
      ['agent', 'token', 'cancel_order', '--body', join(dir, 'missing.json')],
    ]) {
      const run = await sjgate(...args);
      assert.equal(run.code, EXIT.usage, `${args.join(' ')}: ${run.stderr}`);
      assert.deepEqual(seen, []);
    }
    delete process.env.SJ_AGENT_HARNESS_SECRET_FILE;
    const run = await sjgate('agent', 'token', 'cancel_order');
    process.env.SJ_AGENT_HARNESS_SECRET_FILE = join(dir, 'secret');
    assert.equal(run.code, EXIT.usage);
    assert.match(run.stderr, /SJ_AGENT_HARNESS_SECRET_FILE is not set/);
  });
});
