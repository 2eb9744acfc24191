import assert from 'node:assert/strict';
import { after, afterEach, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { PortfolioPort, Venue } from '../../src/broker/port.js';
import type { SimBroker } from '../../src/broker/sim/sim-broker.js';
import { SimVenue } from '../../src/broker/sim/sim-venue.js';
import type { AccountSelector } from '../../src/domain/accounts.js';
import { DomainError, InvalidRequestError, NotFoundError } from '../../src/domain/errors.js';
import type { StockTrade } from '../../src/domain/orders.js';
import type { StockPosition } from '../../src/domain/portfolio.js';
import { ManualClock } from '../../src/domain/time.js';
import { Gateway as GatewayService } from '../../src/gateway/gateway.js';
import { buildApp } from '../../src/server/app.js';
import { tradeJson } from '../../src/server/trade-json.js';
import { MONDAY_MORNING, testApp } from '../helpers/app.js';
import { assertErrorKind } from '../helpers/errors.js';
import {
  BALANCE,
  FUTURE_POSITION,
  FUTURE_POSITION_DETAIL,
  FUTURE_PROFIT_DETAIL,
  FUTURE_PROFIT_LOSS,
  FUTURE_SUMMARY,
  MARGIN,
  SETTLEMENTS,
  STOCK_POSITION,
  STOCK_POSITION_DETAIL,
  STOCK_POSITION_SHARES,
  STOCK_PROFIT_DETAIL,
  STOCK_PROFIT_LOSS,
  STOCK_SUMMARY,
  TRADING_LIMITS,
} from '../helpers/portfolio-fixtures.js';

const PORTFOLIO = '/api/v1/portfolio';

/** detail_id values the fake answers with an error. */
const UNKNOWN_DETAIL = 99;
const CONFLICT_DETAIL = 409;

interface Call {
  method: keyof PortfolioPort;
  selector: AccountSelector;
  args: unknown[];
}

/**
 * A PortfolioPort with fixed payloads. The account is resolved by the simulator's real accounts, so an unknown
 * account is that resolver's 404; stock or futures payloads follow the resolved account's type.
 */
function fakePortfolio(sim: SimBroker, calls: Call[]): PortfolioPort {
  const resolve = (method: keyof PortfolioPort, selector: AccountSelector, ...args: unknown[]) => {
    calls.push({ method, selector, args });
    // As the port says: without ids, the default account of the type; S when absent, F for margin.
    const type = selector.account_type ?? (method === 'margin' ? 'F' : 'S');
    const ids = selector.broker_id !== undefined || selector.account_id !== undefined;
    return sim.accounts.resolve(ids ? selector : { ...selector, account_type: type }).account_type;
  };
  const detail = (id: number) => {
    if (id === UNKNOWN_DETAIL)
      throw new NotFoundError('POSITION_NOT_FOUND', `no position or profit with detail_id ${id}`);
    if (id === CONFLICT_DETAIL)
      throw new DomainError('OUTSIDE_HOURS', 'the detail answers in trading hours only; ask again then');
  };
  return {
    accountBalance: async (selector) => {
      if (resolve('accountBalance', selector) !== 'S') throw new InvalidRequestError('account_balance is for S');
      return BALANCE;
    },
    margin: async (selector) => {
      if (resolve('margin', selector) !== 'F') {
        throw new InvalidRequestError('margin is for futures accounts; 9A95 is a stock account');
      }
      return MARGIN;
    },
    positions: async (selector, unit) =>
      resolve('positions', selector, unit) === 'F'
        ? [FUTURE_POSITION]
        : [unit === 'Share' ? STOCK_POSITION_SHARES : STOCK_POSITION],
    positionDetail: async (selector, detailId) => {
      const type = resolve('positionDetail', selector, detailId);
      detail(detailId);
      return type === 'F' ? [FUTURE_POSITION_DETAIL] : [STOCK_POSITION_DETAIL];
    },
    profitLoss: async (selector, range, unit) => {
      const type = resolve('profitLoss', selector, range, unit);
      if (range.begin_date !== undefined && range.end_date !== undefined && range.begin_date > range.end_date) {
        throw new InvalidRequestError(`begin_date ${range.begin_date} is after end_date ${range.end_date}`);
      }
      return type === 'F' ? [FUTURE_PROFIT_LOSS] : [STOCK_PROFIT_LOSS];
    },
    profitLossDetail: async (selector, detailId, unit) => {
      const type = resolve('profitLossDetail', selector, detailId, unit);
      detail(detailId);
      return type === 'F' ? [FUTURE_PROFIT_DETAIL] : [STOCK_PROFIT_DETAIL];
    },
    profitLossSummary: async (selector, range) =>
      resolve('profitLossSummary', selector, range) === 'F' ? FUTURE_SUMMARY : STOCK_SUMMARY,
    settlements: async (selector) => {
      resolve('settlements', selector);
      return SETTLEMENTS;
    },
    tradingLimits: async (selector) => {
      resolve('tradingLimits', selector);
      return TRADING_LIMITS;
    },
  };
}

interface Reply {
  status: number;
  headers: Record<string, unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
  body: any;
}

interface Gateway {
  app: FastifyInstance;
  sim: SimBroker;
  calls: Call[];
  /** POST; `undefined` sends no body at all. */
  post: (path: string, payload?: unknown) => Promise<Reply>;
}

const open: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of open.splice(0)) await app.close();
});
after(async () => {
  for (const app of open.splice(0)) await app.close();
});

