import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { SimBroker } from '../../src/broker/sim/sim-broker.js';
import { percentLimits, STOCK_TICKS } from '../../src/domain/ticks.js';
import { testApp } from '../helpers/app.js';
import { assertErrorKind } from '../helpers/errors.js';

let app: FastifyInstance;
let broker: SimBroker;
before(async () => {
  ({ app, broker } = await testApp());
});
after(async () => {
  await app.close();
});

type Json = Record<string, unknown>;

async function get(url: string) {
  const response = await app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.json() };
}

async function post(url: string, payload: unknown) {
  const response = await app.inject({ method: 'POST', url, payload: payload as Json });
  return { status: response.statusCode, body: response.json() };
}

function assertEnvelope(response: { status: number; body: Json }, status: number, message?: string | RegExp) {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assertErrorKind(response.body, status);
  assert.equal(response.body.code, status);
  assert.equal(typeof response.body.message, 'string');
  if (typeof message === 'string') assert.equal(response.body.message, message);
  else if (message) assert.match(response.body.message as string, message);
  if (status !== 422) assert.equal(response.body.details, null);
}

/** Field kinds of the spec: str, float, int, bool, date (YYYY-MM-DD), and nullable forms ending in '?'. */
type Kind = 'str' | 'float' | 'int' | 'bool' | 'date' | 'int?' | 'float?' | 'str?';

function assertFields(info: Json, fields: Record<string, Kind>) {
  for (const [field, kind] of Object.entries(fields)) {
    assert.ok(field in info, `${info.code}: ${field} is present`);
    const value = info[field];
    if (kind.endsWith('?') && value === null) continue;
    const base = kind.replace('?', '');
    const ok =
      base === 'str'
        ? typeof value === 'string'
        : base === 'float'
          ? typeof value === 'number' && Number.isFinite(value)
          : base === 'int'
            ? Number.isInteger(value)
            : base === 'bool'
              ? typeof value === 'boolean'
              : typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
    assert.ok(ok, `${info.code}: ${field} = ${JSON.stringify(value)} is ${kind}`);
  }
}

const CONTRACT_FIELDS: Record<string, Kind> = {
  security_type: 'str',
  region: 'str',
  exchange: 'str',
  code: 'str',
  target_code: 'str?',
};

const STOCK_INFO_FIELDS: Record<string, Kind> = {
  ...CONTRACT_FIELDS,
  name: 'str',
  category: 'str',
  currency: 'str',
  unit: 'float',
  day_trade: 'str',
  reference: 'float',
  limit_up: 'float',
  limit_down: 'float',
  margin_trading_balance: 'int',
  short_selling_balance: 'int',
  trading_suspended: 'bool',
  margin_loan_ratio: 'float',
  margin_quota_lots: 'int',
  short_margin_ratio: 'float',
  short_quota_lots: 'int',
  margin_shortable: 'bool',
  sbl_shortable: 'bool',
  below_ref_shortable: 'bool',
  disposition_level: 'int',
  attention_flag: 'bool',
  etf_constituent: 'bool',
  settlement_type: 'str',
  disposition_match_interval_min: 'int?',
  disposition_max_lots_single_order: 'int?',
  disposition_max_lots_total_orders: 'int?',
  disposition_prepay_ratio: 'float?',
  update_date: 'date',
};

const FUTURES_INFO_FIELDS: Record<string, Kind> = {
  ...CONTRACT_FIELDS,
  name: 'str',
  root: 'str',
  delivery_month: 'str',
  delivery_date: 'date',
  last_trading_date: 'date',
  begin_date: 'date',
  underlying_kind: 'str',
  underlying_code: 'str',
  multiplier: 'float',
  contract_size: 'float',
  size_unit: 'str',
  quote_ccy: 'str',
  tick_basis: 'str',
  tick_rule: 'str?',
  tick: 'float',
  tick_value: 'float',
  spec_kind: 'str',
  decimal_locator: 'int',
  dynamic_banding: 'bool',
  flow_group: 'str',
  reference: 'float',
  limit_up: 'float',
  limit_down: 'float',
  limit_up_2: 'float',
  limit_down_2: 'float',
  limit_up_3: 'float',
  limit_down_3: 'float',
  update_date: 'date',
};

const OPTION_INFO_FIELDS: Record<string, Kind> = {
  ...FUTURES_INFO_FIELDS,
  strike_price: 'float',
  option_right: 'str',
  expiry_weekday: 'str',
  week_of_month: 'int',
  strike_decimal_locator: 'int',
};

