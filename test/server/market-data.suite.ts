import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { SimBroker } from '../../src/broker/sim/sim-broker.js';
import type { StockInfo } from '../../src/domain/contracts.js';
import type { Kbars, Snapshot, Ticks } from '../../src/domain/market-data.js';
import { type ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { MONDAY_MORNING, testApp } from '../helpers/app.js';
import { assertErrorKind } from '../helpers/errors.js';

type Json = Record<string, unknown>;

const TODAY = '2026-11-23';
const PAST_DAY = '2026-11-20';
const TICK_COLUMNS = ['ask_price', 'ask_volume', 'bid_price', 'bid_volume', 'close', 'datetime', 'tick_type', 'volume'];
const KBAR_COLUMNS = ['Amount', 'Close', 'High', 'Low', 'Open', 'Volume', 'datetime'];
const WALL_CLOCK_US = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
const SCANNER_TYPES = [
  'ChangePercentRank',
  'ChangePriceRank',
  'DayRangeRank',
  'VolumeRank',
  'AmountRank',
  'TickCountRank',
] as const;

/** Requests against one app, parsed, with the raw body and headers kept for the traffic checks. */
function client(app: FastifyInstance) {
  const send = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const response = await app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as Json }) });
    // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
    return { status: response.statusCode, body: response.json() as any, raw: response.body, headers: response.headers };
  };
  return {
    get: (url: string) => send('GET', url),
    post: (url: string, payload: unknown) => send('POST', url, payload),
  };
}

function assertEnvelope(response: { status: number; body: Json }, status: number, message?: RegExp) {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assertErrorKind(response.body, status);
  assert.equal(response.body.code, status);
  if (message) assert.match(response.body.message as string, message);
}

/** Every key holds an array, all of the same length; returns that length. */
function assertColumnar(record: Json, keys: string[]): number {
  assert.deepEqual(Object.keys(record).sort(), [...keys].sort());
  const length = (record[keys[0]!] as unknown[]).length;
  for (const key of keys) {
    assert.ok(Array.isArray(record[key]), `${key} is a column`);
    assert.equal((record[key] as unknown[]).length, length, `${key} has ${length} entries`);
  }
  return length;
}