async function send(app: FastifyInstance, url: string, payload?: unknown): Promise<Reply> {
  const response = await app.inject({
    method: 'POST',
    url,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  return { status: response.statusCode, headers: response.headers, body: response.json() };
}

/** The gateway with the simulator's accounts and a fake portfolio (the simulator's own comes separately). */
async function gateway(rateLimits = false): Promise<Gateway> {
  const clock = new ManualClock(MONDAY_MORNING);
  const calls: Call[] = [];
  const simVenue = new SimVenue({ clock, seed: 1, clockMode: 'always-open', apiKey: null });
  const sim = simVenue.exchange;
  const venue: Venue = {
    identity: simVenue.identity,
    clock: simVenue.clock,
    contracts: simVenue.contracts,
    accounts: simVenue.accounts,
    marketData: simVenue.marketData,
    orders: simVenue.orders,
    reserve: simVenue.reserve,
    portfolio: fakePortfolio(sim, calls),
    quotes: simVenue.quotes,
    start: () => simVenue.start(),
    close: () => simVenue.close(),
  };
  const app = await buildApp({
    gateway: GatewayService.open(venue, { tradeJson }),
    bindHost: '127.0.0.1',
    rateLimits,
    identity: { version: 'test', scheme: 'http', protocols: ['HTTP/1.1'], startedAt: Date.now() },
  });
  await app.ready();
  open.push(app);
  return { app, sim, calls, post: (path, payload) => send(app, `${PORTFOLIO}/${path}`, payload) };
}

function assertEnvelope(reply: Reply, status: number, message?: RegExp) {
  assert.equal(reply.status, status, JSON.stringify(reply.body));
  assertErrorKind(reply.body, status);
  assert.equal(reply.body.code, status);
  if (message) assert.match(reply.body.message, message);
  if (status !== 422) assert.equal(reply.body.details, null);
}

/** A 422 whose details name exactly this field of the body. */
function assertViolation(reply: Reply, loc: (string | number)[], type?: string) {
  assertEnvelope(reply, 422);
  const locs = (reply.body.details as { loc: unknown[]; type: string }[]).map((d) => d.loc.join('.'));
  assert.ok(locs.includes(['body', ...loc].join('.')), `${JSON.stringify(reply.body.details)} names ${loc}`);
  if (type)
    assert.ok(
      (reply.body.details as { type: string }[]).some((d) => d.type === type),
      type,
    );
  assert.match(reply.body.message, new RegExp(`body\\.${loc.join('\\.')}`));
}

function accountsOf(sim: SimBroker) {
  const list = sim.accounts.list();
  return { stock: list.find((a) => a.account_type === 'S')!, futures: list.find((a) => a.account_type === 'F')! };
}

describe('portfolio payloads', () => {
  test('an empty body asks about the default account; every field comes back as the port gave it', async () => {
    const gw = await gateway();
    const cases: [string, unknown][] = [
      ['account_balance', BALANCE],
      ['position_unit', [STOCK_POSITION]],
      ['profit_loss', [STOCK_PROFIT_LOSS]],
      ['profitloss_sum', STOCK_SUMMARY],
      ['settlements', SETTLEMENTS],
      ['trading_limits', TRADING_LIMITS],
    ];
    for (const [path, expected] of cases) {
      const reply = await gw.post(path, {});
      assert.equal(reply.status, 200, `${path}: ${JSON.stringify(reply.body)}`);
      assert.match(String(reply.headers['content-type']), /^application\/json/);
      assert.deepEqual(reply.body, expected, path);
    }
    assert.deepEqual(
      gw.calls.map((c) => [c.method, c.selector, ...c.args]),
      [
        ['accountBalance', {}],
        ['positions', {}, 'Common'],
        ['profitLoss', {}, {}, 'Common'],
        ['profitLossSummary', {}, {}],
        ['settlements', {}],
        ['tradingLimits', {}],
      ],
    );
  });

  test('a POST without any body is the same as {}', async () => {
    const gw = await gateway();
    for (const path of ['account_balance', 'position_unit', 'settlements', 'trading_limits', 'margin']) {
      const reply = await gw.post(path);
      if (path === 'margin') assert.deepEqual(reply.body, MARGIN);
      else assert.equal(reply.status, 200, `${path}: ${JSON.stringify(reply.body)}`);
    }
    assert.deepEqual(reply422(await gw.post('position_detail')), ['body.detail_id']);
  });

  test('margin: the default futures account with {} and with account_type F', async () => {
    const gw = await gateway();
    assert.deepEqual((await gw.post('margin', {})).body, MARGIN);
    assert.deepEqual((await gw.post('margin', { account_type: 'F' })).body, MARGIN);
    assert.deepEqual(
      gw.calls.map((c) => c.selector),
      [{}, { account_type: 'F' }],
    );
  });

  test('futures accounts answer futures rows: positions, details, profit and loss, summary', async () => {
    const gw = await gateway();
    const F = { account_type: 'F' };
    assert.deepEqual((await gw.post('position_unit', F)).body, [FUTURE_POSITION]);
    assert.deepEqual((await gw.post('position_detail', { ...F, detail_id: 0 })).body, [FUTURE_POSITION_DETAIL]);
    assert.deepEqual((await gw.post('profit_loss', F)).body, [FUTURE_PROFIT_LOSS]);
    assert.deepEqual((await gw.post('profit_loss_detail', { ...F, detail_id: 0 })).body, [FUTURE_PROFIT_DETAIL]);
    assert.deepEqual((await gw.post('profitloss_sum', F)).body, FUTURE_SUMMARY);
  });

  test('stock details; unit Share and the date range reach the port as given', async () => {
    const gw = await gateway();
    assert.deepEqual((await gw.post('position_detail', { detail_id: 0 })).body, [STOCK_POSITION_DETAIL]);
    assert.deepEqual((await gw.post('profit_loss_detail', { detail_id: 3, unit: 'Share' })).body, [
      STOCK_PROFIT_DETAIL,
    ]);
    assert.deepEqual((await gw.post('position_unit', { unit: 'Share' })).body, [STOCK_POSITION_SHARES]);
    const range = { begin_date: '2026-11-02', end_date: '2026-11-23' };
    await gw.post('profit_loss', { ...range, unit: 'Share' });
    await gw.post('profitloss_sum', range);
    assert.deepEqual(
      gw.calls.map((c) => [c.method, ...c.args]),
      [
        ['positionDetail', 0],
        ['profitLossDetail', 3, 'Share'],
        ['positions', 'Share'],
        ['profitLoss', range, 'Share'],
        ['profitLossSummary', range],
      ],
    );
  });

  test('the OpenAPI document types every int field of the spec as an integer', async () => {
    const gw = await gateway();
    const doc = (await gw.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.ok(doc.tags.some((t: { name: string }) => t.name === 'portfolio'));
    assert.ok(doc.tags.some((t: { name: string }) => t.name === 'order'));
    // biome-ignore lint/suspicious/noExplicitAny: walking the OpenAPI document
    const ok = (path: string): any =>
      doc.paths[`${PORTFOLIO}/${path}`].post.responses['200'].content['application/json'].schema;
    // biome-ignore lint/suspicious/noExplicitAny: walking the OpenAPI document
    const rows = (path: string, branch: number): any => ok(path).anyOf[branch].items.properties;
    const typeOf = (properties: Record<string, { type: string }>) =>
      Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, schema.type]));
    const integers = (properties: Record<string, { type: string }>) =>
      Object.entries(typeOf(properties))
        .filter(([, type]) => type === 'integer')
        .map(([name]) => name)
        .sort();
    assert.deepEqual(integers(rows('position_unit', 0)), [
      'collateral',
      'id',
      'interest',
      'margin_purchase_amount',
      'quantity',
      'short_sale_margin',
      'yd_quantity',
    ]);
    assert.deepEqual(integers(rows('position_unit', 1)), ['id', 'quantity']);
    assert.deepEqual(integers(rows('position_detail', 0)), [
      'collateral',
      'ex_dividends',
      'interest',
      'margintrading_amt',
      'quantity',
    ]);
    assert.deepEqual(integers(rows('position_detail', 1)), ['entry_quantity', 'quantity']);
    assert.deepEqual(integers(rows('profit_loss', 0)), ['id', 'quantity']);
    assert.deepEqual(integers(rows('profit_loss', 1)), ['fee', 'id', 'quantity', 'tax']);
    assert.deepEqual(integers(rows('profit_loss_detail', 0)), [
      'cost',
      'ex_dividend_amt',
      'fee',
      'interest',
      'quantity',
      'rep_collateral',
      'rep_margin',
      'rep_margintrading_amt',
      'shortselling_fee',
      'tax',
    ]);
    assert.deepEqual(integers(rows('profit_loss_detail', 1)), ['entry_quantity', 'pnl', 'quantity']);
    const summary = ok('profitloss_sum').properties;
    assert.deepEqual(integers(summary.profitloss_sum.anyOf[0].items.properties), [
      'buy_cost',
      'cover_cost',
      'entry_cost',
      'quantity',
      'sell_cost',
    ]);
    assert.deepEqual(integers(summary.profitloss_sum.anyOf[1].items.properties), ['fee', 'quantity', 'tax']);
    assert.deepEqual(integers(summary.total.properties), ['quantity']);
    assert.deepEqual(integers(ok('settlements').items.properties), ['T']);
    assert.deepEqual(integers(ok('trading_limits').properties), Object.keys(TRADING_LIMITS).sort());
    assert.deepEqual(integers(ok('margin').properties), []);
    assert.deepEqual(Object.keys(ok('margin').properties).sort(), Object.keys(MARGIN).sort());
    for (const path of ['account_balance', 'margin', 'position_unit', 'settlements', 'trading_limits']) {
      assert.deepEqual(doc.paths[`${PORTFOLIO}/${path}`].post.tags, ['portfolio'], path);
    }
  });
});

