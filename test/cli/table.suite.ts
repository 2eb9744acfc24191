import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatRecord, formatTable } from '../../src/cli/output.js';
import { boxTable, displayWidth, padDisplay } from '../../src/cli/table.js';

describe('boxTable', () => {
  test('Chinese characters count two cells, colour codes none; columns line up', () => {
    assert.equal(displayWidth('台積電'), 6);
    assert.equal(displayWidth('2330 台積電 ok'), 14);
    assert.equal(displayWidth('\u001b[1mcode\u001b[22m'), 4);
    assert.equal(displayWidth('𠀋'), 2);
    assert.equal(padDisplay('台積電', 8), '台積電  ');
    assert.equal(
      formatTable([
        { code: '2330', name: '台積電' },
        { code: '2317', name: 'Hon Hai' },
      ]),
      [
        '┌──────┬─────────┐',
        '│ code │ name    │',
        '├──────┼─────────┤',
        '│ 2330 │ 台積電  │',
        '│ 2317 │ Hon Hai │',
        '└──────┴─────────┘',
      ].join('\n'),
    );
  });

  test('a record as a two-column table has no head; a cell of two lines makes its row two lines high', () => {
    assert.equal(
      formatRecord({ a: 1, long_key: null }, { table: true }),
      ['┌──────────┬───┐', '│ a        │ 1 │', '│ long_key │ - │', '└──────────┴───┘'].join('\n'),
    );
    assert.equal(
      boxTable(['k'], [['one\ntwo'], ['x']]),
      ['┌─────┐', '│ k   │', '├─────┤', '│ one │', '│ two │', '│ x   │', '└─────┘'].join('\n'),
    );
  });

  test('10,000 rows draw with one line each (the speed is in bench/cli-table.bench.ts)', () => {
    const rows = Array.from({ length: 10_000 }, (_, index) => ({ n: index, close: 22_000.5 }));
    const lines = formatTable(rows).split('\n');
    assert.equal(lines.length, 10_000 + 4);
    assert.equal(lines[3], '│ 0    │ 22000.5 │');
    assert.equal(lines.at(-2), '│ 9999 │ 22000.5 │');
  });
});