const INDEX_INFO_FIELDS: Record<string, Kind> = {
  ...CONTRACT_FIELDS,
  name: 'str',
  reference: 'float',
  open_time: 'str',
  close_time: 'str',
  update_date: 'date',
};

const WARRANT_INFO_FIELDS: Record<string, Kind> = {
  ...CONTRACT_FIELDS,
  name: 'str',
  underlying_code: 'str',
  underlying_type: 'str',
  call_put: 'str',
  financial: 'str',
  strike_price: 'float',
  expiry_date: 'date',
  last_trading_date: 'date',
  exercise_ratio: 'float',
  exercise_style: 'str',
  listing_date: 'date',
  delisting_date: 'date',
  exercise_start_date: 'date',
  exercise_end_date: 'date',
  barrier_upper: 'float?',
  barrier_lower: 'float?',
  residual_value: 'float?',
  settlement_method: 'str',
  investor_restriction: 'str',
  issue_size: 'int',
  reference: 'float',
  limit_up: 'float',
  limit_down: 'float',
  update_date: 'date',
};

describe('single contract lookup', () => {
  test('GET /contracts/2330 is the Contract identity', async () => {
    const { status, body } = await get('/api/v1/data/contracts/2330');
    assert.equal(status, 200);
    assert.deepEqual(body, { security_type: 'STK', region: 'TW', exchange: 'TSE', code: '2330', target_code: null });
  });

  test('continuous futures carry target_code; indices use the IX form', async () => {
    assert.deepEqual((await get('/api/v1/data/contracts/TXFR1')).body, {
      security_type: 'FUT',
      region: 'TW',
      exchange: 'TAIFEX',
      code: 'TXFR1',
      target_code: 'TXFL6',
    });
    assert.deepEqual((await get('/api/v1/data/contracts/IX0043')).body, {
      security_type: 'IND',
      region: 'TW',
      exchange: 'OTC',
      code: 'IX0043',
      target_code: null,
    });
  });

  test('security_type restricts the search', async () => {
    assert.equal((await get('/api/v1/data/contracts/2330?security_type=STK')).status, 200);
    assertEnvelope(await get('/api/v1/data/contracts/2330?security_type=FUT'), 404, /2330/);
    assertEnvelope(await get('/api/v1/data/contracts/2330/info?security_type=FUT'), 404, /2330/);
    assertEnvelope(await get('/api/v1/data/contracts/2330?security_type=XYZ'), 422);
  });

  test('an unknown code is a 404 envelope naming it', async () => {
    assertEnvelope(await get('/api/v1/data/contracts/9999'), 404, /9999/);
    assertEnvelope(await get('/api/v1/data/contracts/TXFZ9/info'), 404, /TXFZ9/);
  });

  test('the pre-1.7 index code 001 is not found, and the message points at IX0001', async () => {
    assertEnvelope(await get('/api/v1/data/contracts/001'), 404, /IX0001/);
    assertEnvelope(await get('/api/v1/data/contracts/001/info'), 404, /IX0001/);
  });
});

