import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LISTED_SECURITIES } from '../../src/broker/sim/catalog/listed-securities.js';
import { taipeiDateTime } from '../../src/broker/sim/market/history.js';
import { SimBroker } from '../../src/broker/sim/sim-broker.js';
import type { ComboContract } from '../../src/domain/contracts.js';
import { InvalidRequestError, NotFoundError } from '../../src/domain/errors.js';
import type { MarketEvent, ProductSubscription, QuoteSubscription, QuoteType } from '../../src/domain/quotes.js';
import type { ClockMode } from '../../src/domain/sessions.js';
import { isOnTickGrid, STOCK_TICKS } from '../../src/domain/ticks.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';

const DAY = '2026-11-20';

function brokerAt(mode: ClockMode, time: string, day = DAY) {
  const clock = new ManualClock(taipeiInstant(day, time));
  const broker = new SimBroker({ clock, seed: 1, clockMode: mode, apiKey: null });
  const events: MarketEvent[] = [];
  broker.quotes.onMarketEvent((event) => events.push(event));
  const subscribe = (code: string, quoteType: QuoteType, intradayOdd = false): QuoteSubscription => {
    const subscription = broker.quotes.resolve({ contract: { code }, quoteType, intradayOdd });
    broker.quotes.subscribe(subscription);
    return subscription;
  };
  /** Moves the clock in feed steps (100 ms unless told) for a while. */
  const run = (ms: number, stepMs = 100) => {
    for (let t = 0; t < ms; t += stepMs) {
      clock.advance(stepMs);
      broker.feed.step();
    }
  };
  const named = (name: string) => events.filter((e) => e.name === name).map((e) => e.data);
  return { clock, broker, events, subscribe, run, named };
}

type Kind = 'decimal' | 'number' | 'boolean' | 'null' | 'date' | 'time' | 'string' | 'decimal[]' | 'number[]';

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Asserts the exact keys, in order, and the wire type of each value. */
function assertShape(data: Record<string, unknown>, shape: Record<string, Kind>): void {
  assert.deepEqual(Object.keys(data), Object.keys(shape));
  for (const [key, kind] of Object.entries(shape)) {
    const value = data[key];
    const where = `${key} = ${JSON.stringify(value)}`;
    switch (kind) {
      case 'decimal':
        assert.ok(typeof value === 'string' && DECIMAL.test(value), where);
        break;
      case 'number':
        assert.ok(typeof value === 'number' && Number.isFinite(value), where);
        break;
      case 'boolean':
        assert.equal(typeof value, 'boolean', where);
        break;
      case 'null':
        assert.equal(value, null, where);
        break;
      case 'date':
        assert.match(value as string, /^\d{4}-\d{2}-\d{2}$/, where);
        break;
      case 'time':
        assert.match(value as string, /^\d{2}:\d{2}:\d{2}\.\d{6}$/, where);
        break;
      case 'string':
        assert.equal(typeof value, 'string', where);
        break;
      case 'decimal[]':
        assert.ok(Array.isArray(value) && value.length === 5, where);
        for (const v of value as unknown[]) assert.ok(typeof v === 'string' && DECIMAL.test(v), where);
        break;
      case 'number[]':
        assert.ok(Array.isArray(value) && value.length === 5, where);
        for (const v of value as unknown[]) assert.equal(typeof v, 'number', where);
        break;
    }
  }
}

const TRADE: Record<string, Kind> = {
  open: 'decimal',
  avg_price: 'decimal',
  close: 'decimal',
  high: 'decimal',
  low: 'decimal',
  amount: 'decimal',
  total_amount: 'decimal',
  volume: 'number',
  total_volume: 'number',
  tick_type: 'number',
  chg_type: 'number',
  price_chg: 'decimal',
  pct_chg: 'decimal',
};

const BOOK: Record<string, Kind> = {
  bid_price: 'decimal[]',
  bid_volume: 'number[]',
  diff_bid_vol: 'number[]',
  ask_price: 'decimal[]',
  ask_volume: 'number[]',
  diff_ask_vol: 'number[]',
};

