import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { snapshotsRequest } from '../../../../src/cli/commands/data/snapshots.js';
import { EXIT } from '../../../../src/cli/context.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { dataDaemon, SNAPSHOT } from './fixtures.js';

describe('snapshotsRequest', () => {
  test('snapshots: codes and combos mixed, in the order given', () => {
    assert.deepEqual(snapshotsRequest({ codes: ['2330', ['TXFG6', 'TXFH6']], securityType: undefined }), {
      contracts: [{ code: '2330' }, { legs: [{ code: 'TXFG6' }, { code: 'TXFH6' }] }],
    });
    assert.deepEqual(snapshotsRequest({ codes: ['2330', '2317'], exchange: 'TSE' }), {
      contracts: [
        { exchange: 'TSE', code: '2330' },
        { exchange: 'TSE', code: '2317' },
      ],
    });
  });
});

describe('sjgate data snapshots against a fake daemon', () => {
  const daemon = dataDaemon();
  const { seen, sjgate } = daemon;
  before(() => daemon.start());
  after(() => daemon.stop());

  test('snapshots: codes and a combo in one request, a table with the chosen columns', async () => {
    const run = await sjgate('data', 'snapshots', '--codes', '2330,TXFG6+TXFH6');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(seen[0]?.body, {
      contracts: [{ code: '2330' }, { legs: [{ code: 'TXFG6' }, { code: 'TXFH6' }] }],
    });
    assert.match(run.stdout, /code\s*│\s*datetime\s*│\s*open/);
    assert.match(run.stdout, /2330\s*│\s*2026-07-15T13:30:00\.000000\s*│\s*1080\s*│/);
    assert.doesNotMatch(run.stdout, /yesterday_volume/);
  });

  test('--json FIELDS keeps those fields of each snapshot', async () => {
    const run = await sjgate('data', 'snapshots', '--codes', '2330', '--json', 'code,close');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), [{ code: SNAPSHOT.code, close: SNAPSHOT.close }]);
  });

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [[['data', 'snapshots', '--codes', 'A+B+C'], /two legs/]]);
  });
});
