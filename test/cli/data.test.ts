import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InvalidArgumentError } from 'commander';
import { dailyQuotesRequest } from '../../src/cli/commands/data/daily-quotes.js';
import { codeOrCombo, codesWithCombos, instrumentRef } from '../../src/cli/commands/data/flags.js';
import { kbarsRequest } from '../../src/cli/commands/data/kbars.js';
import { regulatoryPath } from '../../src/cli/commands/data/regulatory.js';
import { scannerRequest, scannerType } from '../../src/cli/commands/data/scanner.js';
import { snapshotsRequest } from '../../src/cli/commands/data/snapshots.js';
import { contractsRequest } from '../../src/cli/commands/data/stock-codes.js';
import { ticksRequest } from '../../src/cli/commands/data/ticks.js';
import { EXIT, UsageError } from '../../src/cli/context.js';
import { kebabCase } from '../../src/cli/parsers.js';
import { SCANNER_TYPES } from '../../src/domain/market-data.js';
import { envelope, fakeDaemon } from '../helpers/cli.js';

const invalidArgument = (message: RegExp) => (error: unknown) =>
  error instanceof InvalidArgumentError && message.test(error.message);
const usage = (message: RegExp) => (error: unknown) => error instanceof UsageError && message.test(error.message);

describe('contracts and combos', () => {
  test('a contract carries only the identity the user gave', () => {
    assert.deepEqual(instrumentRef('2330'), { code: '2330' });
    assert.deepEqual(instrumentRef('2330', { securityType: 'STK', exchange: 'OTC' }), {
      security_type: 'STK',
      exchange: 'OTC',
      code: '2330',
    });
  });

  test('a combo has the two legs; the security type and exchange given apply to both', () => {
    assert.deepEqual(instrumentRef('TXFG6', {}, 'TXFH6'), { legs: [{ code: 'TXFG6' }, { code: 'TXFH6' }] });
    assert.deepEqual(instrumentRef('TXFG6', { securityType: 'FUT' }, 'TXFH6'), {
      legs: [
        { security_type: 'FUT', code: 'TXFG6' },
        { security_type: 'FUT', code: 'TXFH6' },
      ],
    });
  });

  test('`a+b` is a combo of two legs; a plain code stays a code', () => {
    assert.equal(codeOrCombo(' 2330 '), '2330');
    assert.deepEqual(codeOrCombo('TXFG6 + TXFH6'), ['TXFG6', 'TXFH6']);
    assert.deepEqual(codesWithCombos('2330,TXFG6+TXFH6, 2317'), ['2330', ['TXFG6', 'TXFH6'], '2317']);
  });

  test('a combo needs exactly two non-empty legs', () => {
    assert.throws(() => codeOrCombo('TXFG6+'), invalidArgument(/empty code.*CODE1\+CODE2/));
    assert.throws(() => codeOrCombo('+TXFH6'), invalidArgument(/empty code/));
    assert.throws(() => codeOrCombo('A+B+C'), invalidArgument(/two legs/));
    assert.throws(() => codesWithCombos(' , '), invalidArgument(/codes separated by commas/));
  });
});

