import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidArgumentError } from 'commander';
import { formatUsage } from '../../src/cli/commands/auth/usage.js';
import { detailLines } from '../../src/cli/context.js';
import { formatBar, formatCell, formatJson, formatRecord, formatTable, rowsOfColumns } from '../../src/cli/output.js';
import { boolean, dateOrToday, taipeiDate, timeOfDay } from '../../src/cli/parsers.js';

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[`);

describe('formatCell', () => {
  test('shows null and missing values as a dash', () => {
    assert.equal(formatCell(null), '-');
    assert.equal(formatCell(undefined), '-');
  });

  test('shows contracts by their code and lists joined', () => {
    const legs = [
      { security_type: 'FUT', exchange: 'TAIFEX', code: 'TXFG6' },
      { security_type: 'FUT', exchange: 'TAIFEX', code: 'TXFH6' },
    ];
    assert.equal(formatCell(legs), 'TXFG6, TXFH6');
  });

  test('shows other objects as JSON and scalars as text', () => {
    assert.equal(formatCell({ a: 1 }), '{"a":1}');
    assert.equal(formatCell(false), 'false');
    assert.equal(formatCell(41000.5), '41000.5');
  });
});

describe('formatTable', () => {
  const rows = [
    { code: '2330', name: '台積電', target_code: null, extra: 1 },
    { code: 'TXFR1', name: '臺股期貨', target_code: 'TXFG6', extra: 2 },
  ];

  test('shows the chosen columns in order, null as a dash, and no colour when asked for none', () => {
    const text = formatTable(rows, ['code', 'name', 'target_code'], false);
    assert.doesNotMatch(text, ANSI);
    const lines = text.split('\n');
    const header = lines.find((line) => line.includes('code'));
    assert.ok(header);
    assert.ok(header.indexOf('code') < header.indexOf('name'));
    assert.ok(header.indexOf('name') < header.indexOf('target_code'));
    assert.doesNotMatch(text, /extra/);
    assert.match(lines.find((line) => line.includes('2330')) ?? '', /台積電\s*│\s*-\s*│/);
    assert.match(text, /TXFG6/);
  });

  test('defaults to every key in order of first appearance', () => {
    const text = formatTable([{ a: 1 }, { b: 2, a: 3 }], undefined, false);
    const header = text.split('\n').find((line) => line.includes('a')) ?? '';
    assert.ok(header.indexOf('a') < header.indexOf('b'));
  });

  test('says so when there is nothing to show', () => {
    assert.equal(formatTable([], ['code'], false), '(none)');
  });

  test('colours only the header when colour is on', () => {
    const text = formatTable(rows, ['code'], true);
    const colored = text.split('\n').filter((line) => ANSI.test(line));
    assert.equal(colored.length, 1);
    assert.match(colored[0] ?? '', /code/);
  });
});

describe('formatRecord', () => {
  test('aligns keys and flattens nested objects to dotted keys', () => {
    const text = formatRecord(
      { running: true, pid: null, stream_status: { active_connections: 0, status: 'healthy' } },
      { color: false },
    );
    assert.deepEqual(text.split('\n'), [
      'running                           true',
      'pid                               -',
      'stream_status.active_connections  0',
      'stream_status.status              healthy',
    ]);
  });

  test('indents when asked', () => {
    assert.equal(
      formatRecord({ url: 'http://127.0.0.1:8080' }, { indent: 2, color: false }),
      '  url  http://127.0.0.1:8080',
    );
  });

  test('draws a two-column table', () => {
    const text = formatRecord({ code: '2330', name: '台積電' }, { table: true, color: false });
    assert.match(text, /│ code\s*│ 2330\s*│/);
    assert.match(text, /│ name\s*│ 台積電\s*│/);
    assert.doesNotMatch(text, ANSI);
  });
});

describe('formatJson', () => {
  test('prints the value exactly, pretty', () => {
    const value = { code: '2330', target_code: null, list: [1, 2] };
    const text = formatJson(value);
    assert.deepEqual(JSON.parse(text), value);
    assert.equal(text, JSON.stringify(value, null, 2));
  });
});

describe('formatBar and usage', () => {
  test('a 20-cell bar filled by the fraction, clamped to 0..1', () => {
    assert.equal(formatBar(0), `[${'.'.repeat(20)}]`);
    assert.equal(formatBar(0.5), `[${'#'.repeat(10)}${'.'.repeat(10)}]`);
    assert.equal(formatBar(2), `[${'#'.repeat(20)}]`);
    assert.equal(formatBar(Number.NaN), `[${'.'.repeat(20)}]`);
  });

  test('usage reads like the official CLI', () => {
    const gb = 1024 ** 3;
    const text = formatUsage({ connections: 1, bytes: gb / 4, limit_bytes: 2 * gb, remaining_bytes: 1.75 * gb });
    const lines = text.split('\n');
    assert.match(lines[0] ?? '', /API Usage/);
    assert.equal(lines[1], 'Connections: 1');
    assert.equal(lines[2], `Data Used: 256.00 MB / 2.00 GB [${'#'.repeat(3)}${'.'.repeat(17)}] 12.50%`);
    assert.equal(lines[3], 'Remaining: 1.75 GB');
  });

  test('usage with no limit shows 0%', () => {
    assert.match(formatUsage({ connections: 0, bytes: 0, limit_bytes: 0, remaining_bytes: 0 }), / 0\.00%/);
  });
});

describe('detailLines', () => {
  test('lists each validation problem with where it is', () => {
    const details = [
      { loc: ['query', 'security_type'], msg: 'must be one of STK, IND, FUT, OPT, WRT', type: 'enum' },
      { loc: ['body', 'legs', 1, 'code'], msg: 'required', type: 'missing' },
    ];
    assert.deepEqual(detailLines(details), [
      'query.security_type: must be one of STK, IND, FUT, OPT, WRT',
      'body.legs.1.code: required',
    ]);
  });

  test('shows a text detail as it is and nothing for null', () => {
    assert.deepEqual(detailLines('try again later'), ['try again later']);
    assert.deepEqual(detailLines(null), []);
  });
});

describe('rowsOfColumns', () => {
  test('turns a column-oriented answer into one row per entry, keys in column order', () => {
    const rows = rowsOfColumns({ datetime: ['09:00', '09:01'], close: [600, 601.5], tick_type: [1, 2] });
    assert.deepEqual(rows, [
      { datetime: '09:00', close: 600, tick_type: 1 },
      { datetime: '09:01', close: 601.5, tick_type: 2 },
    ]);
    assert.deepEqual(Object.keys(rows[0] ?? {}), ['datetime', 'close', 'tick_type']);
  });

  test('empty columns give no rows; a short column leaves its cells empty; non-arrays are left out', () => {
    assert.deepEqual(rowsOfColumns({ datetime: [], close: [] }), []);
    assert.deepEqual(rowsOfColumns({}), []);
    assert.deepEqual(rowsOfColumns({ code: ['a', 'b'], close: [1], note: 'x' }), [
      { code: 'a', close: 1 },
      { code: 'b', close: undefined },
    ]);
  });

  test('null entries stay null and show as a dash in a table', () => {
    const rows = rowsOfColumns({ code: ['2330'], unit_limit: [null] });
    assert.deepEqual(rows, [{ code: '2330', unit_limit: null }]);
    assert.match(formatTable(rows, undefined, false), /2330\s*│\s*-\s*│/);
  });
});

describe('date, time and boolean flag values', () => {
  const invalid = (run: () => unknown, message: RegExp) =>
    assert.throws(run, (error: unknown) => error instanceof InvalidArgumentError && message.test(error.message));

  test('taipeiDate is the date at UTC+8', () => {
    assert.equal(taipeiDate(new Date('2026-07-15T15:59:59Z')), '2026-07-15');
    assert.equal(taipeiDate(new Date('2026-07-15T16:00:00Z')), '2026-07-16');
    assert.equal(taipeiDate(new Date('2026-12-31T16:30:00Z')), '2027-01-01');
  });

  test('dateOrToday takes YYYY-MM-DD or today, nothing else', () => {
    assert.equal(dateOrToday('2026-07-15'), '2026-07-15');
    const before = taipeiDate();
    const today = dateOrToday('Today');
    assert.ok(today === before || today === taipeiDate(), today);
    for (const bad of ['2026-7-15', '20260715', '2026-13-01', 'yesterday', '']) {
      invalid(() => dateOrToday(bad), /YYYY-MM-DD/);
    }
  });

  test('timeOfDay takes HH:MM:SS (or HH:MM) within the day', () => {
    assert.equal(timeOfDay('09:00:05'), '09:00:05');
    assert.equal(timeOfDay('13:30'), '13:30:00');
    for (const bad of ['9:00', '24:00:00', '12:60:00', '12:00:60', '09:00:00.5', 'noon']) {
      invalid(() => timeOfDay(bad), /HH:MM:SS/);
    }
  });

  test('boolean takes true/false, yes/no, 1/0', () => {
    assert.equal(boolean('TRUE'), true);
    assert.equal(boolean('no'), false);
    assert.equal(boolean('0'), false);
    invalid(() => boolean('maybe'), /true or false/);
  });
});