const DERIVED: Record<string, Kind> = {
  first_derived_bid_price: 'decimal',
  first_derived_ask_price: 'decimal',
  first_derived_bid_vol: 'number',
  first_derived_ask_vol: 'number',
};

const STOCK_TICK: Record<string, Kind> = {
  code: 'string',
  date: 'date',
  time: 'time',
  ...TRADE,
  bid_side_total_vol: 'number',
  ask_side_total_vol: 'number',
  bid_side_total_cnt: 'number',
  ask_side_total_cnt: 'number',
  closing_oddlot_shares: 'number',
  closing_oddlot_close: 'null',
  closing_oddlot_amount: 'null',
  closing_oddlot_bid_price: 'null',
  closing_oddlot_ask_price: 'null',
  fixed_trade_vol: 'number',
  fixed_trade_amount: 'null',
  suspend: 'boolean',
  simtrade: 'boolean',
};
const TICK_STK: Record<string, Kind> = { ...STOCK_TICK, intraday_odd: 'boolean' };
const QUOTE_STK: Record<string, Kind> = { ...STOCK_TICK, ...BOOK, avail_borrowing: 'number' };
const BIDASK_STK: Record<string, Kind> = {
  code: 'string',
  date: 'date',
  time: 'time',
  ...BOOK,
  suspend: 'boolean',
  simtrade: 'boolean',
  intraday_odd: 'boolean',
};
const TICK_FOP: Record<string, Kind> = {
  code: 'string',
  date: 'date',
  time: 'time',
  open: 'decimal',
  underlying_price: 'decimal',
  bid_side_total_vol: 'number',
  ask_side_total_vol: 'number',
  avg_price: 'decimal',
  close: 'decimal',
  high: 'decimal',
  low: 'decimal',
  amount: 'decimal',
  total_amount: 'decimal',
  volume: 'number',
  total_volume: 'number',
  tick_type: 'number',
  chg_type: 'number',
  price_chg: 'decimal',
  pct_chg: 'decimal',
  simtrade: 'boolean',
};
const BIDASK_FOP: Record<string, Kind> = {
  code: 'string',
  date: 'date',
  time: 'time',
  bid_total_vol: 'number',
  ask_total_vol: 'number',
  ...BOOK,
  ...DERIVED,
  underlying_price: 'decimal',
  simtrade: 'boolean',
};
const QUOTE_FOP: Record<string, Kind> = {
  code: 'string',
  date: 'date',
  time: 'time',
  underlying_price: 'decimal',
  ...TRADE,
  bid_side_total_vol: 'number',
  ask_side_total_vol: 'number',
  bid_side_total_cnt: 'number',
  ask_side_total_cnt: 'number',
  ...BOOK,
  ...DERIVED,
  simtrade: 'boolean',
};
const CATEGORY_KEYS = ['Fund', 'Stock', 'Bull', 'Bear', 'TIB', 'Fixed'].flatMap((c) =>
  ['Amount', 'Volume', 'Count'].map((m) => `${c}${m}`),
);
const QUOTE_IDX: Record<string, Kind> = {
  exchange: 'string',
  code: 'string',
  Date: 'date',
  Time: 'time',
  Reference: 'decimal',
  Open: 'decimal',
  High: 'decimal',
  Low: 'decimal',
  Close: 'decimal',
  AmountSum: 'decimal',
  Amount: 'decimal',
  Volume: 'number',
  VolSum: 'number',
  Count: 'number',
  CountSum: 'number',
  PrevDate: 'date',
  PrevAmountSum: 'decimal',
  NoTrade: 'number',
  RaiseStop: 'number',
  Raise: 'number',
  Flat: 'number',
  Fall: 'number',
  FallStop: 'number',
  ...Object.fromEntries([...CATEGORY_KEYS, 'EstimateAmountSum'].map((key) => [key, 'null' as const])),
};

