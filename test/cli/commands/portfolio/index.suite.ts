import { after, before, describe, test } from 'node:test';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { portfolioDaemon } from './fixtures.js';

describe('sjgate portfolio against a fake daemon', () => {
  const daemon = portfolioDaemon();
  before(() => daemon.start());
  after(() => daemon.stop());

  test('an unknown command is exit 2 and sends nothing', async () => {
    await assertUsageErrors(daemon, [[['portfolio', 'holdings'], /unknown command 'holdings'/]]);
  });
});