describe('info objects', () => {
  test('StockInfo has every field of the spec, typed', async () => {
    const { status, body } = await get('/api/v1/data/contracts/2330/info');
    assert.equal(status, 200);
    assertFields(body, STOCK_INFO_FIELDS);
    assert.equal(body.security_type, 'STK');
    assert.equal(body.name, '台積電');
    assert.equal(body.currency, 'TWD');
    assert.equal(body.unit, 1000);
    assert.equal(body.target_code, null);
    // the simulated market's close of Friday 2026-11-20, and 10% of it rounded inward onto the grid
    const close = broker.market.daily.closeOf('2330', '2026-11-20');
    const { limitUp, limitDown } = percentLimits(STOCK_TICKS, close, 0.1);
    assert.deepEqual([body.reference, body.limit_up, body.limit_down], [close, limitUp, limitDown]);
    assert.equal(body.update_date, '2026-11-23');
    assert.ok(['Yes', 'OnlyBuy', 'No'].includes(body.day_trade as string));
  });

  test('FuturesInfo of a continuous alias is its target month under the alias code', async () => {
    const { status, body } = await get('/api/v1/data/contracts/TXFR1/info');
    assert.equal(status, 200);
    assertFields(body, FUTURES_INFO_FIELDS);
    const target = (await get('/api/v1/data/contracts/TXFL6/info')).body;
    assert.equal(body.code, 'TXFR1');
    assert.equal(body.target_code, 'TXFL6');
    assert.equal(target.target_code, null);
    for (const field of ['delivery_month', 'last_trading_date', 'reference', 'limit_up', 'limit_down', 'root']) {
      assert.equal(body[field], target[field], field);
    }
    assert.equal(body.delivery_month, '202612');
    assert.equal(body.last_trading_date, '2026-12-16');
    assert.equal(body.tick_basis, 'fixed');
    assert.equal(body.tick_rule, null);
    assert.equal(body.tick, 1);
    assert.equal(body.multiplier, 200);
    assert.equal(body.tick_value, 200);
    assert.equal(body.underlying_kind, 'I');
    assert.equal(body.spec_kind, 'index_fut');
  });

  test('OptionInfo has the futures fields plus strike, right, expiry weekday', async () => {
    const { status, body } = await get('/api/v1/data/contracts/TXO44000X6/info');
    assert.equal(status, 200);
    assertFields(body, OPTION_INFO_FIELDS);
    assert.equal(body.security_type, 'OPT');
    assert.equal(body.strike_price, 44000);
    assert.equal(body.option_right, 'P');
    assert.equal(body.delivery_month, '202612');
    assert.equal(body.expiry_weekday, 'Wed');
    assert.equal(body.tick_basis, 'premium');
    assert.equal(body.tick_rule, 'TXO');
    assert.equal(body.spec_kind, 'index_opt');
  });

  test('IndexInfo', async () => {
    const { status, body } = await get('/api/v1/data/contracts/IX0001/info');
    assert.equal(status, 200);
    assertFields(body, INDEX_INFO_FIELDS);
    assert.match(body.open_time as string, /^\d{2}:\d{2}$/);
    assert.match(body.close_time as string, /^\d{2}:\d{2}$/);
    assert.equal(body.name, '發行量加權股價指數');
  });

  test('a warrant has no info lookup: 400 pointing at the warrant listing', async () => {
    const warrant = (await get('/api/v1/data/contracts/warrants?underlying_code=2330')).body[0] as Json;
    const lookup = await get(`/api/v1/data/contracts/${warrant.code}`);
    assert.equal(lookup.status, 200);
    assert.equal(lookup.body.security_type, 'WRT');
    const info = await get(`/api/v1/data/contracts/${warrant.code}/info`);
    assertEnvelope(info, 400, /\/api\/v1\/data\/contracts\/warrants\?underlying_code=2330/);
  });
});