const datetimeOf = (data: Record<string, unknown>) => `${data.date}T${data.time}`;
const sumTo = (values: number[], last: number) => values.slice(0, last + 1).reduce((a, b) => a + b, 0);

/** Every trade event matches the trade of the ticks history at the same place, and the day so far up to it. */
function assertMatchesTicks(
  events: Record<string, unknown>[],
  ticks: ReturnType<SimBroker['marketData']['ticks']>,
  firstIndex: number,
) {
  events.forEach((data, i) => {
    const k = firstIndex + i;
    assert.equal(datetimeOf(data), ticks.datetime[k], `event ${i} is trade ${k}`);
    assert.equal(Number(data.close), ticks.close[k]);
    assert.equal(data.volume, ticks.volume[k]);
    assert.equal(data.tick_type, ticks.tick_type[k]);
    assert.equal(data.total_volume, sumTo(ticks.volume, k));
    assert.equal(Number(data.open), ticks.close[0]);
    assert.equal(Number(data.high), Math.max(...ticks.close.slice(0, k + 1)));
    assert.equal(Number(data.low), Math.min(...ticks.close.slice(0, k + 1)));
    const sideVolume = (type: number) =>
      ticks.volume.slice(0, k + 1).reduce((sum, v, j) => sum + (ticks.tick_type[j] === type ? v : 0), 0);
    assert.equal(data.ask_side_total_vol, sideVolume(1));
    assert.equal(data.bid_side_total_vol, sideVolume(2));
  });
}

function assertBook(data: Record<string, unknown>, onGrid: (price: number) => boolean) {
  const bids = (data.bid_price as string[]).map(Number);
  const asks = (data.ask_price as string[]).map(Number);
  assert.ok(bids[0]! < asks[0]!, `best bid ${bids[0]} < best ask ${asks[0]}`);
  for (let level = 1; level < 5; level++) {
    assert.ok(bids[level]! < bids[level - 1]!, `bids descend: ${bids}`);
    assert.ok(asks[level]! > asks[level - 1]!, `asks ascend: ${asks}`);
  }
  for (const price of [...bids, ...asks]) assert.ok(onGrid(price), `${price} on the tick grid`);
  for (const volume of [...(data.bid_volume as number[]), ...(data.ask_volume as number[])])
    assert.ok(volume > 0, `volume ${volume}`);
}

