import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { versionReport } from '../../../src/cli/commands/version.js';
import { EXIT } from '../../../src/cli/context.js';
import { OFFICIAL_SERVER_VERSION } from '../../../src/version.js';
import { assertUsageErrors, fakeDaemon, runSjgate } from '../../helpers/cli.js';
import { freePort } from '../../helpers/free-port.js';

test('versionReport: local alone, or with what the daemon reports (non-strings left out)', () => {
  assert.deepEqual(versionReport('1.2.3', null), {
    sjgate: '1.2.3',
    official: OFFICIAL_SERVER_VERSION,
    source: 'local',
  });
  assert.deepEqual(versionReport('1.2.3', { version: '1.7.9', sjgate_version: '1.2.2', api_version: 7 }), {
    sjgate: '1.2.3',
    official: OFFICIAL_SERVER_VERSION,
    source: 'daemon',
    daemon_sjgate: '1.2.2',
    daemon_official: '1.7.9',
  });
});

describe('sjgate version', () => {
  const daemon = fakeDaemon(({ url }) =>
    url === '/api/v1/info' ? [200, { version: '1.7.9', sjgate_version: '9.9.9', api_version: 'v1' }] : [404, {}],
  );
  before(() => daemon.start());
  after(() => daemon.stop());

  test('with a daemon: this build and the daemon, from /api/v1/info', async () => {
    const run = await daemon.sjgate('version', '--format', 'json');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), {
      sjgate: '0.0.0-test',
      official: OFFICIAL_SERVER_VERSION,
      source: 'daemon',
      daemon_sjgate: '9.9.9',
      daemon_official: '1.7.9',
      daemon_api: 'v1',
    });
    assert.deepEqual(
      daemon.seen.map((s) => s.url),
      ['/api/v1/info'],
    );
  });

  test('without a daemon: local, exit 0, none started', async () => {
    const run = await runSjgate(await freePort(), ['version']);
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.match(run.stdout, /sjgate\s+0\.0\.0-test/);
    assert.match(run.stdout, new RegExp(`official\\s+${OFFICIAL_SERVER_VERSION.replaceAll('.', '\\.')}`));
    assert.match(run.stdout, /source\s+local/);
    assert.doesNotMatch(run.stderr, /starting/);
  });

  test('bad flags are exit 2', async () => {
    await assertUsageErrors(daemon, [
      [['version', '--short'], /unknown option '--short'/],
      [['version', '--json', 'nope'], /nope/],
    ]);
  });
});