/** The body fields a 422 names, as `body.field`. */
function reply422(reply: Reply): string[] {
  assertEnvelope(reply, 422);
  return (reply.body.details as { loc: unknown[] }[]).map((d) => d.loc.join('.'));
}

describe('choosing the account', () => {
  test('broker_id and account_id flat, nested under account, or an Account object sent as is', async () => {
    const gw = await gateway();
    const { stock, futures } = accountsOf(gw.sim);
    const ids = { broker_id: stock.broker_id, account_id: stock.account_id };
    assert.equal((await gw.post('position_unit', ids)).status, 200);
    assert.equal((await gw.post('position_unit', { account: ids })).status, 200);
    assert.equal((await gw.post('settlements', { ...stock })).status, 200);
    assert.equal((await gw.post('settlements', { account: { ...stock } })).status, 200);
    const viaFutures = await gw.post('position_unit', {
      account: { broker_id: futures.broker_id, account_id: futures.account_id },
    });
    assert.deepEqual(viaFutures.body, [FUTURE_POSITION]);
    const person = { account_type: 'S' as const, person_id: stock.person_id, ...ids };
    assert.deepEqual(
      gw.calls.map((c) => c.selector),
      [ids, ids, person, person, { broker_id: futures.broker_id, account_id: futures.account_id }],
    );
  });

  test('an unknown account is the resolver 404; half an id is a 400; flat and nested together is a 400', async () => {
    const gw = await gateway();
    const { stock } = accountsOf(gw.sim);
    assertEnvelope(
      await gw.post('position_unit', { broker_id: '9A95', account_id: '0000000' }),
      404,
      /no account 9A95-0000000/,
    );
    assertEnvelope(await gw.post('account_balance', { account: { broker_id: 'XXXX', account_id: '1' } }), 404);
    assertEnvelope(
      await gw.post('trading_limits', { broker_id: stock.broker_id }),
      400,
      /both broker_id and account_id/,
    );
    assertEnvelope(
      await gw.post('settlements', {
        broker_id: stock.broker_id,
        account: { broker_id: stock.broker_id, account_id: stock.account_id },
      }),
      400,
      /either flat or under "account"/,
    );
  });

  test('an account of the other type named by its ids: the port answers 400', async () => {
    const gw = await gateway();
    const { stock } = accountsOf(gw.sim);
    assertEnvelope(
      await gw.post('margin', { broker_id: stock.broker_id, account_id: stock.account_id }),
      400,
      /margin is for futures accounts/,
    );
  });
});

