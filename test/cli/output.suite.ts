import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatBar, formatCell, formatJson, formatRecord, formatTable, rowsOfColumns } from '../../src/cli/output.js';

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

describe('formatBar', () => {
  test('a 20-cell bar filled by the fraction, clamped to 0..1', () => {
    assert.equal(formatBar(0), `[${'.'.repeat(20)}]`);
    assert.equal(formatBar(0.5), `[${'#'.repeat(10)}${'.'.repeat(10)}]`);
    assert.equal(formatBar(2), `[${'#'.repeat(20)}]`);
    assert.equal(formatBar(Number.NaN), `[${'.'.repeat(20)}]`);
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