describe('ticksRequest', () => {
  test('defaults to the last 10 ticks of the latest trading day, without security type or exchange', () => {
    assert.deepEqual(ticksRequest({ code: '2330' }), {
      contract: { code: '2330' },
      query_type: 'LastCount',
      last_cnt: 10,
    });
  });

  test('--last, --all and a time range choose the query type', () => {
    assert.deepEqual(ticksRequest({ code: '2330', date: '2026-07-15', last: 3 }), {
      contract: { code: '2330' },
      date: '2026-07-15',
      query_type: 'LastCount',
      last_cnt: 3,
    });
    assert.deepEqual(ticksRequest({ code: '2330', all: true }), { contract: { code: '2330' }, query_type: 'AllDay' });
    assert.deepEqual(ticksRequest({ code: 'TXFR1', timeStart: '09:00:00', timeEnd: '09:05:00' }), {
      contract: { code: 'TXFR1' },
      query_type: 'RangeTime',
      time_start: '09:00:00',
      time_end: '09:05:00',
    });
  });

  test('a combo with --combo-with; --security-type and --exchange are sent when given', () => {
    assert.deepEqual(ticksRequest({ code: 'TXFG6', comboWith: 'TXFH6', exchange: 'TAIFEX' }).contract, {
      legs: [
        { exchange: 'TAIFEX', code: 'TXFG6' },
        { exchange: 'TAIFEX', code: 'TXFH6' },
      ],
    });
    assert.deepEqual(ticksRequest({ code: '2330', securityType: 'STK', exchange: 'TSE' }).contract, {
      security_type: 'STK',
      exchange: 'TSE',
      code: '2330',
    });
  });

  test('one way of choosing ticks at a time, and a range needs both ends', () => {
    assert.throws(() => ticksRequest({ code: '2330', all: true, last: 5 }), usage(/one of --last, --all/));
    assert.throws(
      () => ticksRequest({ code: '2330', last: 5, timeStart: '09:00:00', timeEnd: '10:00:00' }),
      usage(/one of --last, --all/),
    );
    assert.throws(() => ticksRequest({ code: '2330', timeStart: '09:00:00' }), usage(/go together/));
    assert.throws(() => ticksRequest({ code: '2330', timeEnd: '09:00:00' }), usage(/go together/));
  });
});

describe('the other request bodies', () => {
  test('kbars: start and end only when given, and in order', () => {
    assert.deepEqual(kbarsRequest({ code: '2330' }), { contract: { code: '2330' } });
    assert.deepEqual(kbarsRequest({ code: 'TXFG6', comboWith: 'TXFH6', start: '2026-07-01', end: '2026-07-03' }), {
      contract: { legs: [{ code: 'TXFG6' }, { code: 'TXFH6' }] },
      start: '2026-07-01',
      end: '2026-07-03',
    });
    assert.throws(() => kbarsRequest({ code: '2330', start: '2026-07-03', end: '2026-07-01' }), usage(/after --end/));
  });

  test('snapshots: codes and combos mixed, in the order given', () => {
    assert.deepEqual(snapshotsRequest({ codes: ['2330', ['TXFG6', 'TXFH6']], securityType: undefined }), {
      contracts: [{ code: '2330' }, { legs: [{ code: 'TXFG6' }, { code: 'TXFH6' }] }],
    });
    assert.deepEqual(snapshotsRequest({ codes: ['2330', '2317'], exchange: 'TSE' }), {
      contracts: [
        { exchange: 'TSE', code: '2330' },
        { exchange: 'TSE', code: '2317' },
      ],
    });
  });

  test('credit-enquire and short-stock-sources: a contract per code', () => {
    assert.deepEqual(contractsRequest({ codes: ['2330', '6488'], securityType: 'STK' }), {
      contracts: [
        { security_type: 'STK', code: '2330' },
        { security_type: 'STK', code: '6488' },
      ],
    });
  });

  test('scanner: change-percent-rank, smallest first, 50 by default; --ascending is largest first', () => {
    assert.deepEqual(scannerRequest({}), { scanner_type: 'ChangePercentRank', ascending: false, count: 50 });
    assert.deepEqual(scannerRequest({ scannerType: 'VolumeRank', date: '2026-07-15', ascending: true, count: 0 }), {
      scanner_type: 'VolumeRank',
      date: '2026-07-15',
      ascending: true,
      count: 0,
    });
  });

  test('scanner types are written in kebab case and sent in Pascal case', () => {
    assert.deepEqual(SCANNER_TYPES.map(kebabCase), [
      'change-percent-rank',
      'change-price-rank',
      'day-range-rank',
      'volume-rank',
      'amount-rank',
      'tick-count-rank',
    ]);
    for (const type of SCANNER_TYPES) assert.equal(scannerType(kebabCase(type)), type);
    assert.equal(scannerType('ChangePercentRank'), 'ChangePercentRank');
    assert.equal(scannerType('TICK_COUNT_RANK'), 'TickCountRank');
    assert.throws(() => scannerType('top-gainers'), invalidArgument(/expected one of change-percent-rank, /));
  });

  test('daily quotes leave warrants out unless told; regulatory reads punish by default', () => {
    assert.deepEqual(dailyQuotesRequest({}), { exclude: true });
    assert.deepEqual(dailyQuotesRequest({ date: '2026-07-15', excludeWarrant: false }), {
      date: '2026-07-15',
      exclude: false,
    });
    assert.equal(regulatoryPath(), '/api/v1/data/regulatory_punish');
    assert.equal(regulatoryPath('notice'), '/api/v1/data/regulatory_notice');
  });
});

