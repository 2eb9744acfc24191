// The agent harness's capability token (official server 1.7.x): `sj1_` and the lowercase hex of a fixed binary
// record that allows one state-changing call, once, for at most 60 seconds, with exactly one body, on one daemon.
//
//   offset size  field
//        0    1  format (1)
//        1    1  environment: 0 simulation, 1 production
//        2    1  operation id (AGENT_OPS)
//        3    8  iat: issued at, epoch seconds, little-endian unsigned
//       11    8  exp: expires at, likewise; exp - iat <= 60 and iat <= now <= exp
//       19   32  audience: the daemon's, 32 random bytes drawn at each start
//       51   16  nonce: random; a token is accepted once
//       67   32  BLAKE3 of the exact body bytes (of zero bytes for no body)
//       99   32  tag: keyed BLAKE3 of bytes 0..98, keyed with BLAKE3 derive_key(KEY_CONTEXT, secret)
//
// Pure: the clock, the randomness and the ledger of used nonces are handed in.

import { blake3 } from '@noble/hashes/blake3.js';

export const CAPABILITY_HEADER = 'X-Shioaji-Agent-Capability';
export const CAPABILITY_PREFIX = 'sj1_';
export const CAPABILITY_VERSION = 1;
export const DIGEST_SCHEME = 'compact_keyed_blake3';
export const MAX_TTL_SECONDS = 60;
export const KEY_CONTEXT = 'shioaji-agent-harness compact capability v1';
export const SECRET_BYTES = 32;
export const AUDIENCE_BYTES = 32;
export const NONCE_BYTES = 16;
export const DIGEST_BYTES = 32;
/** Bytes of the record before the tag: what the tag covers. */
export const SIGNED_BYTES = 1 + 1 + 1 + 8 + 8 + AUDIENCE_BYTES + NONCE_BYTES + DIGEST_BYTES;
export const TOKEN_BYTES = SIGNED_BYTES + DIGEST_BYTES;

/** The protected operations and their ids in the token. */
export const AGENT_OPS = {
  place_order: 1,
  cancel_order: 2,
  update_price: 3,
  update_qty: 4,
  place_comboorder: 5,
  cancel_comboorder: 6,
  reserve_stock: 7,
  reserve_earmarking: 8,
  update_agent_harness: 9,
} as const;

export type AgentOp = keyof typeof AGENT_OPS;

export function isAgentOp(value: string): value is AgentOp {
  return Object.hasOwn(AGENT_OPS, value);
}

export type CapabilityEnv = 'simulation' | 'production';
const ENV_BYTE: Record<CapabilityEnv, number> = { simulation: 0, production: 1 };

/** What a token says. Times are epoch seconds. */
export interface CapabilityClaims {
  env: CapabilityEnv;
  op: AgentOp;
  iat: number;
  exp: number;
  audience: Uint8Array;
  nonce: Uint8Array;
  /** BLAKE3 of the body (bodyDigest). */
  digest: Uint8Array;
}

const ENCODER = new TextEncoder();

/** The MAC key of the tag: BLAKE3 derive_key with KEY_CONTEXT over the secret's bytes. */
export function capabilityKey(secret: Uint8Array): Uint8Array {
  return blake3(secret, { context: ENCODER.encode(KEY_CONTEXT) });
}

/** BLAKE3 of the exact body bytes. */
export function bodyDigest(body: Uint8Array): Uint8Array {
  return blake3(body);
}

/** The token for these claims, tagged with `key` (capabilityKey of the secret). */
export function mintCapability(key: Uint8Array, claims: CapabilityClaims): string {
  const record = new Uint8Array(TOKEN_BYTES);
  const view = new DataView(record.buffer);
  record[0] = CAPABILITY_VERSION;
  record[1] = ENV_BYTE[claims.env];
  record[2] = AGENT_OPS[claims.op];
  view.setBigUint64(3, BigInt(claims.iat), true);
  view.setBigUint64(11, BigInt(claims.exp), true);
  record.set(fixed(claims.audience, AUDIENCE_BYTES, 'audience'), 19);
  record.set(fixed(claims.nonce, NONCE_BYTES, 'nonce'), 51);
  record.set(fixed(claims.digest, DIGEST_BYTES, 'digest'), 67);
  record.set(blake3(record.subarray(0, SIGNED_BYTES), { key }), SIGNED_BYTES);
  return CAPABILITY_PREFIX + Buffer.from(record).toString('hex');
}

function fixed(bytes: Uint8Array, length: number, name: string): Uint8Array {
  if (bytes.length !== length) throw new RangeError(`the ${name} must be ${length} bytes, got ${bytes.length}`);
  return bytes;
}