describe('stock quotes', () => {
  test('tick_stk: one event per trade with the exact fields, equal to the ticks history and the day so far', () => {
    const { broker, subscribe, run, named } = brokerAt('exchange', '10:00');
    const before = broker.marketData.ticks({ contract: { code: '2330' } }).datetime.length;
    assert.ok(before > 0, 'subscribed mid-day');
    subscribe('2330', 'Tick');
    run(180_000);
    const ticks = broker.marketData.ticks({ contract: { code: '2330' } });
    const events = named('tick_stk');
    assert.equal(events.length, ticks.datetime.length - before, 'every new trade, once');
    assert.ok(events.length > 5, `${events.length} ticks`);
    for (const data of events) {
      assertShape(data, TICK_STK);
      assert.equal(data.code, '2330');
      assert.equal(data.intraday_odd, false);
      assert.equal(data.simtrade, false);
      assert.equal(Number(data.amount), Number(data.close) * (data.volume as number) * 1000);
    }
    assertMatchesTicks(events, ticks, before);
    const info = broker.contracts.info('2330');
    const last = events.at(-1)!;
    const reference = 'reference' in info ? info.reference : 0;
    const change = Number(last.close) - reference;
    assert.equal(Number(last.price_chg), change);
    assert.equal(last.pct_chg, ((change / reference) * 100).toFixed(2).replace(/\.?0+$/, ''));
    assert.equal(last.chg_type, change > 0 ? 2 : change < 0 ? 4 : 3);
  });

  test('bidask_stk: the five-level book after each step, on the tick grid, with volume changes against the last', () => {
    const { broker, subscribe, run, named } = brokerAt('exchange', '10:00');
    subscribe('2330', 'BidAsk');
    run(120_000);
    const events = named('bidask_stk');
    assert.ok(events.length > 3);
    events.forEach((data, i) => {
      assertShape(data, BIDASK_STK);
      assertBook(data, (price) => isOnTickGrid(STOCK_TICKS, price));
      const previous = events[i - 1];
      for (const side of ['bid', 'ask'] as const) {
        const volumes = data[`${side}_volume`] as number[];
        const diffs = data[`diff_${side}_vol`] as number[];
        const expected = previous
          ? volumes.map((v, l) => v - (previous[`${side}_volume`] as number[])[l]!)
          : [0, 0, 0, 0, 0];
        assert.deepEqual(diffs, expected);
      }
    });
    const ticks = broker.marketData.ticks({ contract: { code: '2330' } });
    const last = events.at(-1)!;
    assert.equal(Number((last.bid_price as string[])[0]), ticks.bid_price.at(-1), 'the best bid the last trade met');
    assert.equal(Number((last.ask_price as string[])[0]), ticks.ask_price.at(-1));
    assert.equal(datetimeOf(last), ticks.datetime.at(-1));
  });

  test('quote_stk: the tick fields with the book as of each trade and the shares available to borrow', () => {
    const { broker, subscribe, run, named } = brokerAt('exchange', '10:00');
    subscribe('2330', 'Quote');
    subscribe('2330', 'Tick');
    run(120_000);
    const quotes = named('quote_stk');
    const ticks = named('tick_stk');
    assert.equal(quotes.length, ticks.length);
    assert.ok(quotes.length > 3, `${quotes.length} quotes`);
    const sources = broker.marketData.shortStockSources([{ code: '2330' }]);
    const history = broker.marketData.ticks({ contract: { code: '2330' } });
    quotes.forEach((data, i) => {
      assertShape(data, QUOTE_STK);
      const { intraday_odd: _, ...tick } = ticks[i]!;
      for (const [key, value] of Object.entries(tick)) assert.deepEqual(data[key], value, key);
      assert.equal(data.avail_borrowing, sources[0]!.short_stock_source);
      assertBook(data, (price) => isOnTickGrid(STOCK_TICKS, price));
      const k = history.datetime.indexOf(datetimeOf(data));
      assert.equal(Number((data.bid_price as string[])[0]), history.bid_price[k]);
    });
  });

  test('intraday odd lots: tick_stk in shares from the odd-lot auctions, flagged intraday_odd', () => {
    const { broker, subscribe, run, named } = brokerAt('exchange', '10:00');
    const subscription = subscribe('2330', 'Tick', true);
    assert.equal((subscription as { intraday_odd: boolean }).intraday_odd, true);
    subscribe('2330', 'BidAsk', true);
    run(600_000);
    const events = named('tick_stk');
    assert.ok(events.length > 3);
    const info = broker.market.listings.stockOn('2330', DAY);
    const tape = broker.market.oddLotTape(info, DAY);
    const first = Array.from(tape.times).findIndex((us) => taipeiDateTime(us) === datetimeOf(events[0]!));
    assert.ok(first > 0, `first odd-lot event is auction ${first}`);
    events.forEach((data, i) => {
      assertShape(data, TICK_STK);
      assert.equal(data.intraday_odd, true);
      assert.equal(data.volume, tape.volumes[first + i], 'shares of that auction');
      assert.equal(data.total_volume, sumTo(Array.from(tape.volumes), first + i));
      assert.equal(Number(data.amount), Number(data.close) * (data.volume as number), 'price times shares');
    });
    const books = named('bidask_stk');
    assert.ok(books.length > 0, 'odd-lot books');
    assert.ok(
      books.every((b) => b.intraday_odd === true),
      'flagged intraday_odd',
    );
    for (const book of books) assertShape(book, BIDASK_STK);
  });

  test('a warrant streams the stock family: tick_stk and bidask_stk', () => {
    const { broker, run, named } = brokerAt('exchange', '09:30');
    const warrant = broker.contracts.warrants({ underlyingCode: '2330' })[0]!;
    for (const quoteType of ['Tick', 'BidAsk'] as const) {
      broker.quotes.subscribe(
        broker.quotes.resolve({ contract: { code: warrant.code }, quoteType, intradayOdd: false }),
      );
    }
    run(3 * 3600_000, 1000);
    const ticks = named('tick_stk');
    assert.ok(ticks.length > 0, 'warrant trades');
    for (const data of ticks) {
      assertShape(data, TICK_STK);
      assert.equal(data.code, warrant.code);
    }
    const books = named('bidask_stk');
    assert.ok(books.length > 0, 'warrant books');
    for (const data of books) assertShape(data, BIDASK_STK);
    assert.equal(named('tick_fop').length, 0);
  });

  test('trial matches before the open arrive flagged simtrade and are no trades; the fixed-price match is its own', () => {
    const { broker, subscribe, run, named, clock } = brokerAt('exchange', '08:29');
    subscribe('2330', 'Tick');
    run(120_000, 1000);
    const trials = named('tick_stk');
    assert.ok(trials.length > 0, 'trial matches');
    assert.ok(
      trials.every((t) => t.simtrade === true),
      'flagged simtrade',
    );
    assert.equal(broker.marketData.ticks({ contract: { code: '2330' } }).datetime.length, 0, 'no trade yet');
    clock.set(taipeiInstant(DAY, '14:29'));
    broker.feed.step();
    run(120_000, 1000);
    const fixed = named('tick_stk').at(-1)!;
    assert.equal(fixed.time, '14:30:00.000000');
    assert.equal(fixed.simtrade, false);
    assert.equal(fixed.fixed_trade_vol, fixed.volume);
    assert.equal(Number(fixed.fixed_trade_amount), Number(fixed.amount));
  });
});