describe('listing by security type', () => {
  test('without page or page_size every contract is returned, with no paging fields', async () => {
    const { status, body } = await get('/api/v1/data/contracts?security_type=STK');
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body).sort(), ['contracts', 'region', 'security_type', 'total']);
    const contracts = body.contracts as Json[];
    assert.equal(body.total, contracts.length);
    assert.ok(contracts.length >= 150);
    assert.equal(body.security_type, 'STK');
    assert.equal(body.region, 'TW');
    assert.ok(contracts.every((c) => c.security_type === 'STK'));
    assert.deepEqual(Object.keys(contracts[0]!), ['security_type', 'region', 'exchange', 'code', 'target_code']);
  });

  test('page and page_size select one page; page_size alone means page 1', async () => {
    const all = (await get('/api/v1/data/contracts?security_type=STK')).body.contracts as Json[];
    const total = all.length;
    const second = await get('/api/v1/data/contracts?security_type=STK&page=2&page_size=100');
    assert.equal(second.status, 200);
    assert.deepEqual(
      { ...second.body, contracts: undefined },
      {
        contracts: undefined,
        security_type: 'STK',
        region: 'TW',
        total,
        page: 2,
        page_size: 100,
        max_page: Math.ceil(total / 100),
      },
    );
    assert.deepEqual(second.body.contracts, all.slice(100, 200));

    const first = await get('/api/v1/data/contracts?security_type=STK&page_size=100');
    assert.equal(first.body.page, 1);
    assert.deepEqual(first.body.contracts, all.slice(0, 100));

    const last = await get(`/api/v1/data/contracts?security_type=STK&page=${Math.ceil(total / 100)}&page_size=100`);
    assert.equal((last.body.contracts as Json[]).length, total - 100 * (Math.ceil(total / 100) - 1));

    // the whole listing is more than one default page of 1000
    const defaultSize = await get('/api/v1/data/contracts?security_type=STK&page=1');
    assert.equal(defaultSize.body.page_size, 1000);
    assert.equal(defaultSize.body.max_page, Math.ceil(total / 1000));
    assert.deepEqual(defaultSize.body.contracts, all.slice(0, 1000));

    const beyond = await get('/api/v1/data/contracts?security_type=IND&page=9&page_size=2');
    assert.deepEqual(beyond.body.contracts, []);
    assert.equal(beyond.body.max_page, 3);
  });

  test('invalid paging and a missing security_type are 422 with their locations', async () => {
    const response = await get('/api/v1/data/contracts?page=0');
    assertEnvelope(response, 422);
    const locs = (response.body.details as Json[]).map((d) => (d.loc as string[]).join('.'));
    assert.deepEqual(locs.sort(), ['query.page', 'query.security_type']);
  });

  test('the pre-1.7 POST form: page -1 returns everything, other pages page', async () => {
    const all = await post('/api/v1/data/contracts', { security_type: 'IND', page: -1 });
    assert.equal(all.status, 200);
    assert.deepEqual(Object.keys(all.body).sort(), ['contracts', 'region', 'security_type', 'total']);
    assert.deepEqual(
      (all.body.contracts as Json[]).map((c) => c.code),
      ['IX0001', 'IX0043', 'IX0010', 'IX0011', 'IX0012'],
    );
    const page = await post('/api/v1/data/contracts', { security_type: 'IND', page: 2, page_size: 2 });
    assert.deepEqual(
      (page.body.contracts as Json[]).map((c) => c.code),
      ['IX0010', 'IX0011'],
    );
    assert.equal(page.body.max_page, 3);
    assertEnvelope(await post('/api/v1/data/contracts', { security_type: 'IND', page: 0 }), 400, /page/);
  });

  test('the listing is the same catalog as the lookups: R1/R2 included for futures, with target_code', async () => {
    const futures = (await get('/api/v1/data/contracts?security_type=FUT')).body.contracts as Json[];
    const r1 = futures.find((c) => c.code === 'TXFR1');
    assert.deepEqual(r1, (await get('/api/v1/data/contracts/TXFR1')).body);
    assert.ok(futures.filter((c) => !/R[12]$/.test(c.code as string)).every((c) => c.target_code === null));
  });
});

