import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/errors.js';
import { runSjgate } from '../../../helpers/cli.js';
import { writeFakePython } from '../../../helpers/fake-python.js';
import { scratchEnvironment } from '../../../helpers/scratch-env.js';

const VARIABLES = [
  'SJ_PYTHON',
  'SJ_API_KEY',
  'SJ_SEC_KEY',
  'SJ_PRODUCTION',
  'SJ_BACKEND',
  'SJ_CA_PATH',
  'SJ_CA_PASSWD',
];

describe('sjgate utils', () => {
  const scratch = scratchEnvironment([...VARIABLES, 'SJ_HOME_PATH'], 'sjgate-utils-');

  const sjgate = (...args: string[]) => runSjgate(0, args);

  test('every token command takes the official flags, exits 2 and names the official command to run', async () => {
    for (const args of [
      ['list', '--detailed'],
      ['show', '--all', '-k', 'KEY', '-s', 'SECRET'],
      ['show', '--slot', '3'],
      ['status'],
      ['clean', '--dry-run', '--slot', '10'],
    ]) {
      const run = await sjgate('utils', 'token', ...args);
      assert.equal(run.code, EXIT.usage, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, /sjgate keeps no token pool/);
      assert.ok(run.stderr.includes(`${scratch.home}/python/bin/shioaji utils token ${args[0]}`), run.stderr);
      assert.equal(run.stdout, '');
    }
    const badSlot = await sjgate('utils', 'token', 'show', '--slot', '11');
    assert.equal(badSlot.code, EXIT.usage);
    assert.match(badSlot.stderr, /--slot.*integer from 1 to 10/);
  });

  test("api check runs the doctor's checks; --production checks for production", async () => {
    writeFakePython(join(scratch.home, 'python', 'bin', 'python'), join(scratch.dir, 'calls.jsonl'));
    process.env.SJ_API_KEY = 'key';
    process.env.SJ_SEC_KEY = 'secret';
    // A certificate that is not there: the simulator does not care, production (SinoPac) does.
    process.env.SJ_CA_PATH = join(scratch.dir, 'missing.pfx');
    process.env.SJ_CA_PASSWD = 'password';
    const simulation = await sjgate('--format', 'json', 'utils', 'api', 'check');
    assert.equal(simulation.code, EXIT.ok, simulation.stdout + simulation.stderr);
    const checks = (run: { stdout: string }) =>
      (JSON.parse(run.stdout) as { checks: { name: string; ok: boolean; detail: string }[] }).checks;
    assert.deepEqual(
      checks(simulation).map((check) => check.name),
      ['configuration', 'data home', 'python', 'shioaji', 'credentials'],
    );
    // Production trades through SinoPac, which needs the certificate: without it its configuration fails.
    for (const flag of ['--production', '--prod']) {
      const production = await sjgate('--format', 'json', 'utils', 'api', 'check', flag);
      assert.equal(production.code, EXIT.error, production.stdout);
      const configuration = checks(production).find((check) => check.name === 'configuration');
      assert.equal(configuration?.ok, false);
      assert.match(configuration?.detail ?? '', /SJ_CA_PATH points to .*missing\.pfx', which does not exist/);
    }
  });
});
