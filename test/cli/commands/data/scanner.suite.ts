import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InvalidArgumentError } from 'commander';
import { scannerRequest, scannerType } from '../../../../src/cli/commands/data/scanner.js';
import { kebabCase } from '../../../../src/cli/parsers.js';
import { SCANNER_TYPES } from '../../../../src/domain/market-data.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { dataDaemon } from './fixtures.js';

const invalidArgument = (message: RegExp) => (error: unknown) =>
  error instanceof InvalidArgumentError && message.test(error.message);

describe('scannerRequest', () => {
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
});

describe('sjgate data scanner against a fake daemon', () => {
  const daemon = dataDaemon();
  before(() => daemon.start());
  after(() => daemon.stop());

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [
      [['data', 'scanner', '--count', '201'], /--count.*expected an integer from 0 to 200/],
      [['data', 'scanner', '--scanner-type', 'gainers'], /expected one of change-percent-rank/],
    ]);
  });
});
