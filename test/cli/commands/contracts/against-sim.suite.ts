import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/errors.js';
import { simCli } from '../../../helpers/sim-cli.js';

const sim = simCli();

describe('sjgate contracts get against the simulator: codes in any case, near codes when not listed', () => {
  test('txfr1 is TXFR1, and 2330 and ix0001 are found whatever their case', async () => {
    const run = await sim.sjgate('contracts', 'get', 'txfr1', '--format', 'json');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.equal(JSON.parse(run.stdout).code, 'TXFR1');
    const index = await sim.sjgate('contracts', 'get', 'ix0001', '--json', 'code');
    assert.deepEqual(JSON.parse(index.stdout), { code: 'IX0001' });
  });

  test('a code not listed names the nearest listed ones', async () => {
    const alias = await sim.sjgate('contracts', 'get', 'txfr3');
    assert.equal(alias.code, EXIT.error);
    assert.match(alias.stderr, /^error: contract txfr3 not found; did you mean TXFR1, TXFR2\b/);
    // No listed code has a letter before three digits; 2330 is one edit away.
    const stock = await sim.sjgate('contracts', 'get', 'Z330');
    assert.equal(stock.code, EXIT.error);
    assert.match(stock.stderr, /^error: contract Z330 not found; did you mean .*\b2330\b/);
    const nothing = await sim.sjgate('contracts', 'get', 'QQQQQQQQ');
    assert.equal(nothing.stderr, 'error: contract QQQQQQQQ not found\n');
  });
});

describe('combos of continuous aliases against the simulator: the CLI asks for the months they stand for', () => {
  test('contracts combo --legs TXFR1,TXFR2 builds the spread of the two months', async () => {
    const near = JSON.parse((await sim.sjgate('contracts', 'get', 'TXFR1', '--format', 'json')).stdout).target_code;
    const far = JSON.parse((await sim.sjgate('contracts', 'get', 'TXFR2', '--format', 'json')).stdout).target_code;
    const run = await sim.sjgate('contracts', 'combo', '--legs', 'TXFR1,TXFR2', '--format', 'json');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.match(run.stdout, new RegExp(`"${near}"[\\s\\S]*"${far}"`));
  });

  test('data snapshots and data ticks take aliases as combo legs', async () => {
    const snapshots = await sim.sjgate('data', 'snapshots', '--codes', 'TXFR1+TXFR2', '--format', 'json');
    assert.equal(snapshots.code, EXIT.ok, snapshots.stderr);
    assert.equal(JSON.parse(snapshots.stdout).length, 1);
    const ticks = await sim.sjgate('data', 'ticks', '--code', 'TXFR1', '--combo-with', 'TXFR2', '--last', '2');
    assert.equal(ticks.code, EXIT.ok, ticks.stderr);
  });
});