describe('bad requests', () => {
  test('wrong account_type literals are 422 naming account_type', async () => {
    const gw = await gateway();
    for (const path of ['account_balance', 'settlements', 'trading_limits']) {
      assertViolation(await gw.post(path, { account_type: 'F' }), ['account_type'], 'enum');
      assertViolation(await gw.post(path, { account: { account_type: 'F' } }), ['account', 'account_type'], 'enum');
    }
    assertViolation(await gw.post('margin', { account_type: 'S' }), ['account_type'], 'enum');
    assert.match((await gw.post('margin', { account_type: 'S' })).body.message, /must be one of "F"/);
    for (const path of ['position_unit', 'profit_loss', 'profitloss_sum']) {
      assertViolation(await gw.post(path, { account_type: 'H' }), ['account_type'], 'enum');
    }
    assert.deepEqual(gw.calls, []);
  });

  test('a bad unit, date, detail_id or an unknown field is a 422 naming it; the port is not called', async () => {
    const gw = await gateway();
    assertViolation(await gw.post('position_unit', { unit: 'Lot' }), ['unit'], 'enum');
    assertViolation(await gw.post('position_unit', { unit: 'common' }), ['unit'], 'enum');
    assertViolation(await gw.post('profit_loss_detail', { detail_id: 1, unit: 3 }), ['unit']);
    for (const date of ['2026/11/23', '2026-13-01', '2026-11-32', '20261123', '']) {
      assertViolation(await gw.post('profit_loss', { begin_date: date }), ['begin_date'], 'pattern');
      assertViolation(await gw.post('profitloss_sum', { end_date: date }), ['end_date'], 'pattern');
    }
    assertViolation(await gw.post('position_detail', { detail_id: '3' }), ['detail_id'], 'type');
    assertViolation(await gw.post('position_detail', { detail_id: 1.5 }), ['detail_id'], 'type');
    assertViolation(await gw.post('position_detail', { detail_id: -1 }), ['detail_id'], 'minimum');
    assertViolation(await gw.post('profit_loss_detail', {}), ['detail_id'], 'missing');
    assertViolation(await gw.post('settlements', { unit: 'Common' }), ['unit'], 'extra_forbidden');
    assertViolation(await gw.post('account_balance', { broker_id: '' }), ['broker_id']);
    assert.deepEqual(reply422(await gw.post('profit_loss', { begin_date: 'x', end_date: 'y', unit: 'Z' })).sort(), [
      'body.begin_date',
      'body.end_date',
      'body.unit',
    ]);
    assert.deepEqual(gw.calls, []);
  });

  test('a body that is not an object or not JSON', async () => {
    const gw = await gateway();
    assertEnvelope(await gw.post('position_unit', [1]), 422);
    const bad = await gw.app.inject({
      method: 'POST',
      url: `${PORTFOLIO}/position_unit`,
      headers: { 'content-type': 'application/json' },
      payload: '{"unit": ',
    });
    assertEnvelope({ status: bad.statusCode, headers: bad.headers, body: bad.json() }, 400, /not valid JSON/);
  });
});

