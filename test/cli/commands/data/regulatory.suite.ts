import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/context.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { dataDaemon } from './fixtures.js';

describe('sjgate data regulatory against a fake daemon', () => {
  const daemon = dataDaemon();
  const { seen, sjgate } = daemon;
  before(() => daemon.start());
  after(() => daemon.stop());

  test('regulatory: GET punish by default, transposed, null as a dash', async () => {
    const run = await sjgate('data', 'regulatory');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(seen, [{ method: 'GET', url: '/api/v1/data/regulatory_punish', body: null }]);
    assert.match(run.stdout, /3450\s*│\s*2026-07-10\s*│\s*2026-07-23\s*│.*│\s*10\s*│\s*-\s*│\s*處置/);
    assert.match(run.stdout, /6789\s*│.*│\s*-\s*│\s*30\s*│\s*再次處置/);
  });

  test('--type notice asks for the notice list', async () => {
    seen.length = 0;
    await sjgate('data', 'regulatory', '--type', 'notice');
    assert.deepEqual(seen, [{ method: 'GET', url: '/api/v1/data/regulatory_notice', body: null }]);
  });

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [[['data', 'regulatory', '--type', 'warning'], /expected one of punish, notice/]]);
  });
});