describe('futures listing', () => {
  test('futures roots list every product with its name', async () => {
    const { status, body } = await get('/api/v1/data/contracts/futures/roots');
    assert.equal(status, 200);
    const roots = body as unknown as Json[];
    assert.deepEqual(roots[0], { root: 'TXF', name: '臺股期貨' });
    const codes = roots.map((r) => r.root);
    for (const root of ['TXF', 'MXF', 'TMF', 'CDF', 'QFF']) assert.ok(codes.includes(root), root);
    assert.ok(roots.every((r) => typeof r.name === 'string' && (r.name as string).length > 0));
  });

  test('by root: the listed months and the R1/R2 aliases', async () => {
    const { status, body } = await get('/api/v1/data/contracts/futures?root=TXF');
    assert.equal(status, 200);
    const list = body as unknown as Json[];
    assert.deepEqual(
      list.map((f) => f.code),
      ['TXFL6', 'TXFA7', 'TXFB7', 'TXFC7', 'TXFF7', 'TXFI7', 'TXFR1', 'TXFR2'],
    );
    for (const f of list) assertFields(f, FUTURES_INFO_FIELDS);
    assert.deepEqual(
      list.map((f) => f.target_code),
      [null, null, null, null, null, null, 'TXFL6', 'TXFA7'],
    );
  });

  test('by underlying: every product on it (2330 -> CDF and QFF)', async () => {
    const list = (await get('/api/v1/data/contracts/futures?underlying_code=2330')).body as unknown as Json[];
    assert.deepEqual([...new Set(list.map((f) => f.root))].sort(), ['CDF', 'QFF']);
    assert.ok(list.every((f) => f.underlying_code === '2330' && f.underlying_kind === 'S'));
    assert.ok(list.some((f) => f.code === 'CDFR1') && list.some((f) => f.code === 'QFFR1'));
    const multipliers = Object.fromEntries(list.map((f) => [f.root, f.multiplier]));
    assert.deepEqual(multipliers, { CDF: 2000, QFF: 100 });
  });

  test('root and underlying_code: both is 400; neither lists every futures (1.7.9), each with its dataset', async () => {
    assertEnvelope(await get('/api/v1/data/contracts/futures?root=TXF&underlying_code=2330'), 400, /not both/);
    const every = (await get('/api/v1/data/contracts/futures')).body as unknown as Json[];
    const txf = (await get('/api/v1/data/contracts/futures?root=TXF')).body as unknown as Json[];
    assert.ok(every.length > txf.length);
    assert.ok(new Set(every.map((f) => f.root)).size > 3);
    assert.ok([...every, ...txf].every((f) => f.dataset === 'TW/FUT'));
  });

  test('info records carry their dataset; ?exchange= finds only a contract listed there', async () => {
    const datasets: Record<string, string> = { '2330': 'TW/STK', TXFR1: 'TW/FUT', IX0001: 'TW/IND' };
    for (const [code, dataset] of Object.entries(datasets)) {
      assert.equal((await get(`/api/v1/data/contracts/${code}/info`)).body.dataset, dataset);
    }
    const options = (await get('/api/v1/data/contracts/options?root=TXO')).body as unknown as Json[];
    assert.ok(options.length > 0 && options.every((o) => o.dataset === 'TW/OPT'));
    const warrants = (await get('/api/v1/data/contracts/warrants?underlying_code=2330')).body as unknown as Json[];
    assert.ok(warrants.length > 0 && warrants.every((w) => w.dataset === 'TW/WRT'));
    assert.equal((await get('/api/v1/data/contracts/2330?exchange=TSE')).body.exchange, 'TSE');
    assertEnvelope(await get('/api/v1/data/contracts/2330?exchange=OTC'), 404, /not found on OTC: it is listed on TSE/);
    assertEnvelope(await get('/api/v1/data/contracts/2330/info?exchange=OTC'), 404, /listed on TSE/);
    assertEnvelope(await get('/api/v1/data/contracts/2330?exchange=NYSE'), 422);
  });

  test('delivery_month filters; a malformed one is 422; unknown root or underlying is 404', async () => {
    const list = (await get('/api/v1/data/contracts/futures?root=TXF&delivery_month=202701')).body as unknown as Json[];
    assert.deepEqual(list.map((f) => f.code).sort(), ['TXFA7', 'TXFR2']);
    assert.ok(list.every((f) => f.delivery_month === '202701'));
    const none = await get('/api/v1/data/contracts/futures?root=TXF&delivery_month=202704');
    assert.deepEqual(none.body, []);
    const bad = await get('/api/v1/data/contracts/futures?root=TXF&delivery_month=2027-01');
    assertEnvelope(bad, 422);
    assert.deepEqual(
      (bad.body.details as Json[]).map((d) => d.loc),
      [['query', 'delivery_month']],
    );
    assertEnvelope(await get('/api/v1/data/contracts/futures?root=XXF'), 404, /XXF/);
    assertEnvelope(await get('/api/v1/data/contracts/futures?underlying_code=9999'), 404, /9999/);
  });
});

