import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dailyQuotesRequest } from '../../../../src/cli/commands/data/daily-quotes.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { dataDaemon } from './fixtures.js';

describe('dailyQuotesRequest', () => {
  test('daily quotes leave warrants out unless told', () => {
    assert.deepEqual(dailyQuotesRequest({}), { exclude: true });
    assert.deepEqual(dailyQuotesRequest({ date: '2026-07-15', excludeWarrant: false }), {
      date: '2026-07-15',
      exclude: false,
    });
  });
});

describe('sjgate data daily-quotes against a fake daemon', () => {
  const daemon = dataDaemon();
  before(() => daemon.start());
  after(() => daemon.stop());

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [[['data', 'daily-quotes', '--exclude-warrant=maybe'], /expected true or false/]]);
  });
});
