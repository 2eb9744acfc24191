// Real answers of an in-process gateway, read through the typed client, have the fields and field types their wire
// types declare. Each expected shape is typed against the wire type (every key of the type, no other), so a wire type
// that gains or loses a field fails to compile here, and an answer that differs from its type fails at run time.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ApiError, SjgateClient, type Transport } from '../../src/client/index.js';
import { testApp } from '../helpers/app.js';

type Kind = 'string' | 'number' | 'boolean' | 'object' | 'string[]' | 'number[]' | 'array';
/** Every field of T, each with the kind of JSON value it holds. */
type Shape<T> = { [Key in keyof T]-?: Kind };

function isKind(value: unknown, kind: Kind): boolean {
  if (kind === 'array') return Array.isArray(value);
  if (kind.endsWith('[]')) {
    const item = kind.slice(0, -2);
    return Array.isArray(value) && value.every((element) => typeof element === item);
  }
  if (kind === 'object') return value !== null && typeof value === 'object' && !Array.isArray(value);
  return typeof value === kind;
}

/** The answer has exactly the shape's fields, each of its kind. */
function assertShape<T extends object>(answer: T, shape: Shape<T>, what: string): void {
  assert.ok(answer !== null && typeof answer === 'object', `${what} is an object`);
  assert.deepEqual(Object.keys(answer).sort(), Object.keys(shape).sort(), `${what}: the fields`);
  for (const [key, kind] of Object.entries(shape) as [keyof T & string, Kind][]) {
    assert.ok(isKind(answer[key], kind), `${what}.${key} is ${kind}: ${JSON.stringify(answer[key])}`);
  }
}

/** The client over app.inject(): the gateway's real answers without a socket. */
function injected(app: FastifyInstance): Transport {
  return async (request) => {
    const response = await app.inject({
      method: request.method,
      url: request.path,
      headers: request.headers,
      ...(request.body === undefined ? {} : { payload: request.body as string }),
    });
    return {
      status: response.statusCode,
      contentType: String(response.headers['content-type'] ?? ''),
      header: (name) => {
        const value = response.headers[name.toLowerCase()];
        return value === undefined ? undefined : String(value);
      },
      text: async () => response.body,
      chunks: async function* () {
        yield response.body;
      },
    };
  };
}

describe('answers of the newly typed client methods', () => {
  let app: FastifyInstance;
  let client: SjgateClient;
  before(async () => {
    ({ app } = await testApp());
    client = new SjgateClient({ transport: injected(app) });
  });
  after(() => app?.close());

  test('accounts and contracts: CA expiry, futures roots', async () => {
    const [account] = await client.auth.accounts();
    assert.ok(account, 'the simulated person has accounts');
    const expiry = await client.auth.caExpireTime({ person_id: account.person_id });
    assertShape(expiry, { person_id: 'string', expire_time: 'string' }, 'ca_expiretime');
    assert.equal(expiry.person_id, account.person_id);
    const roots = await client.contracts.futuresRoots();
    assert.ok(roots.length > 0, 'the catalog has futures roots');
    assert.ok(roots.some((root) => root.root === 'TXF'));
    for (const root of roots) assertShape(root, { root: 'string', name: 'string' }, `futures root ${root.root}`);
  });

  test('market data: ticks are columns of one length; credit enquire rows', async () => {
    const ticks = await client.data.ticks({ contract: { code: '2330' }, query_type: 'LastCount', last_cnt: 5 });
    assertShape(
      ticks,
      {
        datetime: 'string[]',
        close: 'number[]',
        volume: 'number[]',
        bid_price: 'number[]',
        bid_volume: 'number[]',
        ask_price: 'number[]',
        ask_volume: 'number[]',
        tick_type: 'number[]',
      },
      'ticks',
    );
    assert.equal(new Set(Object.values(ticks).map((column) => column.length)).size, 1, 'columns of one length');
    const [row, ...others] = await client.data.creditEnquire({ contracts: [{ code: '2330' }] });
    assert.equal(others.length, 0);
    assert.ok(row, 'one row for one stock');
    assertShape(
      row,
      {
        update_time: 'string',
        system: 'string',
        stock_id: 'string',
        margin_unit: 'number',
        short_unit: 'number',
        margin_loan_ratio: 'number',
        short_margin_ratio: 'number',
      },
      'credit_enquire row',
    );
    assert.equal(row.stock_id, '2330');
  });

  test('portfolio: balance, trading limits, settlements of the default stock account', async () => {
    const balance = await client.portfolio.accountBalance({});
    assertShape(balance, { acc_balance: 'number', date: 'string', errmsg: 'string' }, 'account_balance');
    assert.ok(balance.acc_balance > 0, 'the simulated account starts with money');
    assertShape(
      await client.portfolio.tradingLimits({}),
      {
        trading_limit: 'number',
        trading_used: 'number',
        trading_available: 'number',
        margin_limit: 'number',
        margin_used: 'number',
        margin_available: 'number',
        short_limit: 'number',
        short_used: 'number',
        short_available: 'number',
      },
      'trading_limits',
    );
    const settlements = await client.portfolio.settlements({});
    assert.ok(settlements.length > 0, 'settlements lists T, T+1 and T+2');
    for (const day of settlements) assertShape(day, { date: 'string', amount: 'number', T: 'number' }, 'settlement');
  });

  test('reserve: the summary of the default stock account', async () => {
    const summary = await client.reserve.stockReserveSummary({});
    assertShape(summary, { stocks: 'array', account: 'object' }, 'stock_reserve_summary');
    assert.equal(summary.account.account_type, 'S');
  });

  test('agent harness and monitor viewer sessions', async () => {
    assertShape(
      await client.agent.harness(),
      {
        enabled: 'boolean',
        mode: 'string',
        capability_version: 'number',
        capability_header: 'string',
        digest_scheme: 'string',
        audience: 'string',
        max_ttl_seconds: 'number',
        bootstrap: 'string',
      },
      'agent harness',
    );
    const session = await client.monitor.openSession();
    assertShape(
      session,
      { id: 'string', expires_in_seconds: 'number', renew_after_seconds: 'number' },
      'viewer session',
    );
    const released = await client.monitor.closeSession(session.id);
    assertShape(released, { id: 'string', released: 'boolean' }, 'viewer released');
    assert.deepEqual(released, { id: session.id, released: true });
  });

  test('the stream receivers are plain text; a bad body is an ApiError, not a crash', async () => {
    const receivers = await client.stream.receivers();
    assert.equal(typeof receivers, 'string');
    assert.ok(receivers.length > 0);
    await assert.rejects(
      // @ts-expect-error: the request type holds last_cnt to a number; the gateway refuses what gets past it
      client.data.ticks({ contract: { code: '2330' }, query_type: 'LastCount', last_cnt: 'five' }),
      (error: unknown) => error instanceof ApiError && error.status === 422 && /last_cnt/.test(error.message),
    );
  });
});