describe('errors of the port', () => {
  test('come back in the error envelope with their status', async () => {
    const gw = await gateway();
    assertEnvelope(
      await gw.post('position_detail', { detail_id: UNKNOWN_DETAIL }),
      404,
      /no position or profit with detail_id 99/,
    );
    assertEnvelope(await gw.post('profit_loss_detail', { detail_id: UNKNOWN_DETAIL }), 404);
    assertEnvelope(await gw.post('position_detail', { detail_id: CONFLICT_DETAIL }), 409, /trading hours only/);
    assertEnvelope(
      await gw.post('profit_loss', { begin_date: '2026-11-23', end_date: '2026-11-02' }),
      400,
      /begin_date 2026-11-23 is after end_date 2026-11-02/,
    );
  });
});

describe('call-rate limit', () => {
  test('balance, margin, positions, profit and loss (and its detail) and settlements share 25 calls per 5 s', async () => {
    const gw = await gateway(true);
    const limited = ['account_balance', 'margin', 'position_unit', 'profit_loss', 'settlements'];
    for (let i = 0; i < 24; i += 1) {
      const path = limited[i % limited.length]!;
      assert.equal((await gw.post(path, {})).status, 200, `call ${i + 1}: ${path}`);
    }
    assert.equal((await gw.post('profit_loss_detail', { detail_id: 0 })).status, 200);
    const refused = await gw.post('account_balance', {});
    assertEnvelope(refused, 429, /accounting: over 25 calls per 5 seconds/);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assertEnvelope(await gw.post('settlements', {}), 429);
    // Not in the accounting group of the limits, and other groups keep working.
    assert.equal((await gw.post('trading_limits', {})).status, 200);
    assert.equal((await gw.post('position_detail', { detail_id: 0 })).status, 200);
    assert.equal((await gw.post('profitloss_sum', {})).status, 200);
    assert.equal((await send(gw.app, '/api/v1/order/trades', {})).status, 200);
  });
});