function assertEmptyTicks(body: Json) {
  assert.equal(assertColumnar(body, TICK_COLUMNS), 0);
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** The tick columns at the given indices. */
function pick(ticks: Ticks, keep: (i: number) => boolean): Ticks {
  return Object.fromEntries(
    Object.entries(ticks).map(([key, values]) => [key, (values as unknown[]).filter((_, i) => keep(i))]),
  ) as unknown as Ticks;
}

/** Right-labelled one-minute bar of a tick: 09:00:00.5 is in the 09:01:00 bar, 09:01:00.000000 in the 09:01 bar. */
function minuteLabel(datetime: string): string {
  const minuteStart = Date.parse(`${datetime.slice(0, 16)}:00Z`);
  const onMinute = datetime.slice(17) === '00.000000';
  return new Date(onMinute ? minuteStart : minuteStart + 60_000).toISOString().slice(0, 19);
}

function aggregate(ticks: Ticks, unit: number): Kbars {
  const bars: Kbars = { datetime: [], Open: [], High: [], Low: [], Close: [], Volume: [], Amount: [] };
  ticks.datetime.forEach((datetime, k) => {
    const label = minuteLabel(datetime);
    const price = ticks.close[k]!;
    const volume = ticks.volume[k]!;
    let i = bars.datetime.length - 1;
    if (bars.datetime[i] !== label) {
      bars.datetime.push(label);
      bars.Open.push(price);
      bars.High.push(price);
      bars.Low.push(price);
      bars.Close.push(price);
      bars.Volume.push(0);
      bars.Amount.push(0);
      i++;
    }
    bars.High[i] = Math.max(bars.High[i]!, price);
    bars.Low[i] = Math.min(bars.Low[i]!, price);
    bars.Close[i] = price;
    bars.Volume[i]! += volume;
    bars.Amount[i]! += price * volume * unit;
  });
  return bars;
}

const near = (actual: number, expected: number, tolerance = 1e-6) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is ${expected} within ${tolerance}`);

/** The two nearest TXF delivery months (the dated contracts, not R1/R2). */
async function nearestTxf(get: (url: string) => Promise<{ body: Json[] }>): Promise<[string, string]> {
  const futures = (await get('/api/v1/data/contracts/futures?root=TXF')).body
    .filter((c) => c.target_code === null)
    .sort((a, b) => String(a.delivery_month).localeCompare(String(b.delivery_month)));
  return [futures[0]!.code as string, futures[1]!.code as string];
}

// ---------------------------------------------------------------------------------------------------------------

describe('ticks', () => {
  let app: FastifyInstance;
  let clock: ManualClock;
  let api: ReturnType<typeof client>;
  const ticks = async (body: Json) => api.post('/api/v1/data/ticks', body);
  let allDay: Ticks;

  before(async () => {
    ({ app, clock } = await testApp());
    api = client(app);
    allDay = (await ticks({ contract: { code: '2330' } })).body;
  });
  after(async () => {
    await app.close();
  });

  test('a bare code resolves; AllDay is what traded today so far, columnar and in time order', async () => {
    const explicit = await ticks({
      contract: { security_type: 'STK', exchange: 'TSE', code: '2330' },
      date: TODAY,
      query_type: 'AllDay',
    });
    assert.equal(explicit.status, 200);
    assert.deepEqual(explicit.body, allDay);
    const n = assertColumnar(allDay as unknown as Json, TICK_COLUMNS);
    assert.ok(n > 10, `${n} ticks by 10:00`);
    const now = `${TODAY}T10:00:00.000000`;
    allDay.datetime.forEach((datetime, i) => {
      assert.match(datetime, WALL_CLOCK_US);
      assert.ok(datetime.startsWith(TODAY), datetime);
      assert.ok(datetime <= now, `${datetime} is not after the clock's now`);
      if (i > 0) assert.ok(datetime > allDay.datetime[i - 1]!, `${datetime} follows ${allDay.datetime[i - 1]}`);
    });
    assert.ok(allDay.close.every((price) => price > 0));
    assert.ok(allDay.volume.every((volume) => Number.isInteger(volume) && volume > 0));
    assert.ok(allDay.tick_type.every((type) => [0, 1, 2].includes(type)));
  });

  test('LastCount is the tail of AllDay', async () => {
    const last = await ticks({ contract: { code: '2330' }, query_type: 'LastCount', last_cnt: 5 });
    assert.equal(last.status, 200);
    assert.deepEqual(
      last.body,
      pick(allDay, (i) => i >= allDay.datetime.length - 5),
    );
    assert.equal(last.body.datetime.length, 5);
    const none = await ticks({ contract: { code: '2330' }, query_type: 'LastCount', last_cnt: 0 });
    assertEmptyTicks(none.body);
  });

  test('RangeTime is the subset of AllDay whose time of day is in range', async () => {
    const range = await ticks({
      contract: { code: '2330' },
      query_type: 'RangeTime',
      time_start: '09:00:00',
      time_end: '09:30:00',
    });
    assert.equal(range.status, 200);
    const inRange = (datetime: string) => datetime.slice(11, 19) >= '09:00:00' && datetime.slice(11, 19) <= '09:30:00';
    const body = range.body as Ticks;
    assert.ok(body.datetime.length > 0);
    assert.ok(body.datetime.every(inRange));
    assert.deepEqual(
      body,
      pick(allDay, (i) => inRange(allDay.datetime[i]!)),
    );
  });

  test('a query type without its fields is a 400 naming them', async () => {
    const noStart = await ticks({ contract: { code: '2330' }, query_type: 'RangeTime', time_end: '09:30:00' });
    assertEnvelope(noStart, 400, /time_start/);
    const noCount = await ticks({ contract: { code: '2330' }, query_type: 'LastCount' });
    assertEnvelope(noCount, 400, /last_cnt/);
  });

  test('unknown contracts and wrong exchanges are 404; a malformed date is 422', async () => {
    assertEnvelope(await ticks({ contract: { code: '9999' } }), 404, /9999/);
    assertEnvelope(await ticks({ contract: { code: '2330', exchange: 'OTC' } }), 404, /2330.*TSE/);
    assertEnvelope(await ticks({ contract: { code: '2330' }, date: '2026/11/20' }), 422, /date/);
    assertEnvelope(await ticks({ contract: { code: '2330' }, date: '20261120' }), 422, /date/);
  });

  test("a past day is the whole day, its last close is today's reference", async () => {
    const past = (await ticks({ contract: { code: '2330' }, date: PAST_DAY })).body as Ticks;
    const n = assertColumnar(past as unknown as Json, TICK_COLUMNS);
    assert.ok(n > allDay.datetime.length, `${n} ticks on ${PAST_DAY}`);
    assert.ok(past.datetime[0]!.startsWith(PAST_DAY), past.datetime[0]);
    // always-open: Friday's session runs through the weekend until Monday's midnight
    assert.ok(past.datetime.at(-1)! < `${TODAY}T00:00:00`, past.datetime.at(-1));
    assert.ok(past.datetime.every((d, i) => i === 0 || d > past.datetime[i - 1]!));
    const info = (await api.get('/api/v1/data/contracts/2330/info')).body;
    assert.equal(info.update_date, TODAY);
    assert.equal(past.close.at(-1), info.reference);
  });

  test('weekends and future days have no ticks', async () => {
    assertEmptyTicks((await ticks({ contract: { code: '2330' }, date: '2026-11-21' })).body);
    assertEmptyTicks((await ticks({ contract: { code: '2330' }, date: '2026-11-22' })).body);
    assertEmptyTicks((await ticks({ contract: { code: '2330' }, date: '2026-11-24' })).body);
    assertEmptyTicks((await ticks({ contract: { code: 'TXFR1' }, date: '2026-11-24' })).body);
  });

  test("today's history grows with the clock and never changes what was published", async () => {
    try {
      clock.advance(10 * 60_000);
      const later = (await ticks({ contract: { code: '2330' } })).body as Ticks;
      const n = allDay.datetime.length;
      assert.ok(later.datetime.length > n, `${later.datetime.length} > ${n}`);
      assert.deepEqual(
        pick(later, (i) => i < n),
        allDay,
      );
      assert.ok(later.datetime.slice(n).every((d) => d > `${TODAY}T10:00:00` && d <= `${TODAY}T10:10:00.000000`));
    } finally {
      clock.set(MONDAY_MORNING);
    }
    assert.deepEqual((await ticks({ contract: { code: '2330' } })).body, allDay);
  });

  test('continuous futures and combos: combos are net prices', async () => {
    const txf = (await ticks({ contract: { code: 'TXFR1' } })).body as Ticks;
    assert.ok(assertColumnar(txf as unknown as Json, TICK_COLUMNS) > 0);
    assert.ok(txf.datetime.every((d) => d <= `${TODAY}T10:00:00.000000`));
    assert.ok(
      txf.close.every((price) => price > 10_000),
      'TXF trades at index level',
    );

    const [near1, near2] = await nearestTxf(api.get);
    const combo = await ticks({ contract: { legs: [{ code: near1 }, { code: near2 }] } });
    assert.equal(combo.status, 200, JSON.stringify(combo.body));
    const net = combo.body as Ticks;
    assert.ok(assertColumnar(net as unknown as Json, TICK_COLUMNS) > 0);
    assert.ok(net.datetime.every((d, i) => i === 0 || d > net.datetime[i - 1]!));
    assert.ok(net.datetime.every((d) => d <= `${TODAY}T10:00:00.000000`));
    assert.ok(
      net.close.every((price) => Math.abs(price) < 1000),
      `net prices ${net.close.slice(0, 5)} are far below the TXF level`,
    );
    assert.deepEqual((await ticks({ contract: { legs: [{ code: near1 }, { code: near2 }] } })).body, net);
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('kbars', () => {
  let app: FastifyInstance;
  let api: ReturnType<typeof client>;
  const kbars = async (body: Json) => api.post('/api/v1/data/kbars', body);

  before(async () => {
    ({ app } = await testApp());
    api = client(app);
  });
  after(async () => {
    await app.close();
  });

  test("a day's bars are the right-labelled one-minute aggregation of its ticks", async () => {
    const ticks = (await api.post('/api/v1/data/ticks', { contract: { code: '2330' }, date: PAST_DAY })).body as Ticks;
    const response = await kbars({ contract: { code: '2330' }, start: PAST_DAY, end: PAST_DAY });
    assert.equal(response.status, 200);
    const bars = response.body as Kbars;
    const n = assertColumnar(bars as unknown as Json, KBAR_COLUMNS);
    const expected = aggregate(ticks, 1000);
    assert.equal(n, expected.datetime.length);
    assert.deepEqual(bars.datetime, expected.datetime);
    assert.deepEqual(bars.Open, expected.Open);
    assert.deepEqual(bars.High, expected.High);
    assert.deepEqual(bars.Low, expected.Low);
    assert.deepEqual(bars.Close, expected.Close);
    assert.deepEqual(bars.Volume, expected.Volume);
    for (const [i, amount] of bars.Amount.entries()) near(amount, expected.Amount[i]!, 0.01);
    assert.equal(sum(bars.Volume), sum(ticks.volume));
    assert.ok(bars.datetime.every((d) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00$/.test(d)));
    // The last trade of the day ends the last bar.
    assert.equal(bars.Close.at(-1), ticks.close.at(-1));
  });

  test('the range is at most 30 days and must not be reversed', async () => {
    assertEnvelope(
      await kbars({ contract: { code: '2330' }, start: '2026-10-01', end: '2026-11-01' }),
      400,
      /must not exceed 30 days/,
    );
    assertEnvelope(await kbars({ contract: { code: '2330' }, start: '2026-11-20', end: '2026-11-19' }), 400, /after/);
    assertEnvelope(await kbars({ contract: { code: '9999' }, start: PAST_DAY, end: PAST_DAY }), 404, /9999/);
  });

  test('indices and continuous futures have bars', async () => {
    for (const code of ['IX0001', 'TXFR1']) {
      const response = await kbars({ contract: { code }, start: PAST_DAY, end: PAST_DAY });
      assert.equal(response.status, 200);
      const n = assertColumnar(response.body, KBAR_COLUMNS);
      assert.ok(n > 100, `${code}: ${n} bars`);
      const bars = response.body as Kbars;
      assert.ok(bars.datetime.every((d, i) => i === 0 || d > bars.datetime[i - 1]!));
      assert.ok(bars.High.every((high, i) => high >= bars.Low[i]! && high >= bars.Open[i]! && high >= bars.Close[i]!));
    }
  });

  test("an index's turnover is the exchange's (hundreds of billions of NT$ a day), not its level times its lots", async () => {
    const response = await kbars({ contract: { code: 'IX0001' }, start: PAST_DAY, end: PAST_DAY });
    const bars = response.body as Kbars;
    const turnover = bars.Amount.reduce((sum, amount) => sum + amount, 0);
    const lots = bars.Volume.reduce((sum, volume) => sum + volume, 0);
    assert.ok(turnover > 1e11 && turnover < 1e12, `turnover ${turnover.toExponential(2)}`);
    assert.ok(turnover / lots > 20_000 && turnover / lots < 200_000, `NT$ ${turnover / lots} per lot`);
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('snapshots', () => {
  let app: FastifyInstance;
  let api: ReturnType<typeof client>;

  before(async () => {
    ({ app } = await testApp());
    api = client(app);
  });
  after(async () => {
    await app.close();
  });

  test("each snapshot agrees with today's ticks and the reference", async () => {
    const [near1, near2] = await nearestTxf(api.get);
    const combo = { legs: [{ code: near1 }, { code: near2 }] };
    const refs: Json[] = [{ code: '2330' }, { code: '2317' }, { code: 'IX0001' }, { code: 'TXFR1' }, combo];
    const response = await api.post('/api/v1/data/snapshots', { contracts: refs });
    assert.equal(response.status, 200);
    const snapshots = response.body as Snapshot[];
    assert.equal(snapshots.length, refs.length);
    for (const [i, ref] of refs.entries()) {
      const snapshot = snapshots[i]!;
      const ticks = (await api.post('/api/v1/data/ticks', { contract: ref })).body as Ticks;
      const label = JSON.stringify(ref);
      assert.ok(ticks.close.length > 0, label);
      assert.equal(snapshot.close, ticks.close.at(-1), label);
      assert.equal(snapshot.total_volume, sum(ticks.volume), label);
      assert.equal(snapshot.open, ticks.close[0], label);
      assert.equal(
        snapshot.high,
        ticks.close.reduce((a, b) => Math.max(a, b)),
        label,
      );
      assert.equal(
        snapshot.low,
        ticks.close.reduce((a, b) => Math.min(a, b)),
        label,
      );
      assert.equal(snapshot.datetime, ticks.datetime.at(-1), label);
      if ('code' in ref) {
        const info = (await api.get(`/api/v1/data/contracts/${ref.code}/info`)).body;
        assert.equal(snapshot.code, ref.code);
        assert.equal(snapshot.exchange, info.exchange, label);
        near(snapshot.change_price, snapshot.close - info.reference, 1e-4);
      }
    }
    const comboSnapshot = snapshots.at(-1)!;
    assert.equal(comboSnapshot.exchange, '');
    assert.ok(comboSnapshot.code.startsWith(near1), comboSnapshot.code);
    assert.ok(Math.abs(comboSnapshot.close) < 1000);
  });

  test('at most 500 contracts (a 422 naming the bound); unknown codes are 404', { timeout: 30_000 }, async () => {
    const many = Array.from({ length: 501 }, () => ({ code: '2330' }));
    const tooMany = await api.post('/api/v1/data/snapshots', { contracts: many });
    assertEnvelope(tooMany, 422, /body\.contracts must NOT have more than 500 items \(it has 501\)/);
    assert.deepEqual(tooMany.body.details, [
      { loc: ['body', 'contracts'], msg: 'must NOT have more than 500 items (it has 501)', type: 'maxItems' },
    ]);
    const most = Array.from({ length: 500 }, () => ({ code: '2330' }));
    assert.equal((await api.post('/api/v1/data/snapshots', { contracts: most })).body.length, 500);
    const unknown = await api.post('/api/v1/data/snapshots', { contracts: [{ code: '2330' }, { code: '9999' }] });
    assertEnvelope(unknown, 404, /9999/);
    assert.deepEqual((await api.post('/api/v1/data/snapshots', { contracts: [] })).body, []);
  });
});

// ---------------------------------------------------------------------------------------------------------------

/**
 * One gateway for the scanner and the daily quotes: both go over every stock's trades of PAST_DAY (about 3 s), and the
 * gateway keeps each stock's figures of a day once made, so the second is quick. Closed once the file is done.
 */
let sharedApp: ReturnType<typeof testApp> | undefined;
const wholeListingApp = () => {
  sharedApp ??= testApp();
  return sharedApp;
};
after(async () => {
  if (sharedApp) await (await sharedApp).app.close();
});

describe('scanner', () => {
  let app: FastifyInstance;
  let clock: ManualClock;
  let api: ReturnType<typeof client>;
  const scan = async (body: Json) => api.post('/api/v1/data/scanner', body);

  before(async () => {
    ({ app, clock } = await wholeListingApp());
    api = client(app);
  });

  test('every type ranks: 200 rows by default, ascending true is largest first', async () => {
    for (const scanner_type of SCANNER_TYPES) {
      const largest = await scan({ scanner_type });
      assert.equal(largest.status, 200);
      assert.equal(largest.body.length, 200, scanner_type);
      const values = (largest.body as Json[]).map((item) => item.rank_value as number);
      assert.ok(
        values.every((v, i) => i === 0 || v <= values[i - 1]!),
        `${scanner_type} ascending true is non-increasing`,
      );
      assert.deepEqual(
        (await scan({ scanner_type, ascending: true })).body,
        largest.body,
        `${scanner_type}: ascending defaults to true`,
      );

      const smallest = await scan({ scanner_type, ascending: false, count: 50 });
      assert.equal(smallest.body.length, 50, scanner_type);
      const up = (smallest.body as Json[]).map((item) => item.rank_value as number);
      assert.ok(
        up.every((v, i) => i === 0 || v >= up[i - 1]!),
        `${scanner_type} ascending false is non-decreasing`,
      );
      assert.ok(up[0]! <= values.at(-1)!, `${scanner_type}: the smallest is not above the 200th largest`);
      assert.ok((largest.body as Json[]).every((item) => item.date === TODAY));
    }
  });

  test('count bounds: 0 is empty, 201 is a 422', async () => {
    assert.deepEqual((await scan({ scanner_type: 'VolumeRank', count: 0 })).body, []);
    assertEnvelope(await scan({ scanner_type: 'VolumeRank', count: 201 }), 422, /count/);
    assertEnvelope(await scan({ scanner_type: 'NoSuchRank' }), 422, /scanner_type/);
  });

  test('a past day ranks the whole day; weekends, future days and days before history are empty', async () => {
    const past = (await scan({ scanner_type: 'TickCountRank', date: PAST_DAY, count: 3 })).body as Json[];
    assert.equal(past.length, 3);
    assert.ok(past.every((item) => item.date === PAST_DAY && (item.rank_value as number) > 0));
    for (const date of ['2026-11-21', '2026-11-24', '2019-01-02']) {
      const response = await scan({ scanner_type: 'VolumeRank', date });
      assert.equal(response.status, 200, `${date}: ${JSON.stringify(response.body)}`);
      assert.deepEqual(response.body, [], date);
    }
  });

  test('VolumeRank ranks by total volume and agrees with the snapshots', async () => {
    const top = (await scan({ scanner_type: 'VolumeRank', count: 5 })).body as Json[];
    assert.equal(top.length, 5);
    for (const item of top) assert.equal(item.rank_value, item.total_volume);
    const snapshots = (
      await api.post('/api/v1/data/snapshots', { contracts: top.map((item) => ({ code: item.code })) })
    ).body as Snapshot[];
    top.forEach((item, i) => {
      const snapshot = snapshots[i]!;
      assert.equal(snapshot.code, item.code);
      assert.equal(snapshot.total_volume, item.total_volume, `${item.code} total_volume`);
      assert.equal(snapshot.close, item.close, `${item.code} close`);
      assert.equal(snapshot.datetime, item.datetime, `${item.code} datetime`);
    });
  });

  test('a stock without trades today is dated on the simulated clock, not the host clock', async () => {
    // Every stock trades about once a minute on the always-open clock: seconds after midnight, some have not yet.
    clock.set(taipeiInstant(TODAY, '00:00:05'));
    try {
      const quietest = (await scan({ scanner_type: 'TickCountRank', ascending: false, count: 1 })).body as Json[];
      assert.equal(quietest[0]!.rank_value, 0, 'some stock has not traded by 00:00:05');
      assert.ok((quietest[0]!.datetime as string).startsWith(TODAY), `datetime ${quietest[0]!.datetime}`);
      const snapshot = (await api.post('/api/v1/data/snapshots', { contracts: [{ code: quietest[0]!.code }] }))
        .body as Snapshot[];
      assert.ok(snapshot[0]!.datetime.startsWith(TODAY), `snapshot datetime ${snapshot[0]!.datetime}`);
    } finally {
      clock.set(MONDAY_MORNING);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('credit and short-sale sources', () => {
  let app: FastifyInstance;
  let broker: SimBroker;
  let api: ReturnType<typeof client>;

  before(async () => {
    ({ app, broker } = await testApp());
    api = client(app);
  });
  after(async () => {
    await app.close();
  });

  const stocks = [{ code: '2330' }, { security_type: 'STK', exchange: 'TSE', code: '2317' }];

  test('credit_enquire carries the StockInfo balances', async () => {
    const response = await api.post('/api/v1/data/credit_enquire', { contracts: stocks });
    assert.equal(response.status, 200);
    assert.equal(response.body.length, 2);
    for (const [i, row] of (response.body as Json[]).entries()) {
      const info = (await api.get(`/api/v1/data/contracts/${stocks[i]!.code}/info`)).body;
      assert.deepEqual(row, {
        update_time: `${info.update_date} 08:00:00.000000`,
        system: 'ALL',
        stock_id: info.code,
        margin_unit: info.margin_trading_balance,
        short_unit: info.short_selling_balance,
        margin_loan_ratio: info.margin_loan_ratio,
        short_margin_ratio: info.short_margin_ratio,
      });
    }
  });

  test('short_stock_sources: whole lots of lendable shares, none when not SBL-shortable', async () => {
    const infos = broker.contracts
      .list('STK')
      .map((c) => broker.contracts.info(c.code, { securityType: 'STK' }) as StockInfo);
    const notLendable = infos.find((info) => !info.sbl_shortable);
    const codes = [...stocks.map((s) => s.code), ...(notLendable ? [notLendable.code] : [])];
    const response = await api.post('/api/v1/data/short_stock_sources', {
      contracts: codes.map((code) => ({ code })),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(
      (response.body as Json[]).map((row) => row.code),
      codes,
    );
    for (const row of response.body as Json[]) {
      const info = infos.find((i) => i.code === row.code)!;
      assert.equal(row.datetime, `${TODAY}T10:00:00`);
      assert.ok(Number.isInteger(row.short_stock_source) && (row.short_stock_source as number) % 1000 === 0);
      if (info.sbl_shortable) assert.ok((row.short_stock_source as number) > 0, `${row.code} is lendable`);
      else assert.equal(row.short_stock_source, 0, `${row.code} is not lendable`);
    }
  });

  test('both are for stocks only', async () => {
    for (const url of ['/api/v1/data/credit_enquire', '/api/v1/data/short_stock_sources']) {
      const futures = await api.post(url, { contracts: [{ security_type: 'FUT', code: 'TXFR1' }] });
      assertEnvelope(futures, 400, /stocks only/);
      const index = await api.post(url, { contracts: [{ code: '2330' }, { code: 'IX0001' }] });
      assertEnvelope(index, 400, /stocks only/);
      assertEnvelope(await api.post(url, { contracts: [{ code: '9999' }] }), 404, /9999/);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('regulatory lists and daily quotes', () => {
  let app: FastifyInstance;
  let broker: SimBroker;
  let api: ReturnType<typeof client>;
  let infos: StockInfo[];

  before(async () => {
    ({ app, broker } = await wholeListingApp());
    api = client(app);
    infos = broker.contracts
      .list('STK')
      .map((c) => broker.contracts.info(c.code, { securityType: 'STK' }) as StockInfo);
  });

  test('regulatory_punish lists exactly the disposition stocks', async () => {
    const response = await api.get('/api/v1/data/regulatory_punish');
    assert.equal(response.status, 200);
    const columns = [
      'announced_date',
      'code',
      'description',
      'end_date',
      'interval',
      'start_date',
      'total_limit',
      'unit_limit',
      'updated_at',
    ];
    const n = assertColumnar(response.body, columns);
    const expected = infos.filter((info) => info.disposition_level > 0);
    assert.ok(n > 0, 'the simulated catalog has disposition stocks');
    assert.deepEqual(
      response.body.code,
      expected.map((info) => info.code),
    );
    for (const [i, code] of (response.body.code as string[]).slice(0, 3).entries()) {
      const info = (await api.get(`/api/v1/data/contracts/${code}/info`)).body;
      assert.ok(info.disposition_level > 0, `${code} disposition_level ${info.disposition_level}`);
      assert.equal(response.body.unit_limit[i], info.disposition_max_lots_single_order);
      assert.equal(response.body.total_limit[i], info.disposition_max_lots_total_orders);
      assert.ok(response.body.start_date[i] <= TODAY && TODAY <= response.body.end_date[i], `${code} in force`);
    }
  });

  test('regulatory_notice lists exactly the attention stocks', async () => {
    const response = await api.get('/api/v1/data/regulatory_notice');
    assert.equal(response.status, 200);
    const n = assertColumnar(response.body, ['announced_date', 'close', 'code', 'reason', 'updated_at']);
    const expected = infos.filter((info) => info.attention_flag);
    assert.ok(n > 0, 'the simulated catalog has attention stocks');
    assert.deepEqual(
      response.body.code,
      expected.map((info) => info.code),
    );
    for (const code of (response.body.code as string[]).slice(0, 3)) {
      assert.equal((await api.get(`/api/v1/data/contracts/${code}/info`)).body.attention_flag, true, code);
    }
    assert.ok((response.body.announced_date as string[]).every((d) => d === PAST_DAY));
  });

  test("daily_quotes: one row per stock, each close the last tick of the stock's day", async () => {
    const response = await api.post('/api/v1/data/daily_quotes', { date: PAST_DAY });
    assert.equal(response.status, 200);
    const quotes = response.body;
    const n = assertColumnar(quotes, [
      'Amount',
      'Close',
      'Code',
      'Date',
      'High',
      'Low',
      'Open',
      'Transaction',
      'Volume',
    ]);
    assert.ok(n > 0);
    assert.equal(new Set(quotes.Code).size, n, 'no stock twice');
    const listed = new Set(infos.map((info) => info.code));
    assert.ok((quotes.Code as string[]).every((code) => listed.has(code)));
    assert.ok((quotes.Date as string[]).every((date) => date === PAST_DAY));
    // Every tenth stock of the whole listing (each query builds that stock's tape of the day).
    for (let i = 0; i < n; i += 10) {
      const code = quotes.Code[i] as string;
      const last = await api.post('/api/v1/data/ticks', {
        contract: { code },
        date: PAST_DAY,
        query_type: 'LastCount',
        last_cnt: 1,
      });
      assert.equal(quotes.Close[i], last.body.close[0], `${code} close`);
    }
    // A few in full: open, high, low, volume in shares and the trade count come from the same ticks.
    for (let i = 0; i < 3; i++) {
      const code = quotes.Code[i] as string;
      const ticks = (await api.post('/api/v1/data/ticks', { contract: { code }, date: PAST_DAY })).body as Ticks;
      assert.equal(quotes.Open[i], ticks.close[0], code);
      assert.equal(
        quotes.High[i],
        ticks.close.reduce((a, b) => Math.max(a, b)),
        code,
      );
      assert.equal(
        quotes.Low[i],
        ticks.close.reduce((a, b) => Math.min(a, b)),
        code,
      );
      assert.equal(quotes.Volume[i], sum(ticks.volume) * 1000, code);
      assert.equal(quotes.Transaction[i], ticks.close.length, code);
    }
    // Without a date: the latest closed day, which is the previous trading day in the morning.
    assert.deepEqual((await api.post('/api/v1/data/daily_quotes', {})).body, quotes);
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('request dates', () => {
  test('a date that does not exist is a 422 naming the field, never a 500 or an empty answer', async () => {
    const { app } = await testApp();
    const api = client(app);
    try {
      for (const day of ['0000-00-00', '2026-02-30', '2026-13-01', '2025-02-29']) {
        const requests: [string, Json, string][] = [
          ['/api/v1/data/ticks', { contract: { code: '2330' }, date: day }, 'date'],
          ['/api/v1/data/kbars', { contract: { code: '2330' }, start: day, end: day }, 'start'],
          ['/api/v1/data/kbars', { contract: { code: '2330' }, start: PAST_DAY, end: day }, 'end'],
          ['/api/v1/data/scanner', { scanner_type: 'VolumeRank', date: day }, 'date'],
          ['/api/v1/data/daily_quotes', { date: day }, 'date'],
        ];
        for (const [url, body, field] of requests) {
          const response = await api.post(url, body);
          assertEnvelope(response, 422, new RegExp(`body\\.${field} must match format "date"`));
        }
      }
      // a leap day that exists is a day like any other
      assert.equal(
        (await api.post('/api/v1/data/ticks', { contract: { code: '2330' }, date: '2024-02-29' })).status,
        200,
      );
    } finally {
      await app.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('call-rate and traffic limits', () => {
  test('the 11th ticks call of the trading day is refused with Retry-After', async () => {
    const { app } = await testApp(undefined, null, true);
    try {
      const api = client(app);
      for (let i = 1; i <= 10; i++) {
        const response = await api.post('/api/v1/data/ticks', {
          contract: { code: '2330' },
          query_type: 'LastCount',
          last_cnt: 1,
        });
        assert.equal(response.status, 200, `call ${i}`);
      }
      const refused = await api.post('/api/v1/data/ticks', { contract: { code: '2330' } });
      assertEnvelope(refused, 429, /ticks/);
      assert.equal(refused.headers['retry-after'], '60');
      // Other market data is not in the ticks group.
      assert.equal((await api.post('/api/v1/data/snapshots', { contracts: [{ code: '2330' }] })).status, 200);
    } finally {
      await app.close();
    }
  });

  test('ticks answers are metered to the byte; once the day is used up ticks are empty', async () => {
    const { app, gateway } = await testApp(undefined, null, true);
    try {
      const api = client(app);
      const usage = async () => (await api.get('/api/v1/auth/usage')).body;
      const before = await usage();
      const answer = await api.post('/api/v1/data/ticks', { contract: { code: '2330' } });
      assert.equal(answer.status, 200);
      assert.ok(answer.body.datetime.length > 0);
      assert.equal((await usage()).bytes, before.bytes + Buffer.byteLength(answer.raw));

      gateway.traffic.record(600 * 1024 * 1024);
      const spent = await usage();
      assert.ok(spent.bytes >= spent.limit_bytes, JSON.stringify(spent));
      assert.equal(spent.remaining_bytes, 0);
      const empty = await api.post('/api/v1/data/ticks', { contract: { code: '2330' } });
      assert.equal(empty.status, 200);
      assertEmptyTicks(empty.body);
      assert.equal(empty.headers['x-sjgate-traffic'], 'exhausted');
      assert.equal((await usage()).bytes, spent.bytes, 'the empty answer is not metered');
      const contract = await api.get('/api/v1/data/contracts/2330');
      assert.equal(contract.status, 200);
      assert.equal(contract.body.code, '2330');
    } finally {
      await app.close();
    }
  });
});
