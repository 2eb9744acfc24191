import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/errors.js';
import { runSjgate } from '../../../helpers/cli.js';
import { writeFakePython } from '../../../helpers/fake-python.js';

const VARIABLES = [
  ...['SJ_HOME_PATH', 'SJ_PYTHON', 'SJ_API_KEY', 'SJ_SEC_KEY', 'SJ_PRODUCTION', 'SJ_BACKEND'],
  ...['SJ_CA_PATH', 'SJ_CA_PASSWD'],
] as const;

describe('sjgate utils', () => {
  let scratch: string;
  let home: string;
  const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
  const cwd = process.cwd();

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'sjgate-utils-'));
    home = join(scratch, 'home');
    for (const name of VARIABLES) delete process.env[name];
    process.env.SJ_HOME_PATH = home;
    mkdirSync(join(scratch, 'work'));
    process.chdir(join(scratch, 'work'));
  });

  afterEach(() => {
    process.chdir(cwd);
    for (const name of VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    rmSync(scratch, { recursive: true, force: true });
  });

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
      assert.ok(run.stderr.includes(`${home}/python/bin/shioaji utils token ${args[0]}`), run.stderr);
      assert.equal(run.stdout, '');
    }
    const badSlot = await sjgate('utils', 'token', 'show', '--slot', '11');
    assert.equal(badSlot.code, EXIT.usage);
    assert.match(badSlot.stderr, /--slot.*integer from 1 to 10/);
  });

  test("api check runs the doctor's checks; --production checks for production", async () => {
    writeFakePython(join(home, 'python', 'bin', 'python'), join(scratch, 'calls.jsonl'));
    process.env.SJ_API_KEY = 'key';
    process.env.SJ_SEC_KEY = 'secret';
    // A certificate that is not there: the simulator does not care, production (SinoPac) does.
    process.env.SJ_CA_PATH = join(scratch, 'missing.pfx');
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
