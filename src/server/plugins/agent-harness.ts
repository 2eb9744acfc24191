// The agent harness (official server 1.7.x): an optional approval layer for state-changing calls. When it is
// enforced, each protected call (placing, changing and cancelling orders, reservations, and the harness's own switch)
// needs a capability minted for that call and that body (src/domain/agent-capability.ts) in
// X-Shioaji-Agent-Capability, over TCP and the Unix socket alike. Which routes are protected is decided by method and
// path when a route is registered, so a protected route added later (reserve_stock) is covered when it lands.
//
// The capability covers the exact bytes of the body, so a protected request's body is read here, in preParsing,
// checked, and handed on unchanged to the JSON parser: a request that fails is refused before its body is parsed.

import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { AgentHarnessMode } from '../../config.js';
import { AGENT_ROUTES, API_PREFIX } from '../../contract/paths.js';
import {
  AGENT_OPS,
  type AgentOp,
  AUDIENCE_BYTES,
  CAPABILITY_HEADER,
  CAPABILITY_VERSION,
  capabilityKey,
  DIGEST_SCHEME,
  MAX_TTL_SECONDS,
  NonceLedger,
  verifyCapability,
} from '../../domain/agent-capability.js';
import { DomainError, InvalidRequestError } from '../../domain/errors.js';

export interface AgentHarnessOptions {
  mode: AgentHarnessMode;
  /** The secret capabilities are minted with; null: none was given, so an enforced harness refuses every call. */
  secret: Uint8Array | null;
  bootstrap: 'file' | 'none';
  /** Whether this daemon trades in a simulation (gateway.identity.simulation). */
  simulation: boolean;
  /** The verifier's clock, epoch ms; Date.now unless a test sets it. */
  now?: (() => number) | undefined;
}

/** What /info, /health and GET /agent/harness say of the harness. */
export interface AgentHarnessState {
  enabled: boolean;
  mode: AgentHarnessMode;
  capability_version: number;
  capability_header: string;
  digest_scheme: string;
  audience: string;
  max_ttl_seconds: number;
  bootstrap: 'file' | 'none';
}

/** The harness of one daemon: its mode, its switch, its audience (new at every start) and the nonces spent. */
export class AgentHarness {
  readonly audience = new Uint8Array(randomBytes(AUDIENCE_BYTES));
  readonly #nonces = new NonceLedger();
  readonly #key: Uint8Array | null;
  readonly #now: () => number;
  #switchedOn: boolean;

  constructor(readonly options: AgentHarnessOptions) {
    this.#key = options.secret === null ? null : capabilityKey(options.secret);
    this.#now = options.now ?? Date.now;
    this.#switchedOn = options.mode !== 'off';
  }

  /** Whether the mode lets the harness be enforced on this daemon. */
  get applies(): boolean {
    return this.options.mode === 'all' || (this.options.mode === 'production' && !this.options.simulation);
  }

  /** Whether protected calls need a capability now. */
  get enforced(): boolean {
    return this.applies && this.#switchedOn;
  }

  /** Whether a call of `op` must carry a capability: when enforced, and the switch always when a secret is set. */
  requires(op: AgentOp): boolean {
    return this.enforced || (op === 'update_agent_harness' && this.#key !== null);
  }

  /** Turns enforcement on or off; on is refused where the mode never enforces. */
  switchTo(enabled: boolean): AgentHarnessState {
    if (enabled && !this.applies) {
      const why =
        this.options.mode === 'off'
          ? 'the agent harness is off (SJ_AGENT_HARNESS=off)'
          : 'SJ_AGENT_HARNESS=production is enforced only on a production daemon, and this one is a simulation';
      throw new InvalidRequestError(`${why}: restart the daemon with SJ_AGENT_HARNESS=all to enforce it here`);
    }
    this.#switchedOn = enabled;
    return this.state();
  }

  state(): AgentHarnessState {
    return {
      enabled: this.enforced,
      mode: this.options.mode,
      capability_version: CAPABILITY_VERSION,
      capability_header: CAPABILITY_HEADER,
      digest_scheme: DIGEST_SCHEME,
      audience: Buffer.from(this.audience).toString('hex'),
      max_ttl_seconds: MAX_TTL_SECONDS,
      bootstrap: this.options.bootstrap,
    };
  }

  /** Throws the 403 of a call of `op` with this token and body that may not pass; spends the token's nonce if it may. */
  authorize(op: AgentOp, token: string | undefined, body: Uint8Array): void {
    if (this.#key === null) {
      throw new DomainError(
        'AGENT_HARNESS_UNAVAILABLE',
        'agent harness verifier unavailable: the harness is enforced but the daemon has no secret ' +
          '(set SJ_AGENT_HARNESS_SECRET_FILE and restart it)',
      );
    }
    const expected = {
      key: this.#key,
      env: this.options.simulation ? 'simulation' : 'production',
      op,
      audience: this.audience,
      body,
      now: Math.floor(this.#now() / 1000),
    } as const;
    const refusal = verifyCapability(token, expected, this.#nonces);
    if (refusal === null) return;
    const kind = refusal.check === 'missing' ? 'AGENT_CAPABILITY_REQUIRED' : 'AGENT_CAPABILITY_INVALID';
    throw new DomainError(kind, `${op}: ${refusal.message}`);
  }
}

/** The protected routes, by method and full path: each order mutation, the reservations, and the harness's switch. */
const PROTECTED: ReadonlyMap<string, AgentOp> = new Map(
  (Object.keys(AGENT_OPS) as AgentOp[]).map((op) => [
    op === 'update_agent_harness' ? `PATCH ${API_PREFIX}${AGENT_ROUTES.harness}` : `POST ${API_PREFIX}/order/${op}`,
    op,
  ]),
);

/** The operation a route is, or null when it is not protected. */
export function protectedOp(method: string, url: string): AgentOp | null {
  return PROTECTED.get(`${method.toUpperCase()} ${url}`) ?? null;
}

/** Every protected route gets the check; register before the routes, at the root. */
export const agentHarnessPlugin = fp<{ harness: AgentHarness }>(
  async (app: FastifyInstance, { harness }) => {
    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const op = methods.map((method) => protectedOp(method, route.url)).find((found) => found !== null);
      if (!op) return;
      const check = async (request: FastifyRequest, _reply: unknown, payload: Readable) => {
        if (!harness.requires(op)) return payload;
        const body = await readBody(request, payload);
        harness.authorize(op, request.headers[CAPABILITY_HEADER.toLowerCase()] as string | undefined, body);
        const replay = new PassThrough();
        replay.end(body);
        return replay;
      };
      const hooks = route.preParsing;
      route.preParsing = [...(hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]), check];
    });
  },
  { name: 'agent-harness', fastify: '5.x', dependencies: ['errors'] },
);

/**
 * The whole body, within the route's limit. A body over it is read to its end and dropped (stopping halfway would
 * leave the connection unusable for the 413).
 */
async function readBody(request: FastifyRequest, payload: Readable): Promise<Buffer> {
  const limit = request.routeOptions.bodyLimit ?? Number.POSITIVE_INFINITY;
  const tooLarge = () => new DomainError('TOO_LARGE', 'the request body is too large');
  if (Number(request.headers['content-length']) > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    size += (chunk as Buffer).length;
    if (size <= limit) chunks.push(chunk as Buffer);
  }
  if (size > limit) throw tooLarge();
  return Buffer.concat(chunks);
}
