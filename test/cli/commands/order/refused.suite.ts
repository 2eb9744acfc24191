import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/errors.js';
import { simCli } from '../../../helpers/sim-cli.js';

describe('sjgate order against the simulator: a refusal exits 4 with the message in English', () => {
  const sim = simCli();
  const place = (...args: string[]) =>
    sim.sjgate('order', 'place', '--code', '2330', '--action', 'buy', '--quantity', '1', ...args);

  test('a price off the tick grid: exit 4, the Chinese message and its English in the table and on stderr', async () => {
    const run = await place('--price', '2001');
    assert.equal(run.code, EXIT.refused, run.stderr);
    assert.match(run.stdout, /Failed.*價格檔數錯誤 \(price not on the tick grid of its price band\)/);
    assert.match(run.stderr, /^error: the broker refused the order: 價格檔數錯誤 \(price not on the tick grid/);
    assert.doesNotMatch(run.stderr, /limit/);
  });

  test('a price off the grid and past the limit up names both problems', async () => {
    const run = await place('--price', '9999');
    assert.equal(run.code, EXIT.refused);
    assert.match(run.stderr, /價格檔數錯誤 \(price not on the tick grid/);
    assert.match(run.stderr, /the price 9999 is above the limit up: today's limits are \d+(\.\d+)? to \d+/);
  });

  test('an order breaking several rules: each on stderr with its English, all in the table and the JSON', async () => {
    const run = await place('--price', '9999', '--quantity', '500');
    assert.equal(run.code, EXIT.refused, run.stderr);
    const lines = run.stderr.trimEnd().split('\n');
    assert.match(lines[0]!, /^error: the broker refused the order: Common orders count lots .* got 500$/);
    assert.match(lines[1]!, /^ {2}also: 價格檔數錯誤 \(price not on the tick grid of its price band\)$/);
    assert.match(lines[2]!, /^ {2}also: 價格超過漲跌幅範圍 \(price outside today's limits\)$/);
    assert.match(lines[3]!, /^ {2}also: insufficient cash: the order needs NT\$[\d,]+, available NT\$[\d,]+$/);
    assert.match(lines[4]!, /^ {2}the price 9999 is above the limit up: today's limits are [\d.]+ to [\d.]+$/);
    assert.equal(lines.length, 5, run.stderr);
    assert.match(
      run.stdout,
      /Failed.*got 500; 價格檔數錯誤 \(price not on .*\); 價格超過漲跌幅範圍 .*; insufficient cash/,
    );
    const json = await place('--price', '9999', '--quantity', '500', '--format', 'json');
    assert.equal(json.code, EXIT.refused);
    const { status } = JSON.parse(json.stdout);
    assert.deepEqual(
      status.violations.map((found: { rule: string }) => found.rule),
      ['stockQuantity', 'priceOnTickGrid', 'priceWithinLimits', 'cashSufficient'],
    );
  });

  test('an odd-lot market order of too many shares: quantity and conditions both named', async () => {
    const run = await place('--order-lot', 'intraday-odd', '--price-type', 'mkt', '--tif', 'ioc', '--quantity', '1500');
    assert.equal(run.code, EXIT.refused, run.stderr);
    assert.match(run.stderr, /refused the order: odd-lot orders \(IntradayOdd\) count shares: .* got 1500\n/);
    assert.match(
      run.stderr,
      /\n {2}also: odd-lot orders \(IntradayOdd\) accept only price_type LMT with order_type ROD/,
    );
  });

  test('a price below the limit down on the grid: the limits message with the limits', async () => {
    const run = await place('--price', '10', '--format', 'json');
    assert.equal(run.code, EXIT.refused);
    assert.equal(JSON.parse(run.stdout).status.status, 'Failed');
    assert.match(
      run.stderr,
      /價格超過漲跌幅範圍 \(price outside today's limits\)\n {2}the price 10 is below the limit down/,
    );
  });

  test('an accepted order exits 0; cancelling it twice: the second cancel is refused with exit 4', async () => {
    const info = JSON.parse((await sim.sjgate('contracts', 'info', '2330', '--format', 'json')).stdout);
    const placed = await place('--price', String(info.limit_down), '--format', 'json');
    assert.equal(placed.code, EXIT.ok, placed.stderr);
    const id = JSON.parse(placed.stdout).order.id;
    const first = await sim.sjgate('order', 'cancel', '--id', id);
    assert.equal(first.code, EXIT.ok, first.stderr);
    assert.match(first.stdout, /Cancelled/);
    const second = await sim.sjgate('order', 'cancel', '--id', id);
    assert.equal(second.code, EXIT.refused);
    assert.match(second.stderr, /refused the cancel: 委託數量已完全刪除 \(the order is already fully cancelled\)/);
  });

  test('an update-price breaking two rules names both, then the limits; the order keeps its price', async () => {
    const info = JSON.parse((await sim.sjgate('contracts', 'info', '2330', '--format', 'json')).stdout);
    const placed = await place('--price', String(info.limit_down), '--format', 'json');
    const id = JSON.parse(placed.stdout).order.id;
    const run = await sim.sjgate('order', 'update-price', '--id', id, '--price', '9999');
    assert.equal(run.code, EXIT.refused, run.stderr);
    const lines = run.stderr.trimEnd().split('\n');
    assert.match(lines[0]!, /^error: the broker refused the price change: 價格檔數錯誤 \(price not on the tick grid/);
    assert.match(lines[1]!, /^ {2}also: 價格超過漲跌幅範圍 \(price outside today's limits\)$/);
    assert.match(lines[2]!, /^ {2}the price 9999 is above the limit up: today's limits are [\d.]+ to [\d.]+$/);
    assert.equal(lines.length, 3, run.stderr);
    const reduce = await sim.sjgate('order', 'update-qty', '--id', id, '--quantity', '2');
    assert.equal(reduce.code, EXIT.refused, reduce.stderr);
    assert.match(reduce.stderr, /refused the quantity change: .*from 1 to 1 \(the quantity still open\), got 2\n?$/);
  });

  test('a futures market order without --tif goes as IOC, which TAIFEX takes', async () => {
    const marketBuy = (...more: string[]) =>
      sim.sjgate(
        'order',
        'place',
        '--code',
        'TXFR1',
        '--action',
        'buy',
        '--price-type',
        'mkt',
        '--quantity',
        '1',
        ...more,
      );
    const run = await marketBuy('--format', 'json');
    assert.equal(run.code, EXIT.ok, run.stderr);
    const trade = JSON.parse(run.stdout);
    assert.equal(trade.order.order_type, 'IOC');
    assert.notEqual(trade.status.status, 'Failed');
    const rod = await marketBuy('--tif', 'rod');
    assert.equal(rod.code, EXIT.refused);
    assert.match(rod.stderr, /當日市價單不允許當日有效委託\(ROD\) \(a market order cannot be ROD: use IOC or FOK\)/);
  });
});
