// Every endpoint of the API answers in production mode (over the bridge and the scripted SinoPac) with the shapes of
// the simulator: the same status, and recursively the same keys with the same JSON types. Both gateways run in this
// process and get the same requests, after the same orders (marketable: a buy of 2 lots of 2330 and a sale of 1; a
// buy, a sale and a buy of TXFR1), so that positions, their details and realized profit and loss have rows in both.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import {
  API_PATHS,
  AUTH_PATHS,
  CONTRACT_PATHS,
  MARKET_DATA_PATHS,
  monitorSessionPath,
  ORDER_PATHS,
  PORTFOLIO_PATHS,
  RESERVE_PATHS,
  SERVER_PATHS,
  STREAM_PATHS,
} from '../../src/contract/paths.js';
import { type RunningGateway, startGateway } from '../../src/server/main.js';
import { type ProductionGateway, productionSkip, startProduction } from '../helpers/production.js';

const skip = productionSkip();

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Answer {
  status: number;
  body: Json;
}

/** The JSON type of a value: null, boolean, number, string, array or object. */
const typeOf = (value: Json): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** sjgate's own fields that only the simulator fills (the live broker names one broken rule, in msg). */
const SIMULATOR_ONLY = ['$.status.violations'];

/**
 * The path of the first difference of shape between two answers, or null: the same JSON types, the same keys of
 * objects, and for arrays the shape of their first elements when both have one. At the paths in `maps` an object's
 * keys are data (a combo's deals by leg code): there, only the shape of the first value is compared.
 */
export function shapeDifference(sim: Json, prod: Json, path = '$', maps: readonly string[] = []): string | null {
  const [simType, prodType] = [typeOf(sim), typeOf(prod)];
  if (simType !== prodType) return `${path}: ${simType} in simulation, ${prodType} in production`;
  if (Array.isArray(sim) && Array.isArray(prod)) {
    if (sim.length === 0 || prod.length === 0) return null;
    return shapeDifference(sim[0] as Json, prod[0] as Json, `${path}[0]`, maps);
  }
  if (simType !== 'object') return null;
  const [a, b] = [sim as Record<string, Json>, prod as Record<string, Json>];
  if (maps.includes(path)) {
    const [first, second] = [Object.values(a)[0], Object.values(b)[0]];
    return first === undefined || second === undefined ? null : shapeDifference(first, second, `${path}.*`, maps);
  }
  const keys = Object.keys(a).filter((key) => key in b || !SIMULATOR_ONLY.includes(`${path}.${key}`));
  const missing = keys.filter((key) => !(key in b));
  if (missing.length > 0) return `${path}: production lacks ${missing.join(', ')}`;
  const extra = Object.keys(b).filter((key) => !(key in a));
  if (extra.length > 0) return `${path}: production adds ${extra.join(', ')}`;
  for (const key of keys) {
    const difference = shapeDifference(a[key] as Json, b[key] as Json, `${path}.${key}`, maps);
    if (difference) return difference;
  }
  return null;
}

async function send(base: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('json');
  return { status: response.status, body: json ? (JSON.parse(text) as Json) : text };
}

/** Recent weekdays, Taipei time: the last five before today. */
function recentWeekdays(): string[] {
  const days: string[] = [];
  const day = new Date(Date.now() + 8 * 3600_000);
  while (days.length < 5) {
    day.setUTCDate(day.getUTCDate() - 1);
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6) days.push(day.toISOString().slice(0, 10));
  }
  return days;
}

const relative = (absolute: string) => absolute.replace(/^\/api\/v1/, '');

