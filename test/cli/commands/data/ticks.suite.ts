import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ticksRequest } from '../../../../src/cli/commands/data/ticks.js';
import { EXIT, UsageError } from '../../../../src/cli/context.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { dataDaemon, TICKS } from './fixtures.js';

const usage = (message: RegExp) => (error: unknown) => error instanceof UsageError && message.test(error.message);

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

describe('sjgate data ticks against a fake daemon', () => {
  const daemon = dataDaemon();
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
    await assertUsageErrors(daemon, [
      [['data', 'ticks', '--code', '2330', '--date', '2026-02-30x'], /--date.*YYYY-MM-DD/],
      [['data', 'ticks', '--code', '2330', '--all', '--last', '5'], /'--all' cannot be used with option '--last/],
      [['data', 'ticks', '--code', '2330', '--time-start', '09:00:00'], /--time-start and --time-end go together/],
      [['data', 'ticks'], /required option '--code <CODE>'/],
    ]);
  });
});

describe('--json with ticks', () => {
  const daemon = dataDaemon();
  before(() => daemon.start());
  after(() => daemon.stop());

  test('--json FIELDS keeps only those columns of the answer', async () => {
    const run = await daemon.sjgate('data', 'ticks', '--code', '2330', '--json', 'datetime,close');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { datetime: TICKS.datetime, close: TICKS.close });
  });

  test('--json alone or an unknown column is exit 2 and lists the columns of the answer', async () => {
    const bare = await daemon.sjgate('data', 'ticks', '--code', '2330', '--json');
    assert.equal(bare.code, EXIT.usage, bare.stderr);
    assert.equal(bare.stdout, '');
    assert.match(
      bare.stderr,
      /^error: specify one or more comma-separated fields for --json:\n {2}datetime\n {2}close\n/,
    );
    const wrong = await daemon.sjgate('data', 'ticks', '--code', '2330', '--json', 'close,price');
    assert.equal(wrong.code, EXIT.usage, wrong.stderr);
    assert.equal(wrong.stdout, '');
    assert.match(wrong.stderr, /^error: unknown JSON field: "price"\navailable fields:\n {2}datetime\n/);
    assert.match(wrong.stderr, /\n {2}tick_type\n$/);
  });

  test('--json with --format human is a usage error; with --format json it is the same selection', async () => {
    const human = await daemon.sjgate('--format', 'human', 'data', 'ticks', '--code', '2330', '--json', 'close');
    assert.equal(human.code, EXIT.usage);
    assert.match(human.stderr, /--json prints JSON; leave out --format human/);
    assert.deepEqual(daemon.seen, []);
    const json = await daemon.sjgate('--format', 'json', 'data', 'ticks', '--code', '2330', '--json', 'close');
    assert.equal(json.code, EXIT.ok, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), { close: TICKS.close });
  });
});