// ---- END-TO-END: needs the simulator's portfolio (broker.portfolio of SimBroker), wired in separately. ----
// Until SimBroker has a `portfolio`, these tests are skipped (not failed); once it lands they must pass as they are.

describe('with the simulator', () => {
  test('a filled stock buy shows in position_unit, in lots and in shares', async (t) => {
    const { app, broker } = await testApp();
    open.push(app);
    if (typeof Reflect.get(broker, 'portfolio') !== 'object') {
      t.skip('SimBroker has no portfolio yet');
      return;
    }
    const snapshot = (await send(app, '/api/v1/data/snapshots', { contracts: [{ code: '2330' }] })).body[0];
    const before = (await send(app, `${PORTFOLIO}/position_unit`, {})).body as StockPosition[];
    assert.equal(
      before.find((p) => p.code === '2330'),
      undefined,
      JSON.stringify(before),
    );

    const placed = await send(app, '/api/v1/order/place_order', {
      contract: { code: '2330' },
      stock_order: { action: 'Buy', price: snapshot.sell_price, quantity: 1, price_type: 'LMT', order_type: 'ROD' },
    });
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    const trade = placed.body as StockTrade;
    const bought = trade.status.deal_quantity;
    assert.ok(bought >= 1, JSON.stringify(trade.status));

    const lots = await send(app, `${PORTFOLIO}/position_unit`, {});
    assert.equal(lots.status, 200, JSON.stringify(lots.body));
    const position = (lots.body as StockPosition[]).find((p) => p.code === '2330');
    assert.ok(position, JSON.stringify(lots.body));
    assert.deepEqual(Object.keys(position).sort(), Object.keys(STOCK_POSITION).sort());
    assert.equal(position.direction, 'Buy');
    assert.equal(position.quantity, bought);
    assert.equal(position.cond, 'Cash');
    assert.equal(position.yd_quantity, 0);
    assert.ok(Number.isInteger(position.id));
    const paid = trade.status.deals.reduce((sum, d) => sum + d.price * d.quantity, 0) / bought;
    assert.ok(Math.abs(position.price - paid) <= paid * 0.01, `average price ${position.price}, paid ${paid}`);

    const shares = await send(app, `${PORTFOLIO}/position_unit`, { unit: 'Share' });
    assert.equal((shares.body as StockPosition[]).find((p) => p.code === '2330')?.quantity, bought * 1000);
  });
});
