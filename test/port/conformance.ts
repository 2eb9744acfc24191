// The conformance suite of the venue port (src/broker/port.ts): what a client of any venue relies on, in venue-neutral
// terms. A venue runs it from its own test file with a factory that builds it (see sim.conformance.test.ts).
//
// Queries go to the venue through the port. Orders go through the gateway (src/gateway) in front of it, as the server
// sends them: Idempotency-Key, the journal and the event sequence are the gateway's, and they hold for a venue only if
// it keeps the port's promises (every change reported, and reported before the command's answer).
//
// Every call to the port is awaited, so the suite runs unchanged on a synchronous port and on the async one. Nothing
// here knows a simulated price: orders are priced from the contract's own limits and tick grid, and outcomes that a
// live venue reports later (fills, order events) are waited for with `eventually`.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { OrderUpdate, Venue } from '../../src/broker/port.js';
import type { AccountSelector } from '../../src/domain/accounts.js';
import type { ContractInfo, FuturesInfo, OptionInfo, StockInfo } from '../../src/domain/contracts.js';
import type { ErrorKind } from '../../src/domain/errors.js';
import type { OrderEvent, StockOrderInput, Trade } from '../../src/domain/orders.js';
import type { StockPosition } from '../../src/domain/portfolio.js';
import type { MarketEvent } from '../../src/domain/quotes.js';
import { isOnTickGrid, STOCK_TICKS, stepTicks, type TickTable } from '../../src/domain/ticks.js';
import { addDays, taipeiDate } from '../../src/domain/time.js';
import { Gateway, type JournaledOrderEvent } from '../../src/gateway/gateway.js';

/** A venue built for one test, in a trading session, with the default stock and futures accounts funded. */
export interface VenueUnderTest {
  venue: Venue;
  /**
   * Lets `ms` of market time pass and the venue deliver what is due by then: quotes, fills, order events. A venue on
   * a virtual clock moves it; a live venue waits. `advance(0)` only lets the venue deliver what is pending.
   */
  advance(ms: number): Promise<void>;
}

/** A venue and the gateway in front of it, for one test. */
interface Harness {
  broker: Venue;
  gateway: Gateway;
  /** Lets `ms` of market time pass, then waits until what the venue reported by then is journaled. */
  advance(ms: number): Promise<void>;
}

export interface ConformanceOptions {
  /** The time limit of each test; 15 s unless told. */
  timeoutMs?: number;
  /** How long `eventually` waits in real time for a venue to report something; 5 s unless told. */
  settleMs?: number;
}

// Real listings of the Taiwan market: any venue of it has them.
/** A liquid, cheap stock (TWSE, tick 0.05 in its range): the orders' instrument. */
const STOCK = '2884';
/** A second stock, for the market data groups. */
const OTHER_STOCK = '2330';
const FUTURES_ALIAS = 'TXFR1';
const INDEX = 'IX0001';
const OPTION_ROOT = 'TXO';
const UNKNOWN_CODE = '9999';
const UNKNOWN_ACCOUNT: AccountSelector = { account_type: 'S', broker_id: '0000', account_id: '0000000' };

/** What the board-lot quantities of a stock order count. */
const SHARES_PER_LOT = 1000;