// ---- the program, run in this process against a fake daemon ----

const TICKS = {
  datetime: ['2026-07-15T13:24:59.123456', '2026-07-15T13:25:00.000000'],
  close: [1085.5, 1090],
  volume: [3, 1250],
  bid_price: [1085, 1085],
  bid_volume: [12, 40],
  ask_price: [1085.5, 1090],
  ask_volume: [7, 22],
  tick_type: [1, 2],
};

const SNAPSHOT = {
  datetime: '2026-07-15T13:30:00.000000',
  code: '2330',
  exchange: 'TSE',
  open: 1080,
  high: 1095,
  low: 1075,
  close: 1090,
  tick_type: 'Buy',
  change_price: 10,
  change_rate: 0.93,
  change_type: 'Up',
  average_price: 1086.2,
  volume: 1250,
  total_volume: 31877,
  amount: 1362500000,
  total_amount: 34625318000,
  yesterday_volume: 29001,
  buy_price: 1085,
  buy_volume: 40,
  sell_price: 1090,
  sell_volume: 22,
  volume_ratio: 1.1,
};

const PUNISH = {
  code: ['3450', '6789'],
  start_date: ['2026-07-10', '2026-07-14'],
  end_date: ['2026-07-23', '2026-07-25'],
  updated_at: ['2026-07-09T18:00:00', '2026-07-13T18:00:00'],
  interval: ['5分鐘', '20分鐘'],
  unit_limit: [10, null],
  total_limit: [null, 30],
  description: ['處置', '再次處置'],
  announced_date: ['2026-07-09', '2026-07-13'],
};