describe('futures and options quotes', () => {
  test('TXFR1 keeps its code in the subscription and its events carry the real month: tick_fop', () => {
    const { broker, subscribe, run, named } = brokerAt('exchange', '10:00');
    const subscription = subscribe('TXFR1', 'Tick');
    assert.ok(!('contract' in subscription), 'a product subscription');
    assert.equal(subscription.code, 'TXFR1');
    assert.match(subscription.target_code!, /^TXF[A-L]\d$/);
    const before = broker.marketData.ticks({ contract: { code: subscription.target_code! } }).datetime.length;
    run(300_000);
    const events = named('tick_fop');
    assert.ok(events.length > 10, `${events.length} ticks`);
    const ticks = broker.marketData.ticks({ contract: { code: subscription.target_code! } });
    assert.equal(events.length, ticks.datetime.length - before);
    for (const data of events) {
      assertShape(data, TICK_FOP);
      assert.equal(data.code, subscription.target_code);
      assert.equal(Number(data.amount), Number(data.close) * (data.volume as number));
      const underlying = Number(data.underlying_price);
      assert.ok(Math.abs(underlying / Number(data.close) - 1) < 0.03, `index ${underlying} near ${data.close}`);
    }
    assertMatchesTicks(events, ticks, before);
  });

  test('TXFR1 and its month subscribed together get each event once; either alone keeps it going', () => {
    const { broker, subscribe, run, named } = brokerAt('exchange', '10:00');
    const alias = subscribe('TXFR1', 'Tick') as ProductSubscription;
    const month = subscribe(alias.target_code!, 'Tick');
    subscribe('TXFR1', 'BidAsk');
    subscribe(alias.target_code!, 'BidAsk');
    const before = broker.marketData.ticks({ contract: { code: alias.target_code! } }).datetime.length;
    run(300_000);
    const ticks = broker.marketData.ticks({ contract: { code: alias.target_code! } });
    assert.equal(named('tick_fop').length, ticks.datetime.length - before, 'one tick_fop per trade, not two');
    const books = named('bidask_fop');
    assert.equal(new Set(books.map((b) => `${b.date}T${b.time}`)).size, books.length, 'one bidask_fop per book');
    broker.quotes.unsubscribe(month);
    const seen = named('tick_fop').length;
    run(300_000);
    assert.ok(named('tick_fop').length > seen, 'the alias still delivers after its month is unsubscribed');
    broker.quotes.unsubscribe(alias);
    const last = named('tick_fop').length;
    run(300_000);
    assert.equal(named('tick_fop').length, last, 'nothing once both are gone');
    assert.equal(broker.quotes.size, 2, 'the two BidAsk subscriptions are still held');
  });

  test('bidask_fop and quote_fop: the book of the real month, totals of the five levels, no derived quotes', () => {
    const { subscribe, run, named } = brokerAt('exchange', '10:00');
    subscribe('TXFR1', 'BidAsk');
    subscribe('TXFR1', 'Quote');
    subscribe('TXFR1', 'Tick');
    run(300_000);
    const books = named('bidask_fop');
    const quotes = named('quote_fop');
    const ticks = named('tick_fop');
    assert.ok(books.length > 3, `${books.length} books`);
    assert.equal(quotes.length, ticks.length);
    for (const data of books) {
      assertShape(data, BIDASK_FOP);
      assertBook(data, Number.isInteger);
      assert.equal(
        data.bid_total_vol,
        (data.bid_volume as number[]).reduce((a, b) => a + b, 0),
      );
      assert.equal(
        data.ask_total_vol,
        (data.ask_volume as number[]).reduce((a, b) => a + b, 0),
      );
      assert.equal(data.first_derived_bid_price, '0');
      assert.match(data.code as string, /^TXF[A-L]\d$/);
    }
    quotes.forEach((data, i) => {
      assertShape(data, QUOTE_FOP);
      assertBook(data, Number.isInteger);
      for (const key of Object.keys(TICK_FOP)) assert.deepEqual(data[key], ticks[i]![key], key);
    });
  });

  test('an option streams tick_fop with its premium and the index as underlying', () => {
    const { broker, subscribe, run, named } = brokerAt('always-open', '10:00');
    // The at-the-money call of the nearest expiry trades the most.
    const options = broker.contracts.options({ root: 'TXO', optionRight: 'C' });
    const expiry = options.map((o) => o.last_trading_date).sort()[0];
    const index = broker.marketData.snapshots([{ code: 'IX0001' }])[0]!.close;
    const busiest = options
      .filter((o) => o.last_trading_date === expiry)
      .sort((a, b) => Math.abs(a.strike_price - index) - Math.abs(b.strike_price - index))[0]!;
    subscribe(busiest.code, 'Tick');
    run(1_800_000, 1000);
    const events = named('tick_fop');
    assert.ok(events.length > 0, 'option trades');
    for (const data of events) {
      assertShape(data, TICK_FOP);
      assert.equal(data.code, busiest.code);
      assert.ok(Number(data.underlying_price) > 1000, 'the index level');
    }
  });
});

