// The agent harness: protected calls need a capability minted for the call, its body and this daemon; each way a
// capability can be wrong is refused with a 403 envelope naming the check. Tokens here are assembled byte by byte,
// apart from the module under test, and the verifier's clock is a variable of the test.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { blake3 } from '@noble/hashes/blake3.js';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { AgentHarnessConfig } from '../../src/config.js';
import {
  AGENT_OPS,
  type AgentOp,
  capabilityKey,
  mintCapability,
  NonceLedger,
  verifyCapability,
} from '../../src/domain/agent-capability.js';
import type { ErrorKind } from '../../src/domain/errors.js';
import { AgentHarness, protectedOp } from '../../src/server/plugins/agent-harness.js';
import { testApp } from '../helpers/app.js';
import { assertErrorKind } from '../helpers/errors.js';

const HEADER = 'x-shioaji-agent-capability';
const SECRET = Buffer.from('0f'.repeat(32), 'hex');
const NOW = 1_795_000_000; // epoch seconds
// The ids of the specification, in order from 1; written apart from AGENT_OPS, so the tokens here check it.
const OP_ORDER = 'place_order cancel_order update_price update_qty place_comboorder cancel_comboorder reserve_stock';
const OP_IDS = Object.fromEntries(
  `${OP_ORDER} reserve_earmarking update_agent_harness`.split(' ').map((op, i) => [op, i + 1]),
) as Record<AgentOp, number>;

const u64 = (value: number) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(BigInt(value));
  return bytes;
};

interface Token {
  op?: AgentOp;
  body?: string | Buffer;
  format?: number;
  env?: number;
  iat?: number;
  exp?: number;
  audience?: Buffer;
  nonce?: Buffer;
  secret?: Buffer;
}

/** A capability assembled by hand: the 99 bytes of the record, then the keyed BLAKE3 of them. */
function assemble(audience: Buffer, token: Token = {}): string {
  const iat = token.iat ?? NOW;
  const signed = Buffer.concat([
    Buffer.from([token.format ?? 1, token.env ?? 0, OP_IDS[token.op ?? 'cancel_order']]),
    u64(iat),
    u64(token.exp ?? iat + 60),
    token.audience ?? audience,
    token.nonce ?? randomBytes(16),
    Buffer.from(blake3(Buffer.from(token.body ?? ''))),
  ]);
  assert.equal(signed.length, 99);
  const key = blake3(token.secret ?? SECRET, {
    context: new TextEncoder().encode('shioaji-agent-harness compact capability v1'),
  });
  const tag = Buffer.from(blake3(signed, { key }));
  return `sj1_${Buffer.concat([signed, tag]).toString('hex')}`;
}

const apps: FastifyInstance[] = [];
after(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

/** A simulated daemon with the harness in `mode`; `clock.now` (epoch seconds) is the verifier's clock. */
async function daemon(harness: Partial<AgentHarnessConfig> = {}) {
  const clock = { now: NOW };
  const { app } = await testApp(undefined, null, false, {
    mode: 'all',
    secret: SECRET,
    bootstrap: 'file',
    ...harness,
    now: () => clock.now * 1000,
  });
  apps.push(app);
  const state = (await app.inject({ method: 'GET', url: '/api/v1/agent/harness' })).json();
  const audience = Buffer.from(state.audience, 'hex');
  const mint = (token: Token = {}) => assemble(audience, token);
  return { app, clock, audience, mint };
}

const CANCEL = '/api/v1/order/cancel_order';
const CANCEL_BODY = JSON.stringify({ trade_id: 'nope' });

const cancel = (app: FastifyInstance, token?: string, body = CANCEL_BODY) =>
  app.inject({
    method: 'POST',
    url: CANCEL,
    headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { [HEADER]: token }) },
    payload: body,
  });

async function refused(request: Promise<{ statusCode: number; json(): unknown }>, kind: ErrorKind, message: RegExp) {
  const response = await request;
  assert.equal(response.statusCode, 403);
  const body = response.json() as { message: string; details: unknown };
  assertErrorKind(body, 403, kind);
  assert.match(body.message, message);
  assert.equal(body.details, null);
}

/** Passed the harness: the route ran, and found no such order. */
async function passed(request: Promise<{ statusCode: number; json(): unknown }>) {
  const response = await request;
  assert.equal(response.statusCode, 404, JSON.stringify(response.json()));
  assertErrorKind(response.json(), 404, 'ORDER_NOT_FOUND');
}