describe('sjgate data against a fake daemon', () => {
  /** Answers like the daemon would; a 400 envelope for ticks of code BAD. */
  const daemon = fakeDaemon(({ url, body }) => {
    const code = (body as { contract?: { code?: string } } | null)?.contract?.code;
    if (url === '/api/v1/data/ticks' && code === 'BAD') return envelope('INVALID_REQUEST', 'Contract not found: BAD');
    if (url === '/api/v1/data/ticks') return [200, TICKS];
    if (url === '/api/v1/data/snapshots') return [200, [SNAPSHOT]];
    if (url === '/api/v1/data/regulatory_punish') return [200, PUNISH];
    return envelope('ROUTE_NOT_FOUND', `no route ${url}`);
  });
  const { seen, sjgate } = daemon;
  before(() => daemon.start());
  after(() => daemon.stop());

  test('ticks: sends the combo and the range, prints one row per tick', async () => {
    const run = await sjgate(
      'data',
      'ticks',
      '--code',
      'TXFG6',
      '--combo-with',
      'TXFH6',
      '--date',
      '2026-07-15',
      '--time-start',
      '13:24',
      '--time-end',
      '13:25:00',
    );
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(seen, [
      {
        method: 'POST',
        url: '/api/v1/data/ticks',
        body: {
          contract: { legs: [{ code: 'TXFG6' }, { code: 'TXFH6' }] },
          date: '2026-07-15',
          query_type: 'RangeTime',
          time_start: '13:24:00',
          time_end: '13:25:00',
        },
      },
    ]);
    const lines = run.stdout.split('\n');
    const header = lines.find((line) => line.includes('datetime')) ?? '';
    for (const [left, right] of [
      ['datetime', 'close'],
      ['close', 'bid_price'],
      ['ask_volume', 'tick_type'],
    ] as const) {
      assert.ok(header.indexOf(left) < header.indexOf(right), header);
    }
    assert.match(run.stdout, /2026-07-15T13:24:59\.123456\s*│\s*1085\.5\s*│\s*3\s*│\s*1085\s*│\s*12\s*│/);
    assert.match(run.stdout, /2026-07-15T13:25:00\.000000\s*│\s*1090\s*│\s*1250\s*│/);
  });

  test('ticks with --format json prints the columnar answer unchanged; defaults send LastCount 10', async () => {
    const run = await sjgate('--format', 'json', 'data', 'ticks', '--code', '2330');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), TICKS);
    assert.deepEqual(seen[0]?.body, { contract: { code: '2330' }, query_type: 'LastCount', last_cnt: 10 });
  });

  test('snapshots: codes and a combo in one request, a table with the chosen columns', async () => {
    const run = await sjgate('data', 'snapshots', '--codes', '2330,TXFG6+TXFH6');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(seen[0]?.body, {
      contracts: [{ code: '2330' }, { legs: [{ code: 'TXFG6' }, { code: 'TXFH6' }] }],
    });
    assert.match(run.stdout, /code\s*│\s*datetime\s*│\s*open/);
    assert.match(run.stdout, /2330\s*│\s*2026-07-15T13:30:00\.000000\s*│\s*1080\s*│/);
    assert.doesNotMatch(run.stdout, /yesterday_volume/);
  });

  test('regulatory: GET punish by default, transposed, null as a dash', async () => {
    const run = await sjgate('data', 'regulatory');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(seen, [{ method: 'GET', url: '/api/v1/data/regulatory_punish', body: null }]);
    assert.match(run.stdout, /3450\s*│\s*2026-07-10\s*│\s*2026-07-23\s*│.*│\s*10\s*│\s*-\s*│\s*處置/);
    assert.match(run.stdout, /6789\s*│.*│\s*-\s*│\s*30\s*│\s*再次處置/);
  });

  test('an API error is exit 1 with its message, and the envelope with --format json', async () => {
    const run = await sjgate('data', 'ticks', '--code', 'BAD');
    assert.equal(run.code, EXIT.error);
    assert.match(run.stderr, /error: Contract not found: BAD/);
    const json = await sjgate('--format', 'json', 'data', 'ticks', '--code', 'BAD');
    assert.deepEqual(JSON.parse(json.stdout), {
      code: 400,
      error: 'INVALID_REQUEST',
      message: 'Contract not found: BAD',
      details: null,
    });
  });

  test('bad flags are exit 2 and send nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['data', 'ticks', '--code', '2330', '--date', '2026-02-30x'], /--date.*YYYY-MM-DD/],
      [['data', 'ticks', '--code', '2330', '--all', '--last', '5'], /'--all' cannot be used with option '--last/],
      [['data', 'ticks', '--code', '2330', '--time-start', '09:00:00'], /--time-start and --time-end go together/],
      [['data', 'ticks'], /required option '--code <CODE>'/],
      [['data', 'kbars', '--code', '2330', '--start', '2026-07-03', '--end', '2026-07-01'], /after --end/],
      [['data', 'scanner', '--count', '201'], /--count.*expected an integer from 0 to 200/],
      [['data', 'scanner', '--scanner-type', 'gainers'], /expected one of change-percent-rank/],
      [['data', 'snapshots', '--codes', 'A+B+C'], /two legs/],
      [['data', 'regulatory', '--type', 'warning'], /expected one of punish, notice/],
      [['data', 'daily-quotes', '--exclude-warrant=maybe'], /expected true or false/],
      [['data', 'credit-enquire', '--codes', '2330', '--exchange', 'TAIFEX'], /expected one of TSE, OTC/],
    ];
    for (const [args, message] of cases) {
      const run = await sjgate(...args);
      assert.equal(run.code, EXIT.usage, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message, args.join(' '));
      assert.deepEqual(seen, [], args.join(' '));
    }
  });
});
