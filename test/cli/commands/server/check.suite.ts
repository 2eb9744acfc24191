import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/context.js';
import { assertUsageErrors, fakeDaemon, runSjgate } from '../../../helpers/cli.js';
import { freePort } from '../../../helpers/free-port.js';

describe('sjgate server check', () => {
  let healthy = true;
  const daemon = fakeDaemon(({ url }) =>
    url === '/api/v1/health'
      ? [healthy ? 200 : 503, { status: healthy ? 'healthy' : 'unhealthy', session_recovering: !healthy }]
      : [404, {}],
  );
  before(() => daemon.start());
  after(() => daemon.stop());

  test('a healthy daemon is exit 0, with its /health answer; only /health is asked', async () => {
    healthy = true;
    const run = await daemon.sjgate('server', 'check');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.match(run.stdout, /running\s+true/);
    assert.match(run.stdout, /healthy\s+true/);
    assert.deepEqual(
      daemon.seen.map((s) => s.url),
      ['/api/v1/health'],
    );
    const json = await daemon.sjgate('server', 'check', '--format', 'json');
    assert.equal(json.code, EXIT.ok, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout).health, { status: 'healthy', session_recovering: false });
  });

  test('a daemon that answers but is not healthy is exit 1', async () => {
    healthy = false;
    const run = await daemon.sjgate('server', 'check', '--format', 'json');
    assert.equal(run.code, EXIT.error, run.stderr);
    const body = JSON.parse(run.stdout);
    assert.equal(body.running, true);
    assert.equal(body.healthy, false);
  });

  test('no daemon is exit 3, and none is started', async () => {
    const run = await runSjgate(await freePort(), ['server', 'check']);
    assert.equal(run.code, EXIT.notRunning, run.stderr);
    assert.match(run.stdout, /running\s+false/);
    assert.doesNotMatch(run.stderr, /starting/);
  });

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [
      [['server', 'check', '--wait'], /unknown option '--wait'/],
      [['server', 'check', 'now'], /too many arguments/],
    ]);
  });
});