describe('the capability format', () => {
  test('BLAKE3 of @noble/hashes gives the official test vectors (hash, keyed hash, derive_key of no input)', () => {
    const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
    const none = new Uint8Array(0);
    const text = (value: string) => new TextEncoder().encode(value);
    assert.equal(hex(blake3(none)), 'af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262');
    assert.equal(
      hex(blake3(none, { key: text('whats the Elvish word for friend') })),
      '92b2b75604ed3c761f9d6f62392c8a9227ad0ea3f09573e783f1498a4ed60d26',
    );
    assert.equal(
      hex(blake3(none, { context: text('BLAKE3 2019-12-27 16:29:52 test vectors context') })),
      '2cc39783c223154fea8dfb7c1b1660f2ac2dcbd1c1de8277b0b0dd39b7e50d7d',
    );
  });

  test('mintCapability writes the same 131 bytes as the assembly by hand', () => {
    const audience = randomBytes(32);
    const nonce = randomBytes(16);
    const body = '{"trade_id":"x"}';
    const token = mintCapability(capabilityKey(SECRET), {
      env: 'production',
      op: 'update_qty',
      iat: NOW,
      exp: NOW + 30,
      audience,
      nonce,
      digest: blake3(Buffer.from(body)),
    });
    assert.equal(token, assemble(audience, { env: 1, op: 'update_qty', exp: NOW + 30, nonce, body }));
    assert.equal(token.length, 4 + 131 * 2);
  });

  test('a nonce is kept until its exp has passed, then forgotten', () => {
    const ledger = new NonceLedger();
    assert.ok(ledger.spend('a', NOW + 10, NOW));
    assert.ok(!ledger.spend('a', NOW + 10, NOW + 10));
    assert.ok(ledger.spend('b', NOW + 20, NOW + 11));
    assert.equal(ledger.size, 1, 'a expired at NOW + 10 and is gone');
  });

  test('the operation ids are those of the specification', () => {
    assert.deepEqual({ ...AGENT_OPS }, OP_IDS);
  });

  test('each protected operation is found by method and path, reservations included', () => {
    for (const op of Object.keys(OP_IDS) as AgentOp[]) {
      if (op === 'update_agent_harness') continue;
      assert.equal(protectedOp('POST', `/api/v1/order/${op}`), op);
    }
    assert.equal(protectedOp('PATCH', '/api/v1/agent/harness'), 'update_agent_harness');
    assert.equal(protectedOp('GET', '/api/v1/agent/harness'), null);
    assert.equal(protectedOp('POST', '/api/v1/order/trades'), null);
    assert.equal(protectedOp('GET', '/api/v1/order/place_order'), null);
  });

  test('verifyCapability names each check', () => {
    const audience = randomBytes(32);
    const expected = {
      key: capabilityKey(SECRET),
      env: 'simulation',
      op: 'cancel_order',
      audience,
      body: Buffer.from(''),
      now: NOW,
    } as const;
    const check = (token: string | undefined) => verifyCapability(token, expected, new NonceLedger())?.check ?? null;
    assert.equal(check(undefined), 'missing');
    assert.equal(check(assemble(audience)), null);
    assert.equal(check(assemble(audience, { body: 'x' })), 'digest');
    assert.equal(check(assemble(audience, { exp: NOW + 61 })), 'lifetime');
    assert.equal(check(assemble(audience, { iat: NOW, exp: NOW - 1 })), 'lifetime');
  });
});

