import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { formatProfitLossSummary } from '../../src/cli/commands/portfolio/profit-loss-summary.js';
import { accountRequest, portfolioRequests } from '../../src/cli/commands/portfolio/requests.js';
import { formatPortfolioRows } from '../../src/cli/commands/portfolio/rows.js';
import { formatTradingLimits } from '../../src/cli/commands/portfolio/trading-limits.js';
import { EXIT, UsageError } from '../../src/cli/context.js';
import { taipeiDate } from '../../src/cli/parsers.js';
import { envelope, fakeDaemon } from '../helpers/cli.js';
import {
  BALANCE,
  FUTURE_POSITION,
  FUTURE_PROFIT_DETAIL,
  MARGIN,
  SETTLEMENTS,
  STOCK_POSITION,
  STOCK_PROFIT_LOSS,
  STOCK_SUMMARY,
  TRADING_LIMITS,
} from '../helpers/portfolio-fixtures.js';

const usage = (message: RegExp) => (error: unknown) => error instanceof UsageError && message.test(error.message);

const STOCK_ACCOUNT = { broker_id: '9A95', account_id: '6880831' };
const FUTURES_ACCOUNT = { broker_id: 'F002000', account_id: '5234661' };

describe('request bodies', () => {
  test('the account: fixed type for balance and margin, --account-type only when given, ids of --account', () => {
    assert.deepEqual(accountRequest({}), {});
    assert.deepEqual(accountRequest({}, 'S'), { account_type: 'S' });
    assert.deepEqual(accountRequest({ account: FUTURES_ACCOUNT }, 'F'), { account_type: 'F', ...FUTURES_ACCOUNT });
    assert.deepEqual(accountRequest({ accountType: 'F' }), { account_type: 'F' });
    assert.deepEqual(accountRequest({ account: STOCK_ACCOUNT }), STOCK_ACCOUNT);
  });

  test('unit and detail_id are sent when given; detail_id is required where it applies', () => {
    assert.deepEqual(portfolioRequests.positions({}), {});
    assert.deepEqual(portfolioRequests.positions({ unit: 'Share', accountType: 'S' }), {
      account_type: 'S',
      unit: 'Share',
    });
    assert.deepEqual(portfolioRequests.positionDetail({ detailId: 0 }), { detail_id: 0 });
    assert.deepEqual(portfolioRequests.profitLossDetail({ detailId: 4, unit: 'Common', account: STOCK_ACCOUNT }), {
      ...STOCK_ACCOUNT,
      detail_id: 4,
      unit: 'Common',
    });
    assert.throws(() => portfolioRequests.positionDetail({}), usage(/--detail-id is required/));
  });

  test('the date range defaults to today in Taiwan and must be in order', () => {
    const today = '2026-11-23';
    assert.deepEqual(portfolioRequests.profitLoss({}, today), { begin_date: today, end_date: today });
    assert.deepEqual(portfolioRequests.profitLossSummary({ beginDate: '2026-11-02', accountType: 'F' }, today), {
      account_type: 'F',
      begin_date: '2026-11-02',
      end_date: today,
    });
    assert.deepEqual(portfolioRequests.profitLoss({ endDate: '2026-11-20', beginDate: '2026-11-02', unit: 'Share' }), {
      begin_date: '2026-11-02',
      end_date: '2026-11-20',
      unit: 'Share',
    });
    assert.throws(
      () => portfolioRequests.profitLoss({ beginDate: '2026-11-24' }, today),
      usage(/--begin-date 2026-11-24 is after --end-date 2026-11-23/),
    );
    assert.throws(
      () => portfolioRequests.profitLossSummary({ endDate: '2026-11-01' }, today),
      usage(/--begin-date 2026-11-23 is after --end-date 2026-11-01/),
    );
  });
});