/** What a request must match: the daemon, the operation, the body, and now (epoch seconds). */
export interface CapabilityExpectation {
  key: Uint8Array;
  env: CapabilityEnv;
  op: AgentOp;
  audience: Uint8Array;
  body: Uint8Array;
  now: number;
}

/** Why a token was refused: `missing`, or one of the checks of verifyCapability. */
export type CapabilityCheck =
  | 'missing'
  | 'malformed'
  | 'format'
  | 'tag'
  | 'env'
  | 'op'
  | 'lifetime'
  | 'not_yet_valid'
  | 'expired'
  | 'audience'
  | 'digest'
  | 'replayed';

export interface CapabilityRefusal {
  check: CapabilityCheck;
  message: string;
}

const TOKEN_TEXT = new RegExp(`^${CAPABILITY_PREFIX}[0-9a-f]{${TOKEN_BYTES * 2}}$`);

/**
 * Null when the token allows this request, and then its nonce is spent; else which check failed. The tag is checked
 * right after the format, so nothing of a forged token is read; the nonce is spent last, in the same synchronous
 * step as its check, so a token passes once.
 */
export function verifyCapability(
  token: string | undefined,
  expected: CapabilityExpectation,
  nonces: NonceLedger,
): CapabilityRefusal | null {
  const refuse = (check: CapabilityCheck, message: string): CapabilityRefusal => ({ check, message });
  if (token === undefined || token === '') return refuse('missing', `this call needs the ${CAPABILITY_HEADER} header`);
  if (!TOKEN_TEXT.test(token)) {
    return refuse(
      'malformed',
      `malformed capability: expected ${CAPABILITY_PREFIX} and ${TOKEN_BYTES * 2} lowercase hex digits`,
    );
  }
  const record = new Uint8Array(Buffer.from(token.slice(CAPABILITY_PREFIX.length), 'hex'));
  const view = new DataView(record.buffer);
  if (record[0] !== CAPABILITY_VERSION) {
    return refuse('format', `wrong capability format ${record[0]}: this daemon takes format ${CAPABILITY_VERSION}`);
  }
  const tag = blake3(record.subarray(0, SIGNED_BYTES), { key: expected.key });
  if (!equalBytes(tag, record.subarray(SIGNED_BYTES))) {
    return refuse('tag', 'bad capability tag: not minted with this daemon’s secret, or altered');
  }
  if (record[1] !== ENV_BYTE[expected.env]) {
    return refuse('env', `wrong capability environment: this daemon is ${expected.env}`);
  }
  if (record[2] !== AGENT_OPS[expected.op]) {
    return refuse(
      'op',
      `wrong capability operation ${record[2]}: this call is ${expected.op} (${AGENT_OPS[expected.op]})`,
    );
  }
  const iat = view.getBigUint64(3, true);
  const exp = view.getBigUint64(11, true);
  const now = BigInt(Math.floor(expected.now));
  if (exp < iat || exp - iat > BigInt(MAX_TTL_SECONDS)) {
    return refuse('lifetime', `capability lifetime over ${MAX_TTL_SECONDS} s (exp - iat = ${exp - iat})`);
  }
  if (now < iat) return refuse('not_yet_valid', `capability not yet valid: issued at ${iat}, now is ${now}`);
  if (now > exp) return refuse('expired', `capability expired at ${exp}, now is ${now}`);
  if (!equalBytes(record.subarray(19, 51), expected.audience)) {
    return refuse('audience', 'wrong capability audience: minted for another daemon, or before this one restarted');
  }
  if (!equalBytes(record.subarray(67, 99), bodyDigest(expected.body))) {
    return refuse('digest', 'capability body digest mismatch: the body is not the one the capability was minted for');
  }
  if (!nonces.spend(Buffer.from(record.subarray(51, 67)).toString('hex'), Number(exp), Number(now))) {
    return refuse('replayed', 'capability already used: mint a new one for each call');
  }
  return null;
}

/** Constant-time equality of two byte strings of equal length (the lengths are public). */
function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/** The nonces spent, each kept until its token's exp has passed (after that the token is refused as expired). */
export class NonceLedger {
  readonly #spent = new Map<string, number>();

  /** Spends a nonce: false when it was spent already. */
  spend(nonce: string, exp: number, now: number): boolean {
    for (const [old, until] of this.#spent) if (until < now) this.#spent.delete(old);
    if (this.#spent.has(nonce)) return false;
    this.#spent.set(nonce, exp);
    return true;
  }

  get size(): number {
    return this.#spent.size;
  }
}