export function describeVenueConformance(
  name: string,
  makeVenue: () => Promise<VenueUnderTest>,
  options: ConformanceOptions = {},
): void {
  const timeout = options.timeoutMs ?? 15_000;
  const settleMs = options.settleMs ?? 5_000;

  /** Runs a test body against a fresh venue behind a gateway, and closes both whatever happens. */
  const withVenue = (body: (venue: Harness) => Promise<void>) => async () => {
    const under = await makeVenue();
    const gateway = Gateway.open(under.venue, { log: () => undefined });
    const advance = async (ms: number) => {
      await under.advance(ms);
      await gateway.durable();
    };
    try {
      await body({ broker: under.venue, gateway, advance });
    } finally {
      await gateway.close();
    }
  };

  /** Lets the venue deliver what is pending until `check` answers something, or fails naming what it waited for. */
  async function eventually<T>(venue: Harness, what: string, check: () => Promise<T | undefined>): Promise<T> {
    const deadline = performance.now() + settleMs;
    for (;;) {
      await venue.advance(0);
      const found = await check();
      if (found !== undefined) return found;
      if (performance.now() > deadline) assert.fail(`${what}: not reported within ${settleMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  describe(`venue port conformance: ${name}`, () => {
    describe('contracts', () => {
      test(
        'a stock, an index, a futures alias and an option are found by code',
        { timeout },
        withVenue(async ({ broker }) => {
          const stock = await broker.contracts.get(OTHER_STOCK);
          assert.equal(stock.code, OTHER_STOCK);
          assert.equal(stock.security_type, 'STK');
          assert.equal(stock.target_code, null);
          const index = await broker.contracts.get(INDEX);
          assert.equal(index.security_type, 'IND');
          assert.equal(index.target_code, null);

          const alias = await broker.contracts.get(FUTURES_ALIAS);
          assert.equal(alias.code, FUTURES_ALIAS, 'the alias keeps its own code');
          assert.equal(alias.security_type, 'FUT');
          assert.match(alias.target_code ?? '', /^TXF[A-L]\d$/, 'target_code names a listed month');
          const target = await broker.contracts.get(alias.target_code!);
          assert.equal(target.code, alias.target_code);
          assert.equal(target.target_code, null);
          const aliasInfo = (await broker.contracts.info(FUTURES_ALIAS)) as FuturesInfo;
          assert.equal(aliasInfo.code, FUTURES_ALIAS);
          assert.equal(aliasInfo.target_code, alias.target_code);
          const months = (await broker.contracts.futures({ root: 'TXF' })).map((f) => f.code);
          assert.ok(months.includes(alias.target_code!), `${alias.target_code} is among the TXF months`);

          const [listed] = await broker.contracts.options({ root: OPTION_ROOT });
          assert.ok(listed, 'the TXO series lists options');
          const option = await broker.contracts.get(listed.code);
          assert.equal(option.security_type, 'OPT');
          assert.equal(option.code, listed.code);
          const optionInfo = (await broker.contracts.info(listed.code)) as OptionInfo;
          assert.equal(optionInfo.strike_price, listed.strike_price);
          assert.equal(optionInfo.option_right, listed.option_right);
        }),
      );

      test(
        'an unknown or mistyped code is CONTRACT_NOT_FOUND',
        { timeout },
        withVenue(async ({ broker }) => {
          await rejectsWithKind(() => broker.contracts.get(UNKNOWN_CODE), 'CONTRACT_NOT_FOUND');
          await rejectsWithKind(() => broker.contracts.info(UNKNOWN_CODE), 'CONTRACT_NOT_FOUND');
          await rejectsWithKind(() => broker.contracts.get(OTHER_STOCK, { securityType: 'FUT' }), 'CONTRACT_NOT_FOUND');
        }),
      );

      test(
        'listings hold only what the filter asks, once each, in a stable order for paging',
        { timeout },
        withVenue(async ({ broker }) => {
          const stocks = await broker.contracts.list('STK');
          assert.ok(stocks.every((c) => c.security_type === 'STK'));
          const codes = stocks.map((c) => c.code);
          assert.equal(new Set(codes).size, codes.length, 'no code twice');
          assert.ok(codes.includes(STOCK) && codes.includes(OTHER_STOCK));
          assert.deepEqual(
            (await broker.contracts.list('STK')).map((c) => c.code),
            codes,
            'same order every time',
          );
          const indices = (await broker.contracts.list('IND')).map((c) => c.code);
          assert.ok(indices.includes(INDEX) && !indices.includes(OTHER_STOCK));

          const futures = await broker.contracts.futures({ root: 'TXF' });
          assert.ok(futures.length > 0 && futures.every((f) => f.security_type === 'FUT' && f.code.startsWith('TXF')));

          const all = await broker.contracts.options({ root: OPTION_ROOT });
          const strikes = [...new Set(all.map((o) => o.strike_price))].sort((a, b) => a - b);
          const strikeMin = strikes[Math.floor(strikes.length / 3)]!;
          const strikeMax = strikes[Math.floor((2 * strikes.length) / 3)]!;
          const calls = await broker.contracts.options({ root: OPTION_ROOT, optionRight: 'C', strikeMin, strikeMax });
          assert.ok(calls.length > 0, 'calls in the middle third of the strikes');
          assert.ok(calls.length < all.length);
          for (const call of calls) {
            assert.equal(call.option_right, 'C', call.code);
            assert.ok(call.strike_price >= strikeMin && call.strike_price <= strikeMax, call.code);
          }
        }),
      );
    });

    describe('market data', () => {
      test(
        'snapshots answer each code asked, with sane prices on the tick grid',
        { timeout },
        withVenue(async ({ broker }) => {
          const codes = [OTHER_STOCK, STOCK, FUTURES_ALIAS];
          const snapshots = await broker.marketData.snapshots(codes.map((code) => ({ code })));
          assert.equal(snapshots.length, codes.length);
          for (const code of codes) {
            const snapshot = snapshots.find((s) => s.code === code);
            assert.ok(snapshot, `a snapshot of ${code}`);
            const info = await broker.contracts.info(code);
            const where = `${code}: ${JSON.stringify(snapshot)}`;
            assert.ok(!Number.isNaN(Date.parse(snapshot.datetime)), where);
            assert.ok(snapshot.low <= snapshot.open && snapshot.open <= snapshot.high, where);
            assert.ok(snapshot.low <= snapshot.close && snapshot.close <= snapshot.high, where);
            assert.ok(snapshot.total_volume >= snapshot.volume && snapshot.volume >= 0, where);
            assert.ok(snapshot.total_amount >= snapshot.amount && snapshot.amount >= 0, where);
            const { limit_down, limit_up } = info as StockInfo | FuturesInfo;
            const grid = tickTableOf(info);
            for (const price of [snapshot.open, snapshot.high, snapshot.low, snapshot.close]) {
              assert.ok(limit_down <= price && price <= limit_up, `${price} within the limits: ${where}`);
              assert.ok(isOnTickGrid(grid, price), `${price} on the tick grid: ${where}`);
            }
            if (snapshot.buy_price > 0 && snapshot.sell_price > 0) {
              assert.ok(snapshot.buy_price < snapshot.sell_price, `the book is not crossed: ${where}`);
            }
          }
        }),
      );

      test(
        'ticks and kbars of a past trading day are ordered, start on that day, end before the next and add up',
        { timeout },
        withVenue(async ({ broker }) => {
          const contract = { code: OTHER_STOCK };
          const [later, earlier] = await pastTradingDays(broker, OTHER_STOCK, 2);
          const ticksOf = async (date: string) =>
            await broker.marketData.ticks({ contract, date, query_type: 'AllDay' });
          const ticks = await ticksOf(earlier!);
          const next = await ticksOf(later!);
          const n = ticks.datetime.length;
          assert.ok(n > 0);
          for (const column of ['close', 'volume', 'bid_price', 'ask_price', 'tick_type'] as const) {
            assert.equal(ticks[column].length, n, `${column} has one value per tick`);
          }
          assert.ok(ticks.datetime[0]!.startsWith(earlier!), `${ticks.datetime[0]} is on ${earlier}`);
          assertAscending(ticks.datetime, `ticks of ${earlier}`);
          assert.ok(
            ticks.datetime.at(-1)! < next.datetime[0]!,
            `the ticks of ${earlier} end before those of ${later} begin`,
          );
          assert.ok(
            ticks.close.every((price) => isOnTickGrid(STOCK_TICKS, price)),
            'tick prices on the grid',
          );
          assert.ok(ticks.volume.every((v) => v > 0));

          const kbars = await broker.marketData.kbars({ contract, start: earlier, end: earlier });
          const bars = kbars.datetime.length;
          assert.ok(bars > 0);
          assertAscending(kbars.datetime, `kbars of ${earlier}`);
          assert.ok(kbars.datetime[0]!.startsWith(earlier!));
          assert.ok(kbars.datetime.at(-1)! <= next.datetime[0]!, `the kbars of ${earlier} end before ${later}`);
          for (let i = 0; i < bars; i++) {
            const [open, high, low, close] = [kbars.Open[i]!, kbars.High[i]!, kbars.Low[i]!, kbars.Close[i]!];
            assert.ok(low <= Math.min(open, close) && Math.max(open, close) <= high, `bar ${kbars.datetime[i]}`);
          }
          const volume = (values: number[]) => values.reduce((sum, v) => sum + v, 0);
          assert.equal(volume(kbars.Volume), volume(ticks.volume), 'the bars add up to the ticks of the day');
        }),
      );
    });

    describe('quote feed', () => {
      test(
        'a stock Tick subscription delivers events of that code; unsubscribing stops them and only them',
        { timeout },
        withVenue(async (venue) => {
          const { broker } = venue;
          const heard: MarketEvent[] = [];
          const stop = await broker.quotes.onMarketEvent((event) => heard.push(event));
          try {
            const ticksOf = (code: string) => heard.filter((e) => e.name === 'tick_stk' && e.data.code === code).length;
            const subscribe = async (code: string) => {
              const subscription = await broker.quotes.resolve({
                contract: { code },
                quoteType: 'Tick',
                intradayOdd: false,
              });
              await broker.quotes.subscribe(subscription);
              return subscription;
            };
            // STOCK stays subscribed throughout: its ticks show that the market kept trading after the unsubscribe.
            const dropped = await subscribe(OTHER_STOCK);
            await subscribe(STOCK);
            for (let minutes = 0; minutes < 10 && (ticksOf(OTHER_STOCK) === 0 || ticksOf(STOCK) === 0); minutes++) {
              await venue.advance(60_000);
            }
            assert.ok(ticksOf(OTHER_STOCK) > 0 && ticksOf(STOCK) > 0, 'ticks of both codes within 10 minutes');
            assert.ok(
              heard.every((e) => e.name === 'tick_stk' && [OTHER_STOCK, STOCK].includes(String(e.data.code))),
              `only what was subscribed: ${[...new Set(heard.map((e) => `${e.name} ${e.data.code}`))].join(', ')}`,
            );

            await broker.quotes.unsubscribe(dropped);
            await venue.advance(0);
            const [droppedBefore, keptBefore] = [ticksOf(OTHER_STOCK), ticksOf(STOCK)];
            // Long enough for a liquid stock to trade several times.
            for (let minutes = 0; minutes < 5; minutes++) await venue.advance(60_000);
            assert.ok(ticksOf(STOCK) > keptBefore, `${STOCK}, still subscribed, kept ticking`);
            assert.equal(ticksOf(OTHER_STOCK), droppedBefore, `no tick of ${OTHER_STOCK} after unsubscribe`);
          } finally {
            stop();
          }
        }),
      );
    });

    describe('orders', () => {
      /** The stock's info and the order events heard from the start of the test. */
      async function desk(venue: Harness) {
        const { broker, gateway } = venue;
        const info = (await broker.contracts.info(STOCK)) as StockInfo;
        const events: JournaledOrderEvent[] = [];
        gateway.orderEvents.listen((event) => events.push(event));
        const place = async (order: Partial<StockOrderInput>, idempotencyKey?: string) =>
          await gateway.orders.place({
            contract: { code: STOCK },
            stockOrder: { action: 'Buy', price: 0, quantity: 1, price_type: 'LMT', order_type: 'ROD', ...order },
            wait: true,
            idempotencyKey,
          });
        const tradeOf = async (id: string) => (await broker.orders.trades()).find((t) => t.order.id === id);
        /** The trade once `check` holds for it. */
        const tradeWhen = (id: string, what: string, check: (trade: Trade) => boolean) =>
          eventually(venue, `${id}: ${what}`, async () => {
            const trade = await tradeOf(id);
            return trade && check(trade) ? trade : undefined;
          });
        const eventsOf = (id: string) => events.filter((e) => idOfEvent(e.event) === id).map((e) => e.event);
        return { broker, info, events, place, tradeOf, tradeWhen, eventsOf };
      }

      test(
        'a marketable order fills, with deals inside its limit; New comes first, then the deals',
        { timeout },
        withVenue(async (venue) => {
          const { info, events, place, tradeWhen, eventsOf } = await desk(venue);
          const placed = await place({ price: info.limit_up, quantity: 2 });
          assert.notEqual(placed.status.status, 'Failed', placed.status.msg);
          assert.ok(placed.order.id, 'the trade has an id');
          const filled = await tradeWhen(placed.order.id, 'filled', (t) => t.status.status === 'Filled');
          const { deals } = filled.status;
          assert.ok(deals.length > 0);
          assert.equal(sum(deals.map((d) => d.quantity)), filled.status.deal_quantity);
          assert.equal(filled.status.deal_quantity, 2);
          for (const deal of deals) {
            assert.ok(deal.quantity > 0);
            assert.ok(deal.price >= info.limit_down && deal.price <= info.limit_up, `deal at ${deal.price}`);
            assert.ok(isOnTickGrid(STOCK_TICKS, deal.price), `deal at ${deal.price} on the grid`);
          }

          const reported = await eventually(venue, 'the deal events', async () => {
            const mine = eventsOf(placed.order.id);
            const dealt = sum(mine.map((e) => (e.state === 'StockDeal' ? e.data.StockDeal.quantity : 0)));
            return dealt === 2 ? mine : undefined;
          });
          assert.equal(reported[0]!.state, 'StockOrder');
          assert.deepEqual(opOf(reported[0]!), ['New', '00']);
          assert.ok(
            reported.slice(1).every((e) => e.state === 'StockDeal'),
            reported.map((e) => e.state).join(', '),
          );
          assert.deepEqual(
            reported
              .slice(1)
              .map((e) => (e.state === 'StockDeal' ? [e.data.StockDeal.price, e.data.StockDeal.quantity] : [])),
            deals.map((d) => [d.price, d.quantity]),
            'one deal event per deal of the trade, in order',
          );
          assertAscending(
            events.map((e) => e.seq),
            'event seq',
          );
        }),
      );

      test(
        'a resting order is Submitted; update_price, update_qty (reduce by) and cancel act on it, each reported in order',
        { timeout },
        withVenue(async (venue) => {
          const { broker, info, events, place, tradeWhen, eventsOf } = await desk(venue);
          const placed = await place({ price: info.limit_down, quantity: 5 });
          assert.notEqual(placed.status.status, 'Failed', placed.status.msg);
          const id = placed.order.id;
          await tradeWhen(id, 'Submitted', (t) => t.status.status === 'Submitted');

          const higher = stepTicks(STOCK_TICKS, info.limit_down, 1);
          await broker.orders.updatePrice(id, higher);
          const repriced = await tradeWhen(id, `repriced to ${higher}`, (t) => t.status.modified_price === higher);
          assert.equal(repriced.status.status, 'Submitted');

          await broker.orders.updateQty(id, 2);
          const reduced = await tradeWhen(id, 'reduced by 2', (t) => t.status.cancel_quantity === 2);
          assert.equal(reduced.status.order_quantity, 3, 'update_qty reduces by the quantity given');
          assert.equal(reduced.status.status, 'Submitted');
          assert.equal(reduced.status.modified_price, higher, 'the new price stays');

          await broker.orders.cancel(id);
          const cancelled = await tradeWhen(id, 'Cancelled', (t) => t.status.status === 'Cancelled');
          assert.equal(cancelled.status.cancel_quantity, 5);
          assert.equal(cancelled.status.deal_quantity, 0);

          const reported = await eventually(venue, 'the cancel event', async () => {
            const mine = eventsOf(id);
            return mine.some((e) => opOf(e)[0] === 'Cancel') ? mine : undefined;
          });
          assert.deepEqual(
            reported.map((e) => opOf(e)),
            [
              ['New', '00'],
              ['UpdatePrice', '00'],
              ['UpdateQty', '00'],
              ['Cancel', '00'],
            ],
          );
          assertAscending(
            events.map((e) => e.seq),
            'event seq',
          );
        }),
      );

      test(
        'every change of an order reaches onOrderUpdate before the answer of the command that made it',
        { timeout },
        withVenue(async ({ broker }) => {
          const info = (await broker.contracts.info(STOCK)) as StockInfo;
          const updates: OrderUpdate[] = [];
          const stop = broker.orders.onOrderUpdate((update) => updates.push(update));
          try {
            const stockOrder = { action: 'Buy', quantity: 1, price_type: 'LMT', order_type: 'ROD' } as const;
            const placed = await broker.orders.place({
              contract: { code: STOCK },
              stockOrder: { ...stockOrder, price: info.limit_down },
            });
            const placedUpdate = updates.find((u) => u.order.id === placed.order.id);
            assert.ok(placedUpdate, 'the place was reported before it was answered');
            assert.equal(placedUpdate.placed, true);
            assert.ok(placedUpdate.events.length > 0, 'with its New event');
            const cancelled = await broker.orders.cancel(placed.order.id);
            const last = updates.filter((u) => u.order.id === placed.order.id).at(-1)!;
            assert.equal(last.placed, false);
            assert.equal(last.status.status, cancelled.status.status, 'the last update is the state answered');
            const refused = await broker.orders.place({
              contract: { code: STOCK },
              stockOrder: { ...stockOrder, price: 1 },
            });
            assert.equal(refused.status.status, 'Failed');
            assert.ok(
              updates.some((u) => u.order.id === refused.order.id && u.status.status === 'Failed'),
              'a refused order is reported too',
            );
          } finally {
            stop();
          }
        }),
      );

      test(
        'an order that breaks a rule comes back as a Failed trade with the reason, and is reported',
        { timeout },
        withVenue(async (venue) => {
          const { info, place, tradeOf, eventsOf } = await desk(venue);
          const aboveLimit = stepTicks(STOCK_TICKS, info.limit_up, 1);
          const failed = await place({ price: aboveLimit });
          assert.equal(failed.status.status, 'Failed');
          assert.ok(failed.status.msg.length > 0, 'the reason is in status.msg');
          assert.equal(failed.status.deal_quantity, 0);
          const listed = await tradeOf(failed.order.id);
          assert.equal(listed?.status.status, 'Failed', 'trades() lists it as Failed');
          const [report] = await eventually(venue, 'the failed New event', async () => {
            const mine = eventsOf(failed.order.id);
            return mine.length > 0 ? mine : undefined;
          });
          const [opType, opCode, opMsg] = opOf(report!, true);
          assert.equal(opType, 'New');
          assert.notEqual(opCode, '00', 'a failed operation has a code other than 00');
          assert.ok(opMsg, 'the failed operation says why');
        }),
      );

      test(
        'a retry under the same Idempotency-Key returns the same order; another order under it is refused',
        { timeout },
        withVenue(async (venue) => {
          const { broker, info, place } = await desk(venue);
          const order = { price: info.limit_down, quantity: 1 };
          const first = await place(order, 'conformance-key-1');
          const retry = await place(order, 'conformance-key-1');
          assert.equal(retry.order.id, first.order.id);
          assert.equal((await broker.orders.trades()).filter((t) => t.order.id === first.order.id).length, 1);
          const other = await place(order, 'conformance-key-2');
          assert.notEqual(other.order.id, first.order.id, 'a new key places a new order');
          await rejectsWithKind(() => place({ ...order, quantity: 2 }, 'conformance-key-1'), 'IDEMPOTENCY_KEY_REUSED');
        }),
      );

      test(
        'trades() lists every order, oldest first, by account; an unknown trade id is ORDER_NOT_FOUND',
        { timeout },
        withVenue(async (venue) => {
          const { broker, info, place } = await desk(venue);
          const ids: string[] = [];
          for (const price of [info.limit_down, stepTicks(STOCK_TICKS, info.limit_down, 1), info.limit_up]) {
            ids.push((await place({ price })).order.id);
          }
          assert.deepEqual(
            (await broker.orders.trades()).map((t) => t.order.id),
            ids,
          );
          const stockAccount = await broker.accounts.defaultAccount('S');
          const futuresAccount = await broker.accounts.defaultAccount('F');
          assert.deepEqual(
            (await broker.orders.trades(selectorOf(stockAccount))).map((t) => t.order.id),
            ids,
          );
          assert.deepEqual(await broker.orders.trades(selectorOf(futuresAccount)), []);
          await rejectsWithKind(() => broker.orders.cancel('no-such-trade'), 'ORDER_NOT_FOUND');
        }),
      );
    });

    describe('portfolio and accounts', () => {
      test(
        'the accounts are one stock (S) and one futures (F) account with ids; an unknown one is ACCOUNT_NOT_FOUND',
        { timeout },
        withVenue(async ({ broker }) => {
          const accounts = await broker.accounts.list();
          for (const type of ['S', 'F'] as const) {
            const ofType = accounts.filter((a) => a.account_type === type);
            assert.equal(ofType.length, 1, `one ${type} account`);
            const [account] = ofType;
            assert.ok(account!.broker_id && account!.account_id, `the ${type} account has ids`);
            assert.deepEqual(await broker.accounts.resolve(selectorOf(account!)), account);
            assert.deepEqual(await broker.accounts.defaultAccount(type), account);
          }
          await rejectsWithKind(() => broker.accounts.resolve(UNKNOWN_ACCOUNT), 'ACCOUNT_NOT_FOUND');
          await rejectsWithKind(() => broker.portfolio.accountBalance(UNKNOWN_ACCOUNT), 'ACCOUNT_NOT_FOUND');
          await rejectsWithKind(() => broker.portfolio.positions(UNKNOWN_ACCOUNT, 'Common'), 'ACCOUNT_NOT_FOUND');
        }),
      );

      test(
        'after a fill the position holds it and the settlements owe its cost',
        { timeout },
        withVenue(async (venue) => {
          const { broker } = venue;
          const account = selectorOf(await broker.accounts.defaultAccount('S'));
          const held = async () => {
            const rows = (await broker.portfolio.positions(account, 'Common')) as StockPosition[];
            return sum(rows.filter((r) => r.code === STOCK && r.direction === 'Buy').map((r) => r.quantity));
          };
          const owed = async () => sum((await broker.portfolio.settlements(account)).map((s) => s.amount));
          const [heldBefore, owedBefore] = [await held(), await owed()];
          const info = (await broker.contracts.info(STOCK)) as StockInfo;
          const placed = await broker.orders.place({
            contract: { code: STOCK },
            stockOrder: { action: 'Buy', price: info.limit_up, quantity: 2, price_type: 'LMT', order_type: 'ROD' },
          });
          assert.notEqual(placed.status.status, 'Failed', placed.status.msg);
          const filled = await eventually(venue, 'the fill', async () => {
            const trade = (await broker.orders.trades()).find((t) => t.order.id === placed.order.id);
            return trade?.status.status === 'Filled' ? trade : undefined;
          });
          const value = sum(filled.status.deals.map((d) => d.price * d.quantity * SHARES_PER_LOT));
          await eventually(venue, 'the position', async () => ((await held()) === heldBefore + 2 ? true : undefined));
          const cost = owedBefore - (await owed());
          assert.ok(cost >= value, `the settlements owe the deal value ${value} and fees: ${cost}`);
          assert.ok(cost <= value * 1.01, `fees are a fraction of the value: ${cost - value} on ${value}`);
        }),
      );
    });
  });
}

// ---- helpers ----

async function rejectsWithKind(call: () => unknown, kind: ErrorKind): Promise<void> {
  await assert.rejects(
    async () => await call(),
    (error: unknown) => {
      assert.equal((error as { kind?: unknown }).kind, kind, String(error));
      return true;
    },
  );
}

/** The tick grid of a stock or a fixed-tick derivative. */
function tickTableOf(info: ContractInfo): TickTable {
  if (info.security_type === 'STK') return STOCK_TICKS;
  if ((info.security_type === 'FUT' || info.security_type === 'OPT') && info.tick_basis === 'fixed') {
    return [{ min: 0, max: null, tick: info.tick }];
  }
  throw new Error(`no tick grid for ${info.code} in the suite`);
}

/** The newest `count` trading days before today on which `code` traded, newest first. */
async function pastTradingDays(broker: Venue, code: string, count: number): Promise<string[]> {
  const today = taipeiDate(await broker.clock.now());
  const days: string[] = [];
  for (let back = 1; back <= 14 && days.length < count; back++) {
    const date = addDays(today, -back);
    const ticks = await broker.marketData.ticks({ contract: { code }, date, query_type: 'LastCount', last_cnt: 1 });
    if (ticks.datetime.length > 0) days.push(date);
  }
  assert.equal(days.length, count, `${count} trading days of ${code} in the last two weeks`);
  return days;
}

function selectorOf(account: { account_type: 'S' | 'F' | 'H'; broker_id: string; account_id: string }) {
  return { account_type: account.account_type, broker_id: account.broker_id, account_id: account.account_id };
}

/** The trade an order event belongs to. */
function idOfEvent(event: OrderEvent): string {
  switch (event.state) {
    case 'StockOrder':
      return event.data.StockOrder.order.id;
    case 'FuturesOrder':
      return event.data.FuturesOrder.order.id;
    case 'StockDeal':
      return event.data.StockDeal.trade_id;
    case 'FuturesDeal':
      return event.data.FuturesDeal.trade_id;
  }
}

/** [op_type, op_code] of an order event, with op_msg when `withMessage`; empty strings for a deal. */
function opOf(event: OrderEvent, withMessage = false): string[] {
  const operation =
    event.state === 'StockOrder'
      ? event.data.StockOrder.operation
      : event.state === 'FuturesOrder'
        ? event.data.FuturesOrder.operation
        : null;
  const op = operation ? [operation.op_type, operation.op_code, operation.op_msg] : ['', '', ''];
  return withMessage ? op : op.slice(0, 2);
}

function assertAscending<T>(values: readonly T[], what: string): void {
  for (let i = 1; i < values.length; i++) {
    assert.ok(values[i]! > values[i - 1]!, `${what}: ${String(values[i])} follows ${String(values[i - 1])}`);
  }
}

const sum = (values: number[]) => values.reduce((total, v) => total + v, 0);