describe('formatting', () => {
  const header = (text: string) => text.split('\n').find((line) => /\bcode\b/.test(line)) ?? '';

  test('stock rows get the stock columns, futures rows the futures columns', () => {
    const stock = formatPortfolioRows('positions', [STOCK_POSITION]);
    assert.match(
      header(stock),
      /id\s*│\s*code\s*│\s*direction\s*│\s*quantity\s*│\s*yd_quantity\s*│\s*price\s*│\s*last_price\s*│\s*pnl\s*│\s*cond/,
    );
    assert.match(stock, /0\s*│\s*2330\s*│\s*Buy\s*│\s*2\s*│\s*2\s*│\s*1012\.5\s*│\s*1025\s*│\s*24137\.25\s*│\s*Cash/);
    assert.doesNotMatch(stock, /margin_purchase_amount/);
    const futures = formatPortfolioRows('positions', [FUTURE_POSITION]);
    assert.match(
      header(futures),
      /id\s*│\s*code\s*│\s*direction\s*│\s*quantity\s*│\s*price\s*│\s*last_price\s*│\s*pnl\s*│?$/,
    );
    assert.match(futures, /3\s*│\s*TXFL6\s*│\s*Sell\s*│\s*1\s*│\s*22810\s*│\s*22795\s*│\s*3000/);
    const detail = formatPortfolioRows('profitLossDetail', [FUTURE_PROFIT_DETAIL]);
    assert.match(header(detail), /date\s*│\s*code\s*│\s*direction\s*│\s*quantity\s*│\s*entry_date\s*│\s*entry_price/);
    assert.equal(formatPortfolioRows('profitLoss', []), '(none)');
  });

  test('the summary prints its rows and then the total', () => {
    const text = formatProfitLossSummary(STOCK_SUMMARY);
    assert.match(
      text,
      /2317\s*│\s*3\s*│\s*210\s*│\s*212\.5\s*│\s*4711\.75\s*│\s*0\.74\s*│\s*630898\s*│\s*635680\s*│\s*Cash/,
    );
    const total = text.slice(text.indexOf('total'));
    assert.match(total, /entry_amount\s+630000/);
    assert.match(total, /pnl\s+4711\.75/);
  });

  test('trading limits: one row each for trading, margin and short', () => {
    const text = formatTradingLimits(TRADING_LIMITS);
    assert.match(text, /type\s*│\s*limit\s*│\s*used\s*│\s*available/);
    assert.match(text, /trading\s*│\s*10000000\s*│\s*2027886\s*│\s*7972114/);
    assert.match(text, /margin\s*│\s*5000000\s*│\s*0\s*│\s*5000000/);
    assert.match(text, /short\s*│\s*4000000\s*│\s*12000\s*│\s*3988000/);
  });
});