describe('index quotes', () => {
  test('quote_idx: PascalCase keys, values of the index tape and the breadth of its members', () => {
    const { broker, subscribe, run, named } = brokerAt('exchange', '10:00');
    const subscription = subscribe('IX0001', 'Quote');
    assert.ok(!('contract' in subscription) && subscription.security_type === 'IND', 'an index subscription');
    const before = broker.marketData.ticks({ contract: { code: 'IX0001' } }).datetime.length;
    run(60_000);
    const events = named('quote_idx');
    assert.equal(events.length, 12, 'one index value every 5 s');
    const ticks = broker.marketData.ticks({ contract: { code: 'IX0001' } });
    const members = LISTED_SECURITIES.filter((s) => s.exchange === 'TSE' && s.kind === 'stock').length;
    const reference = broker.contracts.info('IX0001');
    events.forEach((data, i) => {
      assertShape(data, QUOTE_IDX);
      const k = before + i;
      assert.equal(`${data.Date}T${data.Time}`, ticks.datetime[k]);
      assert.equal(Number(data.Close), ticks.close[k]);
      assert.equal(data.Volume, ticks.volume[k]);
      assert.equal(data.VolSum, sumTo(ticks.volume, k));
      assert.equal(Number(data.Open), ticks.close[0]);
      assert.equal(Number(data.Reference), 'reference' in reference ? reference.reference : NaN);
      assert.equal(data.PrevDate, '2026-11-19');
      const breadth = ['NoTrade', 'RaiseStop', 'Raise', 'Flat', 'Fall', 'FallStop'].map((key) => data[key] as number);
      assert.equal(
        breadth.reduce((a, b) => a + b, 0),
        members,
        'every TWSE stock is counted once',
      );
      assert.ok((data.Count as number) > 0 && (data.Count as number) <= (data.CountSum as number), 'member trades');
    });
    for (let i = 1; i < events.length; i++) {
      assert.equal(events[i]!.CountSum, (events[i - 1]!.CountSum as number) + (events[i]!.Count as number));
    }
  });
});