describe('an enforced harness (SJ_AGENT_HARNESS=all)', () => {
  test('a call without the header is refused, even on loopback', async () => {
    const { app } = await daemon();
    await refused(cancel(app), 'AGENT_CAPABILITY_REQUIRED', /needs the X-Shioaji-Agent-Capability header/);
  });

  test('a malformed token is refused', async () => {
    const { app, mint } = await daemon();
    const good = mint();
    for (const token of [
      'nope',
      'sj1_zz',
      good.toUpperCase(),
      good.slice(0, -2),
      `${good}00`,
      `sj2_${good.slice(4)}`,
    ]) {
      await refused(cancel(app, token), 'AGENT_CAPABILITY_INVALID', /malformed capability/);
    }
  });

  test('a wrong format, environment or operation is refused', async () => {
    const { app, mint } = await daemon();
    await refused(cancel(app, mint({ format: 2 })), 'AGENT_CAPABILITY_INVALID', /wrong capability format 2/);
    await refused(cancel(app, mint({ env: 1 })), 'AGENT_CAPABILITY_INVALID', /wrong capability environment/);
    await refused(
      cancel(app, mint({ op: 'place_order', body: CANCEL_BODY })),
      'AGENT_CAPABILITY_INVALID',
      /wrong capability operation 1: this call is cancel_order \(2\)/,
    );
  });

  test('an expired, not yet valid or too long-lived token is refused', async () => {
    const { app, mint } = await daemon();
    const body = CANCEL_BODY;
    await refused(cancel(app, mint({ body, iat: NOW - 61, exp: NOW - 1 })), 'AGENT_CAPABILITY_INVALID', /expired/);
    await refused(cancel(app, mint({ body, iat: NOW + 5 })), 'AGENT_CAPABILITY_INVALID', /not yet valid/);
    await refused(cancel(app, mint({ body, exp: NOW + 61 })), 'AGENT_CAPABILITY_INVALID', /lifetime over 60 s/);
  });

  test('expiry follows the verifier clock: valid through exp, refused a second after', async () => {
    const { app, clock, mint } = await daemon();
    const atExp = mint({ body: CANCEL_BODY, exp: NOW + 30 });
    const late = mint({ body: CANCEL_BODY, exp: NOW + 30 });
    clock.now = NOW + 30;
    await passed(cancel(app, atExp));
    clock.now = NOW + 31;
    await refused(cancel(app, late), 'AGENT_CAPABILITY_INVALID', /capability expired at \d+, now is \d+/);
  });

  test('a token for another daemon, or another body, or with a bad tag is refused', async () => {
    const { app, mint } = await daemon();
    await refused(
      cancel(app, mint({ body: CANCEL_BODY, audience: randomBytes(32) })),
      'AGENT_CAPABILITY_INVALID',
      /wrong capability audience/,
    );
    // The same JSON with other bytes is another body.
    await refused(
      cancel(app, mint({ body: CANCEL_BODY }), JSON.stringify({ trade_id: 'nope' }, null, 1)),
      'AGENT_CAPABILITY_INVALID',
      /body digest mismatch/,
    );
    await refused(
      cancel(app, mint({ body: CANCEL_BODY }), JSON.stringify({ trade_id: 'other' })),
      'AGENT_CAPABILITY_INVALID',
      /body digest mismatch/,
    );
    await refused(
      cancel(app, mint({ body: CANCEL_BODY, secret: randomBytes(32) })),
      'AGENT_CAPABILITY_INVALID',
      /bad capability tag/,
    );
    const good = mint({ body: CANCEL_BODY });
    const flipped = `${good.slice(0, -1)}${good.endsWith('0') ? '1' : '0'}`;
    await refused(cancel(app, flipped), 'AGENT_CAPABILITY_INVALID', /bad capability tag/);
  });

  test('a valid token passes once; the same token again is refused', async () => {
    const { app, mint } = await daemon();
    const token = mint({ body: CANCEL_BODY });
    await passed(cancel(app, token));
    await refused(cancel(app, token), 'AGENT_CAPABILITY_INVALID', /already used/);
    await passed(cancel(app, mint({ body: CANCEL_BODY })));
  });

  test('an order is placed with a capability for place_order over its exact body', async () => {
    const { app, mint } = await daemon();
    const body = JSON.stringify({
      contract: { code: '2330' },
      stock_order: { action: 'Buy', price_type: 'LMT', order_type: 'ROD', quantity: 1, price: 500 },
    });
    const request: InjectOptions = {
      method: 'POST',
      url: '/api/v1/order/place_order',
      headers: { 'content-type': 'application/json', [HEADER]: mint({ op: 'place_order', body }) },
      payload: body,
    };
    const response = await app.inject(request);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().contract.code, '2330');
  });

  test('a call without a body is minted over zero bytes', async () => {
    const { app, mint } = await daemon();
    const response = await app.inject({ method: 'POST', url: CANCEL, headers: { [HEADER]: mint({ body: '' }) } });
    assert.notEqual(response.statusCode, 403, response.body);
  });

  test('a body over the limit is a 413, the token unspent', async () => {
    const { app, mint } = await daemon();
    const big = JSON.stringify({ trade_id: 'x'.repeat(300 * 1024) });
    const response = await cancel(app, mint({ body: big }), big);
    assert.equal(response.statusCode, 413);
    assertErrorKind(response.json(), 413, 'TOO_LARGE');
  });

  test('reads and unprotected posts need nothing', async () => {
    const { app } = await daemon();
    assert.equal((await app.inject({ method: 'GET', url: '/api/v1/auth/accounts' })).statusCode, 200);
    const trades = await app.inject({ method: 'POST', url: '/api/v1/order/trades', payload: {} });
    assert.equal(trades.statusCode, 200, trades.body);
  });

  test('without a secret every protected call is refused: the verifier is unavailable', async () => {
    const { app, mint } = await daemon({ secret: null, bootstrap: 'none' });
    await refused(cancel(app, mint({ body: CANCEL_BODY })), 'AGENT_HARNESS_UNAVAILABLE', /verifier unavailable/);
  });
});