describe('sjgate portfolio against a fake daemon', () => {
  const daemon = fakeDaemon(({ url, body }) => {
    const request = (body ?? {}) as Record<string, unknown>;
    switch (url) {
      case '/api/v1/portfolio/account_balance':
        return [200, BALANCE];
      case '/api/v1/portfolio/margin':
        return [200, MARGIN];
      case '/api/v1/portfolio/position_unit':
        return [200, request.account_type === 'F' ? [FUTURE_POSITION] : [STOCK_POSITION]];
      case '/api/v1/portfolio/position_detail':
        return envelope('POSITION_NOT_FOUND', `no position with detail_id ${request.detail_id}`);
      case '/api/v1/portfolio/profit_loss':
        return [200, [STOCK_PROFIT_LOSS]];
      case '/api/v1/portfolio/profit_loss_detail':
        return [200, [FUTURE_PROFIT_DETAIL]];
      case '/api/v1/portfolio/profitloss_sum':
        return [200, STOCK_SUMMARY];
      case '/api/v1/portfolio/settlements':
        return [200, SETTLEMENTS];
      case '/api/v1/portfolio/trading_limits':
        return [200, TRADING_LIMITS];
      default:
        return envelope('ROUTE_NOT_FOUND', `no route ${url}`);
    }
  });
  const { seen, sjgate } = daemon;
  before(() => daemon.start());
  after(() => daemon.stop());

  const sent = () => seen.map((s) => [s.method, s.url, s.body]);

  test('balance and margin ask about their account type and print one value per line', async () => {
    const balance = await sjgate('portfolio', 'balance');
    assert.equal(balance.code, EXIT.ok, balance.stderr);
    assert.deepEqual(sent(), [['POST', '/api/v1/portfolio/account_balance', { account_type: 'S' }]]);
    assert.match(balance.stdout, /acc_balance\s+9487262\.5\n/);
    assert.match(balance.stdout, /date\s+2026-11-23 10:00:00\.000000\n/);
    const margin = await sjgate('portfolio', 'margin', '--account', 'F002000-5234661');
    assert.equal(margin.code, EXIT.ok, margin.stderr);
    assert.deepEqual(sent(), [['POST', '/api/v1/portfolio/margin', { account_type: 'F', ...FUTURES_ACCOUNT }]]);
    assert.match(margin.stdout, /risk_indicator\s+622\.1\n/);
    assert.match(margin.stdout, /available_margin\s+1681550/);
  });

  test('positions: stock columns by default, futures columns with --account-type F, --unit share', async () => {
    const stock = await sjgate('portfolio', 'positions', '--unit', 'share', '--account', '9A95-6880831');
    assert.equal(stock.code, EXIT.ok, stock.stderr);
    assert.deepEqual(sent(), [['POST', '/api/v1/portfolio/position_unit', { ...STOCK_ACCOUNT, unit: 'Share' }]]);
    assert.match(
      stock.stdout,
      /0\s*│\s*2330\s*│\s*Buy\s*│\s*2\s*│\s*2\s*│\s*1012\.5\s*│\s*1025\s*│\s*24137\.25\s*│\s*Cash/,
    );
    const futures = await sjgate('portfolio', 'positions', '--account-type', 'f');
    assert.equal(futures.code, EXIT.ok, futures.stderr);
    assert.deepEqual(sent(), [['POST', '/api/v1/portfolio/position_unit', { account_type: 'F' }]]);
    assert.match(futures.stdout, /3\s*│\s*TXFL6\s*│\s*Sell\s*│\s*1\s*│\s*22810\s*│\s*22795\s*│\s*3000/);
    assert.doesNotMatch(futures.stdout, /yd_quantity/);
  });

  test('--format json prints the answer as the API sent it', async () => {
    const run = await sjgate('--format', 'json', 'portfolio', 'profit-loss-summary', '--begin-date', '2026-11-02');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), STOCK_SUMMARY);
    const body = seen[0]?.body as Record<string, string>;
    assert.equal(body.begin_date, '2026-11-02');
    assert.match(body.end_date ?? '', /^\d{4}-\d{2}-\d{2}$/);
    const limits = await sjgate('--format', 'json', 'portfolio', 'trading-limits');
    assert.deepEqual(JSON.parse(limits.stdout), TRADING_LIMITS);
    assert.deepEqual(sent(), [['POST', '/api/v1/portfolio/trading_limits', { account_type: 'S' }]]);
  });

  test('profit-loss sends today in Taiwan for dates not given; details send detail_id and unit', async () => {
    const before = taipeiDate();
    const run = await sjgate('portfolio', 'profit-loss');
    const afterwards = taipeiDate();
    assert.equal(run.code, EXIT.ok, run.stderr);
    const body = seen[0]?.body as Record<string, string>;
    assert.ok([before, afterwards].includes(body.begin_date ?? ''), JSON.stringify(body));
    assert.deepEqual(body, { begin_date: body.begin_date, end_date: body.begin_date });
    assert.match(
      run.stdout,
      /0\s*│\s*2026-11-23\s*│\s*2317\s*│\s*3\s*│\s*212\.5\s*│\s*4711\.75\s*│\s*0\.74\s*│\s*Cash\s*│\s*WA372/,
    );

    const dated = await sjgate('portfolio', 'profit-loss', '--begin-date', '2026-11-02', '--end-date', '2026-11-20');
    assert.equal(dated.code, EXIT.ok, dated.stderr);
    assert.deepEqual(seen[0]?.body, { begin_date: '2026-11-02', end_date: '2026-11-20' });

    const detail = await sjgate('portfolio', 'profit-loss-detail', '--detail-id', '0', '--account-type', 'F');
    assert.equal(detail.code, EXIT.ok, detail.stderr);
    assert.deepEqual(sent(), [['POST', '/api/v1/portfolio/profit_loss_detail', { account_type: 'F', detail_id: 0 }]]);
    assert.match(
      detail.stdout,
      /2026-11-23\s*│\s*MXFL6\s*│\s*Buy\s*│\s*2\s*│\s*2026-11-20\s*│\s*22780\s*│\s*22815\s*│\s*1400/,
    );
  });

  test('settlements: one row per day, T first', async () => {
    const run = await sjgate('portfolio', 'settlements');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(sent(), [['POST', '/api/v1/portfolio/settlements', { account_type: 'S' }]]);
    assert.match(run.stdout, /T\s*│\s*date\s*│\s*amount/);
    assert.match(run.stdout, /1\s*│\s*2026-11-24\s*│\s*-2027885\.5/);
    assert.match(run.stdout, /2\s*│\s*2026-11-25\s*│\s*636782/);
  });

  test('an API error is exit 1 with its message, and the envelope with --format json', async () => {
    const run = await sjgate('portfolio', 'position-detail', '--detail-id', '7');
    assert.equal(run.code, EXIT.error);
    assert.deepEqual(sent(), [['POST', '/api/v1/portfolio/position_detail', { detail_id: 7 }]]);
    assert.match(run.stderr, /error: no position with detail_id 7/);
    const json = await sjgate('--format', 'json', 'portfolio', 'position-detail', '--detail-id', '7');
    assert.deepEqual(JSON.parse(json.stdout), {
      code: 404,
      error: 'POSITION_NOT_FOUND',
      message: 'no position with detail_id 7',
      details: null,
    });
  });

  test('bad flags are exit 2 and send nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['portfolio', 'positions', '--unit', 'lots'], /--unit.*expected one of common, share/],
      [['portfolio', 'positions', '--account', '12345'], /BROKER-ACCOUNT/],
      [['portfolio', 'positions', '--account', '9A95-'], /BROKER-ACCOUNT/],
      [['portfolio', 'positions', '--account-type', 'H'], /expected one of S, F/],
      [['portfolio', 'balance', '--account-type', 'F'], /unknown option '--account-type'/],
      [['portfolio', 'margin', '--unit', 'share'], /unknown option '--unit'/],
      [['portfolio', 'position-detail'], /required option '--detail-id <ID>'/],
      [['portfolio', 'position-detail', '--detail-id', 'x'], /--detail-id.*expected an integer from 0/],
      [['portfolio', 'profit-loss-detail', '--detail-id', '-1'], /expected an integer from 0/],
      [['portfolio', 'profit-loss', '--begin-date', '2026/11/02'], /--begin-date.*YYYY-MM-DD/],
      [['portfolio', 'profit-loss', '--begin-date', '2026-11-20', '--end-date', '2026-11-02'], /is after --end-date/],
      [['portfolio', 'profit-loss-summary', '--end-date', '2000-01-01'], /is after --end-date 2000-01-01/],
      [['portfolio', 'holdings'], /unknown command 'holdings'/],
    ];
    for (const [args, message] of cases) {
      const run = await sjgate(...args);
      assert.equal(run.code, EXIT.usage, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message, args.join(' '));
      assert.deepEqual(seen, [], args.join(' '));
    }
  });
});
