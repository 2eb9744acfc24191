import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/errors.js';
import { simCli } from '../../../helpers/sim-cli.js';

describe('sjgate contracts get against the simulator: codes in any case, near codes when not listed', () => {
  const sim = simCli();

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
    const stock = await sim.sjgate('contracts', 'get', '2331');
    assert.match(stock.stderr, /did you mean .*2330/);
    const nothing = await sim.sjgate('contracts', 'get', 'QQQQQQQQ');
    assert.equal(nothing.stderr, 'error: contract QQQQQQQQ not found\n');
  });
});