describe('options listing', () => {
  const options = async (query: string) => {
    const { status, body } = await get(`/api/v1/data/contracts/options?${query}`);
    assert.equal(status, 200, JSON.stringify(body));
    return body as unknown as Json[];
  };

  test('option roots', async () => {
    const roots = (await get('/api/v1/data/contracts/options/roots')).body as unknown as Json[];
    assert.deepEqual(roots[0], { root: 'TXO', name: '臺指選擇權' });
    const codes = roots.map((r) => r.root);
    for (const root of ['TX1', 'TX2', 'TX4', 'TX5', 'TXU', 'TXV', 'TXX', 'TXY', 'TXZ']) assert.ok(codes.includes(root));
  });

  test('root TXO lists the monthly and quarterly series, as Contracts.Options.TXO; each weekly its own root', async () => {
    const monthly = await options('root=TXO');
    assert.ok(monthly.length > 300, `${monthly.length} monthly series`);
    assert.deepEqual([...new Set(monthly.map((o) => o.root))], ['TXO'], 'no weekly series under TXO');
    assert.ok(monthly.every((o) => o.flow_group === 'TXO'));
    for (const o of monthly.slice(0, 5)) assertFields(o, OPTION_INFO_FIELDS);
    for (const weekly of ['TX4', 'TXU', 'TXY']) {
      const series = await options(`root=${weekly}`);
      assert.ok(series.length > 0, `${weekly} lists its series`);
      assert.ok(
        series.every((o) => o.root === weekly && o.flow_group === 'TXO'),
        `${weekly} lists only its own series`,
      );
    }
    const week1 = await options('root=TX1');
    assert.ok(week1.length > 0 && week1.every((o) => o.root === 'TX1' && o.last_trading_date === '2026-12-02'));
  });

  test('option_right, strike_min/max and delivery_month filter', async () => {
    const puts = await options('root=TXO&option_right=P');
    assert.ok(puts.length > 0 && puts.every((o) => o.option_right === 'P'));
    const range = await options('root=TXO&strike_min=43500&strike_max=44000');
    assert.ok(range.length > 0);
    assert.ok(range.every((o) => (o.strike_price as number) >= 43500 && (o.strike_price as number) <= 44000));
    assert.ok(range.some((o) => o.strike_price === 43500) && range.some((o) => o.strike_price === 44000));
    const january = await options('root=TXO&delivery_month=202701');
    assert.ok(january.length > 0 && january.every((o) => o.delivery_month === '202701' && o.root === 'TXO'));
    const all = await options('root=TXO&delivery_month=202612&option_right=C&strike_min=44000&strike_max=44000');
    assert.deepEqual(
      all.map((o) => o.code),
      ['TXO44000L6'],
    );
  });

  test('expiry_weekday filters by the weekday a series expires on', async () => {
    const fridays = await options('root=TXU&expiry_weekday=Fri');
    assert.ok(fridays.length > 0, 'a Friday weekly expires on Fridays');
    assert.ok(fridays.every((o) => o.expiry_weekday === 'Fri' && o.root === 'TXU'));
    assert.deepEqual(await options('root=TXU&expiry_weekday=Wed'), []);
    assert.deepEqual(await options('root=TXO&expiry_weekday=Fri'), [], 'monthly TXO expires on Wednesdays');
    assert.equal((await options('root=TXO&expiry_weekday=Wed')).length, (await options('root=TXO')).length);
  });

  test('unknown root is 404; a missing root is 422', async () => {
    assertEnvelope(await get('/api/v1/data/contracts/options?root=ZZO'), 404, /ZZO/);
    assertEnvelope(await get('/api/v1/data/contracts/options'), 422);
  });
});

describe('warrants', () => {
  const warrants = async (query: string) => {
    const { status, body } = await get(`/api/v1/data/contracts/warrants?${query}`);
    assert.equal(status, 200, JSON.stringify(body));
    return body as unknown as Json[];
  };

  test('by underlying, with every field of WarrantInfo', async () => {
    const list = await warrants('underlying_code=2330');
    assert.ok(list.length > 5);
    for (const w of list) {
      assertFields(w, WARRANT_INFO_FIELDS);
      assert.equal(w.underlying_code, '2330');
      assert.equal(w.security_type, 'WRT');
    }
  });

  test('code, call_put, strike and expiry filters', async () => {
    const list = await warrants('underlying_code=2330');
    const one = await warrants(`underlying_code=2330&code=${list[0]!.code}`);
    assert.deepEqual(one, [list[0]]);
    const puts = await warrants('underlying_code=2330&call_put=P');
    assert.ok(puts.length > 0 && puts.every((w) => w.call_put === 'P'));
    assert.equal(puts.length + (await warrants('underlying_code=2330&call_put=C')).length, list.length);
    const strikes = list.map((w) => w.strike_price as number).sort((a, b) => a - b);
    const median = strikes[Math.floor(strikes.length / 2)]!;
    const low = await warrants(`underlying_code=2330&strike_max=${median}`);
    assert.deepEqual(
      low.map((w) => w.code),
      list.filter((w) => (w.strike_price as number) <= median).map((w) => w.code),
    );
    const expiries = list.map((w) => w.expiry_date as string).sort();
    const from = expiries[1]!;
    const to = expiries.at(-2)!;
    const window = await warrants(`underlying_code=2330&expiry_from=${from}&expiry_to=${to}`);
    assert.deepEqual(
      window.map((w) => w.code),
      list.filter((w) => (w.expiry_date as string) >= from && (w.expiry_date as string) <= to).map((w) => w.code),
    );
    assert.ok(window.length < list.length);
  });

  test('unknown underlying is 404; a bad date is 422', async () => {
    assertEnvelope(await get('/api/v1/data/contracts/warrants?underlying_code=9999'), 404, /9999/);
    assertEnvelope(await get('/api/v1/data/contracts/warrants?underlying_code=2330&expiry_from=20270101'), 422);
  });

  test('underlyings without include_name have no name key; with it they have names and counts', async () => {
    const plain = (await get('/api/v1/data/contracts/warrants/underlyings')).body as unknown as Json[];
    assert.ok(plain.length >= 10);
    for (const u of plain) assert.deepEqual(Object.keys(u).sort(), ['underlying_code', 'warrant_count']);
    const named = (await get('/api/v1/data/contracts/warrants/underlyings?include_name=true'))
      .body as unknown as Json[];
    for (const u of named) assert.deepEqual(Object.keys(u).sort(), ['name', 'underlying_code', 'warrant_count']);
    const tsmc = named.find((u) => u.underlying_code === '2330')!;
    assert.equal(tsmc.name, '台積電');
    assert.equal(tsmc.warrant_count, (await warrants('underlying_code=2330')).length);
    assert.deepEqual(
      named.map(({ underlying_code, warrant_count }) => ({ underlying_code, warrant_count })),
      plain,
    );
  });
});

