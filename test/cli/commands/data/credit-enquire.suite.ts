import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { contractsRequest } from '../../../../src/cli/commands/data/stock-codes.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { dataDaemon } from './fixtures.js';

describe('contractsRequest', () => {
  test('credit-enquire and short-stock-sources: a contract per code', () => {
    assert.deepEqual(contractsRequest({ codes: ['2330', '6488'], securityType: 'STK' }), {
      contracts: [
        { security_type: 'STK', code: '2330' },
        { security_type: 'STK', code: '6488' },
      ],
    });
  });
});

describe('sjgate data credit-enquire against a fake daemon', () => {
  const daemon = dataDaemon();
  before(() => daemon.start());
  after(() => daemon.stop());

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [
      [['data', 'credit-enquire', '--codes', '2330', '--exchange', 'TAIFEX'], /expected one of TSE, OTC/],
    ]);
  });
});