describe('when the harness is not enforced', () => {
  test('off: never enforced, and reported disabled', async () => {
    const { app } = await daemon({ mode: 'off' });
    await passed(cancel(app));
    const info = (await app.inject({ method: 'GET', url: '/api/v1/info' })).json();
    assert.equal(info.agent_harness.enabled, false);
    assert.equal(info.agent_harness.mode, 'off');
  });

  test('production: not enforced on a simulated daemon', async () => {
    const { app, mint } = await daemon({ mode: 'production' });
    await passed(cancel(app));
    // A token minted for production is not even looked at.
    await passed(cancel(app, mint({ env: 1, body: CANCEL_BODY })));
    const state = (await app.inject({ method: 'GET', url: '/api/v1/agent/harness' })).json();
    assert.equal(state.enabled, false);
  });

  test('production: enforced on a production daemon; all: everywhere; off: nowhere', () => {
    const of = (mode: AgentHarnessConfig['mode'], simulation: boolean) =>
      new AgentHarness({ mode, secret: SECRET, bootstrap: 'file', simulation }).enforced;
    assert.deepEqual(
      [of('production', false), of('production', true), of('all', true), of('all', false), of('off', false)],
      [true, false, true, true, false],
    );
  });
});

describe('GET and PATCH /api/v1/agent/harness', () => {
  const patch = (app: FastifyInstance, enabled: boolean, token?: string, body = JSON.stringify({ enabled })) =>
    app.inject({
      method: 'PATCH',
      url: '/api/v1/agent/harness',
      headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { [HEADER]: token }) },
      payload: body,
    });

  test('the state is in /info and /health, and GET /agent/harness', async () => {
    const { app, audience } = await daemon();
    const expected = {
      enabled: true,
      mode: 'all',
      capability_version: 1,
      capability_header: 'X-Shioaji-Agent-Capability',
      digest_scheme: 'compact_keyed_blake3',
      audience: audience.toString('hex'),
      max_ttl_seconds: 60,
      bootstrap: 'file',
    };
    assert.match(expected.audience, /^[0-9a-f]{64}$/);
    for (const url of ['/api/v1/info', '/api/v1/health']) {
      assert.deepEqual((await app.inject({ method: 'GET', url })).json().agent_harness, expected, url);
    }
    assert.deepEqual((await app.inject({ method: 'GET', url: '/api/v1/agent/harness' })).json(), expected);
    const other = await daemon();
    assert.notDeepEqual(other.audience, audience, 'each daemon draws its own audience');
  });

  test('PATCH needs a capability for update_agent_harness, to turn it off and on again', async () => {
    const { app, mint } = await daemon();
    const off = JSON.stringify({ enabled: false });
    const on = JSON.stringify({ enabled: true });
    await refused(patch(app, false), 'AGENT_CAPABILITY_REQUIRED', /update_agent_harness: this call needs/);
    await refused(patch(app, false, mint({ body: off })), 'AGENT_CAPABILITY_INVALID', /wrong capability operation 2/);
    const turnedOff = await patch(app, false, mint({ op: 'update_agent_harness', body: off }));
    assert.equal(turnedOff.statusCode, 200, turnedOff.body);
    assert.equal(turnedOff.json().enabled, false);
    await passed(cancel(app));
    // Switched off, the switch still needs a capability.
    await refused(patch(app, true), 'AGENT_CAPABILITY_REQUIRED', /needs the X-Shioaji-Agent-Capability header/);
    const turnedOn = await patch(app, true, mint({ op: 'update_agent_harness', body: on }));
    assert.equal(turnedOn.json().enabled, true);
    await refused(cancel(app), 'AGENT_CAPABILITY_REQUIRED', /needs the X-Shioaji-Agent-Capability header/);
  });

  test('PATCH cannot turn on a harness its mode never enforces', async () => {
    const { app, mint } = await daemon({ mode: 'off' });
    const on = JSON.stringify({ enabled: true });
    await refused(patch(app, true), 'AGENT_CAPABILITY_REQUIRED', /needs the X-Shioaji-Agent-Capability header/);
    const response = await patch(app, true, mint({ op: 'update_agent_harness', body: on }));
    assert.equal(response.statusCode, 400);
    assertErrorKind(response.json(), 400, 'INVALID_REQUEST');
    assert.match(response.json().message, /SJ_AGENT_HARNESS=off/);
  });

  test('PATCH validates its body after the capability', async () => {
    const { app, mint } = await daemon();
    const body = JSON.stringify({ enabled: 'yes' });
    const response = await patch(app, true, mint({ op: 'update_agent_harness', body }), body);
    assert.equal(response.statusCode, 422);
  });

  test('POST is not supported: 405 with the envelope', async () => {
    const { app } = await daemon();
    const response = await app.inject({ method: 'POST', url: '/api/v1/agent/harness', payload: { enabled: false } });
    assert.equal(response.statusCode, 405);
    assertErrorKind(response.json(), 405, 'METHOD_NOT_ALLOWED');
    assert.equal(response.headers.allow, 'GET, PATCH');
  });
});