describe('combo contracts', () => {
  const leg = (code: string, security_type = 'FUT') => ({ security_type, exchange: 'TAIFEX', code });
  const contract = (code: string, security_type = 'FUT') => ({
    security_type,
    region: 'TW',
    exchange: 'TAIFEX',
    code,
    target_code: null,
  });

  test('a futures time spread', async () => {
    const { status, body } = await post('/api/v1/data/contracts/combo', { legs: [leg('TXFL6'), leg('TXFA7')] });
    assert.equal(status, 200);
    assert.deepEqual(body, {
      code: 'TXFL6/A7',
      legs: [contract('TXFL6'), contract('TXFA7')],
      region: 'TW',
      exchange: 'TAIFEX',
      combo_type: 'TimeSpread',
      managed: true,
    });
  });

  test('an option straddle needs combo_type; with it the combo has no code', async () => {
    const legs = [leg('TXO44000L6', 'OPT'), leg('TXO44000X6', 'OPT')];
    assertEnvelope(
      await post('/api/v1/data/contracts/combo', { legs }),
      400,
      'contracts: validation: combo shape is ambiguous ([Straddle, ConversionReversal]); pass combo_type explicitly',
    );
    const { status, body } = await post('/api/v1/data/contracts/combo', { legs, combo_type: 'Straddle' });
    assert.equal(status, 200);
    assert.deepEqual(body, {
      code: null,
      legs: [contract('TXO44000L6', 'OPT'), contract('TXO44000X6', 'OPT')],
      region: 'TW',
      exchange: 'TAIFEX',
      combo_type: 'Straddle',
      managed: true,
    });
    assertEnvelope(await post('/api/v1/data/contracts/combo', { legs, combo_type: 'PriceSpread' }), 400, /PriceSpread/);
  });

  test('reversed legs', async () => {
    assertEnvelope(
      await post('/api/v1/data/contracts/combo', { legs: [leg('TXFA7'), leg('TXFL6')] }),
      400,
      'contracts: validation: combo legs are reversed for TimeSpread; expected canonical exchange order',
    );
  });

  test('a leg with an action field is 400, not 422 (DESIGN decision)', async () => {
    const response = await post('/api/v1/data/contracts/combo', {
      legs: [{ ...leg('TXFL6'), action: 'Buy' }, leg('TXFA7')],
    });
    assertEnvelope(response, 400, /^contracts: validation: .*action/);
  });

  test('continuous-month legs, unknown legs, one leg, a non-TAIFEX exchange', async () => {
    assertEnvelope(await post('/api/v1/data/contracts/combo', { legs: [leg('TXFR1'), leg('TXFA7')] }), 400, /TXFR1/);
    assertEnvelope(await post('/api/v1/data/contracts/combo', { legs: [leg('TXFL6'), leg('TXFR2')] }), 400, /TXFR2/);
    assertEnvelope(await post('/api/v1/data/contracts/combo', { legs: [leg('TXFL6'), leg('TXFZ9')] }), 404, /TXFZ9/);
    assertEnvelope(await post('/api/v1/data/contracts/combo', { legs: [leg('TXFL6')] }), 400, /2 legs/);
    assertEnvelope(
      await post('/api/v1/data/contracts/combo', { legs: [leg('TXFL6'), { ...leg('TXFA7'), exchange: 'TSE' }] }),
      400,
      /TAIFEX/,
    );
    assertEnvelope(
      await post('/api/v1/data/contracts/combo', { legs: [leg('2330', 'STK'), leg('2317', 'STK')] }),
      400,
      /FUT/,
    );
  });

  test('unknown fields are 422 listing every violation with loc, msg and type', async () => {
    const response = await post('/api/v1/data/contracts/combo', {
      legs: [
        { ...leg('TXFL6'), qty: 1 },
        { ...leg('TXFA7'), security_type: 'BOND' },
      ],
      side: 'Buy',
    });
    assertEnvelope(response, 422);
    const details = response.body.details as Json[];
    for (const d of details) {
      assert.deepEqual(Object.keys(d).sort(), ['loc', 'msg', 'type']);
      assert.equal(typeof d.msg, 'string');
      assert.equal(typeof d.type, 'string');
    }
    const locs = details.map((d) => (d.loc as unknown[]).join('.')).sort();
    assert.deepEqual(locs, ['body.legs.0.qty', 'body.legs.1.security_type', 'body.side']);
    assert.match(response.body.message as string, /3 problems/);
  });

  test('GET combo/futures lists every near/far pair of the listed months', async () => {
    const { status, body } = await get('/api/v1/data/contracts/combo/futures?root=TXF');
    assert.equal(status, 200);
    const combos = body as unknown as Json[];
    const months = ['L6', 'A7', 'B7', 'C7', 'F7', 'I7'];
    assert.equal(combos.length, (months.length * (months.length - 1)) / 2);
    const expected = months.flatMap((near, i) => months.slice(i + 1).map((far) => `TXF${near}/${far}`));
    assert.deepEqual(combos.map((c) => c.code).sort(), expected.sort());
    for (const c of combos) {
      assert.equal(c.combo_type, 'TimeSpread');
      assert.equal(c.managed, true);
      assert.equal(c.exchange, 'TAIFEX');
      const [near, far] = c.legs as Json[];
      assert.ok(!/R[12]$/.test(near!.code as string) && !/R[12]$/.test(far!.code as string));
    }
    assertEnvelope(await get('/api/v1/data/contracts/combo/futures?root=ZZF'), 404, /ZZF/);
    assertEnvelope(await get('/api/v1/data/contracts/combo/futures'), 422);
  });
});