describe('combo quotes', () => {
  test('a futures time spread streams its own trades and book at net prices under the exchange combo code', () => {
    const { broker, run, named } = brokerAt('exchange', '09:00');
    const combo: ComboContract = broker.contracts.futuresCombos('TXF')[0]!;
    const legs = combo.legs.map((leg) => ({ security_type: leg.security_type, code: leg.code }));
    const ticksBefore = broker.marketData.ticks({ contract: { legs } }).datetime.length;
    for (const quoteType of ['Tick', 'BidAsk'] as const) {
      const subscription = broker.quotes.resolve({ contract: { legs }, quoteType, intradayOdd: false });
      assert.ok('contract' in subscription, 'a combo subscription');
      assert.equal(subscription.contract.combo_type, 'TimeSpread');
      assert.deepEqual(
        subscription.contract.legs.map((l) => l.code),
        combo.legs.map((l) => l.code),
      );
      assert.equal(subscription.intraday_odd, false);
      broker.quotes.subscribe(subscription);
    }
    run(3 * 3600_000, 1000);
    const ticks = named('tick_fop');
    const books = named('bidask_fop');
    assert.ok(ticks.length > 3, `${ticks.length} combo trades in 3 hours`);
    const history = broker.marketData.ticks({ contract: { legs } });
    assert.equal(ticks.length, history.datetime.length - ticksBefore);
    assert.match(combo.code!, /^TXF[A-L]\d\/[A-L]\d$/);
    for (const data of ticks) {
      assertShape(data, TICK_FOP);
      assert.equal(data.code, combo.code);
    }
    assertMatchesTicks(ticks, history, ticksBefore);
    const [near, far] = combo.legs.map((leg) => broker.marketData.snapshots([{ code: leg.code }])[0]!);
    const last = Number(ticks.at(-1)!.close);
    assert.ok(Math.abs(last - (far!.close - near!.close)) < 0.01 * near!.close, 'far minus near');
    assert.ok(books.length > 0, 'combo books');
    for (const data of books) {
      assertShape(data, BIDASK_FOP);
      assertBook(data, Number.isInteger);
      assert.equal(data.code, combo.code);
    }
  });
});

