import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { kbarsRequest } from '../../../../src/cli/commands/data/kbars.js';
import { UsageError } from '../../../../src/cli/context.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { dataDaemon } from './fixtures.js';

const usage = (message: RegExp) => (error: unknown) => error instanceof UsageError && message.test(error.message);

describe('kbarsRequest', () => {
  test('kbars: start and end only when given, and in order', () => {
    assert.deepEqual(kbarsRequest({ code: '2330' }), { contract: { code: '2330' } });
    assert.deepEqual(kbarsRequest({ code: 'TXFG6', comboWith: 'TXFH6', start: '2026-07-01', end: '2026-07-03' }), {
      contract: { legs: [{ code: 'TXFG6' }, { code: 'TXFH6' }] },
      start: '2026-07-01',
      end: '2026-07-03',
    });
    assert.throws(() => kbarsRequest({ code: '2330', start: '2026-07-03', end: '2026-07-01' }), usage(/after --end/));
  });
});

describe('sjgate data kbars against a fake daemon', () => {
  const daemon = dataDaemon();
  before(() => daemon.start());
  after(() => daemon.stop());

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [
      [['data', 'kbars', '--code', '2330', '--start', '2026-07-03', '--end', '2026-07-01'], /after --end/],
    ]);
  });
});