describe('production answers with the simulator’s shapes', { skip, timeout: 90_000 }, () => {
  let sim: RunningGateway;
  let simHome: string;
  let production: ProductionGateway;
  let simBase: string;
  const both = async (method: string, path: string, body?: unknown): Promise<[Answer, Answer]> =>
    Promise.all([send(simBase, method, path, body), send(production.base, method, path, body)]);

  before(async () => {
    simHome = mkdtempSync(join(tmpdir(), 'sjgate-shapes-'));
    [sim, production] = await Promise.all([
      startGateway(loadConfig({ SJ_HOME_PATH: simHome, SJ_HTTP_ADDR: '127.0.0.1:0' }), () => undefined),
      startProduction(),
    ]);
    simBase = `http://127.0.0.1:${sim.port}/api/v1`;
  });
  after(async () => {
    await Promise.all([sim?.close(), production?.close()]);
    rmSync(simHome, { recursive: true, force: true });
  });

  test('every endpoint', async () => {
    const [begin, end] = [recentWeekdays()[4], recentWeekdays()[0]];
    const checked = new Set<string>();
    const differences: string[] = [];
    const compare = async (method: string, path: string, body?: unknown, maps: readonly string[] = []) => {
      const [simAnswer, prodAnswer] = await both(method, path, body);
      checked.add(path.split('?')[0] as string);
      const where = `${method} ${path}`;
      if (simAnswer.status !== prodAnswer.status) {
        differences.push(
          `${where}: ${simAnswer.status} in simulation, ${prodAnswer.status} in production ` +
            JSON.stringify(prodAnswer.status === 200 ? simAnswer.body : prodAnswer.body).slice(0, 300),
        );
        return [simAnswer, prodAnswer] as const;
      }
      const difference = shapeDifference(simAnswer.body, prodAnswer.body, '$', maps);
      if (difference) differences.push(`${where}: ${difference}`);
      return [simAnswer, prodAnswer] as const;
    };
    const r = relative;

    // Orders first, in both, so that the portfolio has rows: limit prices at the day's limits are marketable.
    const limitsOf = async (code: string) =>
      Promise.all(
        [simBase, production.base].map(
          async (base) =>
            (await send(base, 'GET', `${r(CONTRACT_PATHS.contract).replace(':code', code)}/info`)).body as {
              limit_up: number;
              limit_down: number;
            },
        ),
      );
    const [simStock, prodStock] = await limitsOf('2330');
    const stockOrder = (action: string, price: number, quantity: number) => ({
      contract: { code: '2330' },
      stock_order: { action, price, quantity, price_type: 'LMT', order_type: 'ROD', order_lot: 'Common' },
    });
    const place = async (simBody: unknown, prodBody: unknown) => {
      const answers = await Promise.all([
        send(simBase, 'POST', r(ORDER_PATHS.placeOrder), simBody),
        send(production.base, 'POST', r(ORDER_PATHS.placeOrder), prodBody),
      ]);
      for (const answer of answers) assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const difference = shapeDifference(answers[0].body, answers[1].body);
      if (difference) differences.push(`POST place_order: ${difference}`);
      checked.add(r(ORDER_PATHS.placeOrder));
      return answers.map((a) => (a.body as { order: { id: string } }).order.id);
    };
    await place(stockOrder('Buy', simStock!.limit_up, 2), stockOrder('Buy', prodStock!.limit_up, 2));
    await place(stockOrder('Sell', simStock!.limit_down, 1), stockOrder('Sell', prodStock!.limit_down, 1));
    const [simFut, prodFut] = await limitsOf('TXFR1');
    const futuresOrder = (action: string, price: number) => ({
      contract: { code: 'TXFR1' },
      futures_order: { action, price, quantity: 1, price_type: 'LMT', order_type: 'ROD', octype: 'Auto' },
    });
    await place(futuresOrder('Buy', simFut!.limit_up), futuresOrder('Buy', prodFut!.limit_up));
    await place(futuresOrder('Sell', simFut!.limit_down), futuresOrder('Sell', prodFut!.limit_down));
    await place(futuresOrder('Buy', simFut!.limit_up), futuresOrder('Buy', prodFut!.limit_up));
    const [simResting, prodResting] = await place(
      stockOrder('Buy', simStock!.limit_down, 1),
      stockOrder('Buy', prodStock!.limit_down, 1),
    );

    // /info and /health differ by nature (the simulator's clock and seed; production's upstream, certificate and
    // token): compared on the fields both have.
    for (const path of [r(SERVER_PATHS.info), r(SERVER_PATHS.health)]) {
      const [simAnswer, prodAnswer] = await both('GET', path);
      checked.add(path);
      assert.equal(simAnswer.status, prodAnswer.status, path);
      const [a, b] = [simAnswer.body as Record<string, Json>, prodAnswer.body as Record<string, Json>];
      for (const key of Object.keys(a).filter((k) => k in b && a[k] !== null && b[k] !== null)) {
        const difference = shapeDifference(a[key] as Json, b[key] as Json, `$.${key}`);
        if (difference) differences.push(`GET ${path}: ${difference}`);
      }
    }

    await compare('GET', r(AUTH_PATHS.accounts));
    await compare('POST', r(AUTH_PATHS.defaultAccount), { account_type: 'S' });
    await compare('GET', r(AUTH_PATHS.usage));
    await compare('POST', r(AUTH_PATHS.subscribeTrade), { account_type: 'S' });
    await compare('POST', r(AUTH_PATHS.unsubscribeTrade), { account_type: 'S' });
    // Each asks for its own accounts' person (the simulator's is derived from the API key).
    const expiries = await Promise.all(
      [simBase, production.base].map(async (base) => {
        const [account] = (await send(base, 'GET', r(AUTH_PATHS.accounts))).body as { person_id: string }[];
        return send(base, 'GET', `${r(AUTH_PATHS.caExpireTime)}?person_id=${account!.person_id}`);
      }),
    );
    checked.add(r(AUTH_PATHS.caExpireTime));
    assert.deepEqual(
      expiries.map((answer) => answer.status),
      [200, 200],
    );
    const expiryDifference = shapeDifference(expiries[0]!.body, expiries[1]!.body);
    if (expiryDifference) differences.push(`GET ca_expiretime: ${expiryDifference}`);

    await compare('GET', `${r(CONTRACT_PATHS.contracts)}?security_type=STK&page=1&page_size=2`);
    await compare('POST', r(CONTRACT_PATHS.contracts), { security_type: 'FUT', page: 1, page_size: 2 });
    for (const code of ['2330', 'TXFR1', 'IX0001']) {
      await compare('GET', r(CONTRACT_PATHS.contract).replace(':code', code));
      await compare('GET', r(CONTRACT_PATHS.contractInfo).replace(':code', code));
    }
    // An option of each: the simulator lists other months and strikes than the scripted SinoPac.
    const [simOption, prodOption] = await Promise.all(
      [simBase, production.base].map(
        async (base) =>
          ((await send(base, 'GET', `${r(CONTRACT_PATHS.options)}?root=TXO`)).body as { code: string }[])[0]!.code,
      ),
    );
    for (const pattern of [CONTRACT_PATHS.contract, CONTRACT_PATHS.contractInfo]) {
      const answers = await Promise.all([
        send(simBase, 'GET', r(pattern).replace(':code', simOption!)),
        send(production.base, 'GET', r(pattern).replace(':code', prodOption!)),
      ]);
      assert.equal(answers[0].status, answers[1].status, pattern);
      const difference = shapeDifference(answers[0].body, answers[1].body);
      if (difference) differences.push(`GET ${pattern} (an option): ${difference}`);
    }
    await compare('GET', r(CONTRACT_PATHS.futuresRoots));
    await compare('GET', `${r(CONTRACT_PATHS.futures)}?root=TXF`);
    await compare('GET', r(CONTRACT_PATHS.optionsRoots));
    await compare('GET', `${r(CONTRACT_PATHS.options)}?root=TXO&option_right=C`);
    await compare('GET', `${r(CONTRACT_PATHS.warrantUnderlyings)}?include_name=true`);
    await compare('GET', `${r(CONTRACT_PATHS.warrants)}?underlying_code=2330`);
    const legs = [
      { security_type: 'FUT', exchange: 'TAIFEX', code: 'TXFL6' },
      { security_type: 'FUT', exchange: 'TAIFEX', code: 'TXFA7' },
    ];
    await compare('POST', r(CONTRACT_PATHS.combo), { legs });
    await compare('GET', `${r(CONTRACT_PATHS.comboFutures)}?root=TXF`);
    await compare('GET', `${r(CONTRACT_PATHS.tickBands).replace(':rule', 'TXO')}?security_type=OPT`);

    for (const contract of [{ code: '2330' }, { code: 'TXFR1' }]) {
      await compare('POST', r(MARKET_DATA_PATHS.ticks), { contract, date: end, query_type: 'LastCount', last_cnt: 3 });
      await compare('POST', r(MARKET_DATA_PATHS.kbars), { contract, start: begin, end });
    }
    await compare('POST', r(MARKET_DATA_PATHS.snapshots), {
      contracts: [{ code: '2330' }, { code: 'TXFR1' }, { code: 'IX0001' }],
    });
    await compare('POST', r(MARKET_DATA_PATHS.scanner), { scanner_type: 'VolumeRank', date: end, count: 5 });
    const stocks = { contracts: [{ code: '2330' }, { code: '2884' }] };
    await compare('POST', r(MARKET_DATA_PATHS.creditEnquire), stocks);
    await compare('POST', r(MARKET_DATA_PATHS.shortStockSources), stocks);
    await compare('GET', r(MARKET_DATA_PATHS.regulatoryPunish));
    await compare('GET', r(MARKET_DATA_PATHS.regulatoryNotice));
    await compare('POST', r(MARKET_DATA_PATHS.dailyQuotes), { date: end });
    await compare('POST', r(MARKET_DATA_PATHS.indexComponents), { contract: { code: 'IX0001' } });

    const stock = { account_type: 'S' };
    const futures = { account_type: 'F' };
    // Up to three days ahead: after 15:00 the futures' trading day is the next one.
    const range = { begin_date: begin, end_date: new Date(Date.now() + 80 * 3600_000).toISOString().slice(0, 10) };
    await compare('POST', r(PORTFOLIO_PATHS.accountBalance), stock);
    await compare('POST', r(PORTFOLIO_PATHS.margin), futures);
    await compare('POST', r(PORTFOLIO_PATHS.settlements), stock);
    await compare('POST', r(PORTFOLIO_PATHS.tradingLimits), stock);
    for (const account of [stock, futures]) {
      await compare('POST', r(PORTFOLIO_PATHS.positionUnit), { ...account, unit: 'Common' });
      await compare('POST', r(PORTFOLIO_PATHS.positionUnit), { ...account, unit: 'Share' });
      const [simPositions, prodPositions] = await both('POST', r(PORTFOLIO_PATHS.positionUnit), account);
      assert.ok((simPositions.body as Json[]).length > 0 && (prodPositions.body as Json[]).length > 0, 'positions');
      const detailIds = [simPositions, prodPositions].map((a) => (a.body as { id: number }[])[0]?.id);
      const details = await Promise.all([
        send(simBase, 'POST', r(PORTFOLIO_PATHS.positionDetail), { ...account, detail_id: detailIds[0] }),
        send(production.base, 'POST', r(PORTFOLIO_PATHS.positionDetail), { ...account, detail_id: detailIds[1] }),
      ]);
      checked.add(r(PORTFOLIO_PATHS.positionDetail));
      if (details[0].status !== details[1].status)
        differences.push(`position_detail ${account.account_type}: ${details[0].status} / ${details[1].status}`);
      else {
        const difference = shapeDifference(details[0].body, details[1].body);
        if (difference) differences.push(`position_detail ${account.account_type}: ${difference}`);
      }
      const [simLoss, prodLoss] = await compare('POST', r(PORTFOLIO_PATHS.profitLoss), { ...account, ...range });
      await compare('POST', r(PORTFOLIO_PATHS.profitLossSum), { ...account, ...range });
      const lossIds = [simLoss, prodLoss].map((a) => (a.body as { id: number }[])[0]?.id);
      if (lossIds[0] !== undefined && lossIds[1] !== undefined) {
        const lossDetails = await Promise.all([
          send(simBase, 'POST', r(PORTFOLIO_PATHS.profitLossDetail), { ...account, detail_id: lossIds[0] }),
          send(production.base, 'POST', r(PORTFOLIO_PATHS.profitLossDetail), { ...account, detail_id: lossIds[1] }),
        ]);
        checked.add(r(PORTFOLIO_PATHS.profitLossDetail));
        const difference =
          lossDetails[0].status === lossDetails[1].status
            ? shapeDifference(lossDetails[0].body, lossDetails[1].body)
            : `${lossDetails[0].status} / ${lossDetails[1].status} ${JSON.stringify(lossDetails[1].body)}`;
        if (difference) differences.push(`profit_loss_detail ${account.account_type}: ${difference}`);
      } else differences.push(`profit_loss ${account.account_type}: no rows ${JSON.stringify([simLoss, prodLoss])}`);
      // An id naming nothing is a 404 in both.
      await compare('POST', r(PORTFOLIO_PATHS.positionDetail), { ...account, detail_id: 99 });
      await compare('POST', r(PORTFOLIO_PATHS.profitLossDetail), { ...account, detail_id: 99 });
    }

    // Pre-collection: the same requests in both; accepted or refused, the answers have the same shape.
    const reserve = { ...stock, contract: { code: '2330' }, share: 1000 };
    await compare('POST', r(RESERVE_PATHS.reserveStock), reserve);
    await compare('POST', r(RESERVE_PATHS.reserveEarmarking), { ...reserve, price: 500 });
    await compare('POST', r(RESERVE_PATHS.stockReserveSummary), stock);
    await compare('POST', r(RESERVE_PATHS.stockReserveDetail), stock);
    await compare('POST', r(RESERVE_PATHS.earmarkingDetail), stock);

    await compare('POST', r(STREAM_PATHS.subscribe), { contract: { code: '2330' }, quote_type: 'Tick' });
    await compare('GET', r(STREAM_PATHS.subscriptions));
    await compare('GET', r(STREAM_PATHS.status));
    await compare('GET', r(STREAM_PATHS.receivers));
    await compare('POST', r(STREAM_PATHS.unsubscribe), { contract: { code: '2330' }, quote_type: 'Tick' });
    await compare('POST', r(STREAM_PATHS.subscribeKbars), { stocks: [{ code: '2330' }] });
    await compare('POST', r(STREAM_PATHS.unsubscribeKbars), { stocks: [{ code: '2330' }] });
    await compare('POST', r(STREAM_PATHS.subscribeCalculatedIndex), { index: { code: 'IX0001' } });
    await compare('POST', r(STREAM_PATHS.unsubscribeCalculatedIndex), { index: { code: 'IX0001' } });
    const taiex = { index: { code: 'IX0001' } };
    const projection = { kind: 'ranking', target: 'component', metric: 'contribution', order: 'abs_desc', limit: 10 };
    await compare('POST', r(STREAM_PATHS.subscribeIndexContribution), { ...taiex, ranking: 'top10' });
    await compare('POST', r(STREAM_PATHS.unsubscribeIndexContribution), { ...taiex, ranking: 'top10' });
    await compare('POST', r(STREAM_PATHS.subscribeIndustryContribution), taiex);
    await compare('POST', r(STREAM_PATHS.unsubscribeIndustryContribution), taiex);
    await compare('POST', r(STREAM_PATHS.subscribeIndexComponents), { ...taiex, projection });
    await compare('POST', r(STREAM_PATHS.unsubscribeIndexComponents), { ...taiex, projection });
    const scanner = { scanner: { kind: 'preset_rule', id: 'volume_burst' }, region: 'TW', security_type: 'STK' };
    await compare('POST', r(STREAM_PATHS.subscribeScanner), { ...scanner, exchange: 'TSE' });
    await compare('POST', r(STREAM_PATHS.unsubscribeScanner), { ...scanner, exchange: 'TSE' });

    // The order listings and changes, on a resting buy at the limit down placed in both.
    await compare('POST', r(ORDER_PATHS.trades), {});
    await compare('POST', r(ORDER_PATHS.updateStatus), stock);
    const onResting = async (path: string, extra: object) => {
      const answers = await Promise.all([
        send(simBase, 'POST', path, { trade_id: simResting, ...extra }),
        send(production.base, 'POST', path, { trade_id: prodResting, ...extra }),
      ]);
      checked.add(path);
      const difference =
        answers[0].status === answers[1].status
          ? shapeDifference(answers[0].body, answers[1].body)
          : `${answers[0].status} / ${answers[1].status} ${JSON.stringify(answers[1].body)}`;
      if (difference) differences.push(`${path}: ${difference}`);
    };
    await onResting(r(ORDER_PATHS.updatePrice), { price: simStock!.limit_down });
    await onResting(r(ORDER_PATHS.updateQty), { quantity: 1 });
    await onResting(r(ORDER_PATHS.cancelOrder), {});

    // A combo: the simulator fills it, the scripted SinoPac leaves it resting; deals are keyed by leg code.
    const comboBody = {
      combo_contract: { legs: legs.map((leg, i) => ({ ...leg, action: i === 0 ? 'Sell' : 'Buy' })) },
      order: { action: 'Buy', price: 50, quantity: 1, price_type: 'LMT', order_type: 'ROD' },
    };
    const [simCombo, prodCombo] = await compare('POST', r(ORDER_PATHS.placeComboOrder), comboBody, ['$.status.deals']);
    await compare('POST', r(ORDER_PATHS.comboTrades), {}, ['$[0].status.deals']);
    const comboIds = [simCombo, prodCombo].map((a) => (a.body as { order: { id: string } }).order?.id);
    const cancelled = await Promise.all([
      send(simBase, 'POST', r(ORDER_PATHS.cancelComboOrder), { trade_id: comboIds[0] }),
      send(production.base, 'POST', r(ORDER_PATHS.cancelComboOrder), { trade_id: comboIds[1] }),
    ]);
    checked.add(r(ORDER_PATHS.cancelComboOrder));
    // The simulator filled its combo (cancelling it is refused) where SinoPac's rests: only production's is checked.
    assert.equal(cancelled[1].status, 200, JSON.stringify(cancelled[1].body));

    await compare('GET', r(API_PATHS.apps.apps));
    await compare('GET', r(API_PATHS.agent.harness));

    // The monitor: the same code over either venue, measuring what each answered.
    const monitor = API_PATHS.monitor;
    await compare('GET', `${r(monitor.metrics)}?source=gateway&origin=all&window=5m`);
    await compare('GET', `${r(monitor.requests)}?source=gateway&origin=all`);
    await compare('GET', r(monitor.subscriptions), undefined, ['$.by_type']);
    await compare('GET', `${r(monitor.streams)}?history=true`);
    await compare('GET', r(monitor.settings));
    await compare('PATCH', r(monitor.settings), { capture: { requests: false } });
    const [simSession, prodSession] = await compare('POST', r(monitor.streamSessions));
    for (const method of ['PUT', 'DELETE']) {
      const answers = await Promise.all([
        send(simBase, method, r(monitorSessionPath((simSession.body as { id: string }).id)), undefined),
        send(production.base, method, r(monitorSessionPath((prodSession.body as { id: string }).id)), undefined),
      ]);
      for (const answer of answers) assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const difference = shapeDifference(answers[0].body, answers[1].body);
      if (difference) differences.push(`${method} ${monitor.streamSession}: ${difference}`);
    }
    checked.add(r(monitor.streamSession));

    assert.deepEqual(differences, []);

    // Not compared: the SSE streams (event streams, not JSON answers; production.test.ts checks their payloads),
    // the upload and deletion of apps (multipart, and nothing of the venue: the same code in both modes), the
    // watchlists (the gateway's, over the journal: the same code in both modes; the venue only lists the contracts).
    const uncompared = [
      ...Object.values(API_PATHS.sse),
      API_PATHS.apps.app,
      ...Object.values(API_PATHS.appPages),
      ...Object.values(API_PATHS.watchlists),
    ].map(r);
    const every = Object.entries(API_PATHS)
      .filter(([area]) => area !== 'sse' && area !== 'appPages')
      .flatMap(([, paths]) => Object.values(paths).map(r));
    const unchecked = every.filter(
      (path) => !uncompared.includes(path) && ![...checked].some((c) => c === path || matches(path, c)),
    );
    assert.deepEqual(unchecked, [], 'every endpoint is compared');
  });
});

/** Whether a concrete path fills in a route pattern with parameters (`/data/contracts/:code`). */
function matches(pattern: string, path: string): boolean {
  const regex = new RegExp(`^${pattern.replace(/:[a-z_]+/g, '[^/]+')}$`);
  return regex.test(path);
}