describe('subscription rules', () => {
  const { broker } = brokerAt('always-open', '10:00');
  const rejects = (
    input: Parameters<typeof broker.quotes.resolve>[0],
    kind: abstract new (...args: never[]) => Error,
    message: RegExp,
  ) =>
    assert.throws(
      () => broker.quotes.resolve(input),
      (error: Error) => error instanceof kind && message.test(error.message),
    );

  test('an index streams quotes only', () => {
    rejects(
      { contract: { code: 'IX0001' }, quoteType: 'Tick', intradayOdd: false },
      InvalidRequestError,
      /^index contracts only support quote streaming: subscribe IX0001 with quote_type Quote/,
    );
    rejects({ contract: { code: 'IX0001' }, quoteType: 'BidAsk', intradayOdd: false }, InvalidRequestError, /Quote/);
  });

  test('option combos have no quotes; futures combos have no Quote stream', () => {
    const calls = broker.contracts.options({ root: 'TXO', optionRight: 'C' });
    const month = calls[0]!.delivery_month;
    const [low, high] = calls.filter((o) => o.delivery_month === month && o.root === calls[0]!.root);
    rejects(
      { contract: { legs: [{ code: high!.code }, { code: low!.code }] }, quoteType: 'Tick', intradayOdd: false },
      InvalidRequestError,
      /^option combos rest in no order book \(IOC\/FOK only\), so they have no quotes; subscribe to a futures combo or to the legs$/,
    );
    const legs = broker.contracts.futuresCombos('TXF')[0]!.legs.map((leg) => ({ code: leg.code }));
    rejects({ contract: { legs }, quoteType: 'Quote', intradayOdd: false }, InvalidRequestError, /Tick or BidAsk/);
    rejects(
      { contract: { legs: [legs[1]!, legs[0]!] }, quoteType: 'Tick', intradayOdd: false },
      InvalidRequestError,
      /reversed/,
    );
  });

  test('intraday_odd is only for a stock Tick or BidAsk', () => {
    rejects(
      { contract: { code: 'TXFR1' }, quoteType: 'Tick', intradayOdd: true },
      InvalidRequestError,
      /intraday_odd is only for a stock's Tick or BidAsk, and TXFR1 is a futures contract/,
    );
    rejects(
      { contract: { code: '2330' }, quoteType: 'Quote', intradayOdd: true },
      InvalidRequestError,
      /Tick or BidAsk/,
    );
    const odd = broker.quotes.resolve({ contract: { code: '2330' }, quoteType: 'BidAsk', intradayOdd: true });
    assert.deepEqual(odd, {
      security_type: 'STK',
      exchange: 'TSE',
      code: '2330',
      target_code: null,
      quote_type: 'BidAsk',
      intraday_odd: true,
    });
  });

  test('an unknown code or a wrong exchange is not found', () => {
    rejects({ contract: { code: 'NOPE' }, quoteType: 'Tick', intradayOdd: false }, NotFoundError, /NOPE/);
    rejects(
      { contract: { code: '2330', exchange: 'OTC' }, quoteType: 'Tick', intradayOdd: false },
      NotFoundError,
      /TSE/,
    );
  });
});

describe('subscriptions', () => {
  test('subscribing twice is one stream; streams of one product share one feed; unsubscribing stops them', () => {
    const { broker, subscribe, run, named, events } = brokerAt('exchange', '10:00');
    const tick = subscribe('2330', 'Tick');
    subscribe('2330', 'Tick');
    const bidAsk = subscribe('2330', 'BidAsk');
    assert.equal(broker.quotes.size, 2);
    assert.equal(broker.feed.size, 3, 'board lots, trial matches and the fixed-price match of 2330, once');
    run(60_000);
    const ticks = broker.marketData.ticks({ contract: { code: '2330' } });
    const times = named('tick_stk').map(datetimeOf);
    assert.equal(new Set(times).size, times.length, 'no trade twice');
    assert.ok(
      times.every((t) => ticks.datetime.includes(t)),
      'trades of the history',
    );
    broker.quotes.unsubscribe(tick);
    events.length = 0;
    run(60_000);
    assert.equal(named('tick_stk').length, 0);
    assert.ok(named('bidask_stk').length > 0, 'the book stream goes on');
    broker.quotes.unsubscribe(bidAsk);
    broker.quotes.unsubscribe(bidAsk);
    assert.equal(broker.feed.size, 0);
    events.length = 0;
    run(60_000);
    assert.equal(events.length, 0);
  });

  test('the same seed and clock give the same events', () => {
    const runOnce = () => {
      const { subscribe, run, events } = brokerAt('always-open', '10:00');
      subscribe('2330', 'Quote');
      subscribe('TXFR1', 'BidAsk');
      subscribe('IX0001', 'Quote');
      run(30_000);
      return events;
    };
    const first = runOnce();
    assert.ok(first.length > 10, `${first.length} events`);
    assert.deepEqual(runOnce(), first);
  });
});