describe('tick-band rules', () => {
  test('STK for futures and TXO for options', async () => {
    const stk = await get('/api/v1/data/contracts/tick-bands/STK?security_type=FUT');
    assert.equal(stk.status, 200);
    assert.deepEqual(stk.body, {
      region: 'TW',
      security_type: 'FUT',
      rule: 'STK',
      basis: 'price',
      bands: [
        { min: 0, max: 10, tick: 0.01 },
        { min: 10, max: 50, tick: 0.05 },
        { min: 50, max: 100, tick: 0.1 },
        { min: 100, max: 500, tick: 0.5 },
        { min: 500, max: 1000, tick: 1 },
        { min: 1000, max: null, tick: 5 },
      ],
    });
    const txo = await get('/api/v1/data/contracts/tick-bands/TXO?security_type=OPT');
    assert.deepEqual(txo.body, {
      region: 'TW',
      security_type: 'OPT',
      rule: 'TXO',
      basis: 'premium',
      bands: [
        { min: 0, max: 10, tick: 0.1 },
        { min: 10, max: 50, tick: 0.5 },
        { min: 50, max: 500, tick: 1 },
        { min: 500, max: 1000, tick: 5 },
        { min: 1000, max: null, tick: 10 },
      ],
    });
  });

  test('every tick_rule of a listed product resolves', async () => {
    const futures = (await get('/api/v1/data/contracts/futures?underlying_code=0050')).body as unknown as Json[];
    const rule = futures[0]!.tick_rule as string;
    assert.equal(rule, 'ETF');
    assert.equal((await get(`/api/v1/data/contracts/tick-bands/${rule}?security_type=FUT`)).body.basis, 'price');
  });

  test('a fixed-tick product has no rule (400); unknown rule 404; missing security_type 422', async () => {
    assertEnvelope(await get('/api/v1/data/contracts/tick-bands/TXF?security_type=FUT'), 400, /fixed/);
    assertEnvelope(await get('/api/v1/data/contracts/tick-bands/XYZ?security_type=FUT'), 404, /XYZ/);
    assertEnvelope(await get('/api/v1/data/contracts/tick-bands/TXO?security_type=FUT'), 404, /TXO/);
    const missing = await get('/api/v1/data/contracts/tick-bands/STK');
    assertEnvelope(missing, 422);
    assert.deepEqual(missing.body.details, [
      { loc: ['query', 'security_type'], msg: 'field required', type: 'missing' },
    ]);
  });
});
