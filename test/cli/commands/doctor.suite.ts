import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { formatDoctor } from '../../../src/cli/commands/doctor.js';
import { EXIT } from '../../../src/cli/errors.js';
import { runSjgate } from '../../helpers/cli.js';
import { type FakeBehaviour, readCalls, writeFakePython } from '../../helpers/fake-python.js';
import { scratchEnvironment } from '../../helpers/scratch-env.js';

const VARIABLES = ['SJ_HOME_PATH', 'SJ_PYTHON', 'SJ_API_KEY', 'SJ_SEC_KEY', 'SJ_PRODUCTION'] as const;

describe('sjgate doctor', () => {
  const scratch = scratchEnvironment(VARIABLES, 'sjgate-doctor-');
  const log = () => join(scratch.dir, 'calls.jsonl');

  /** The interpreter `setup production` would have made. */
  const venvPython = (behaviour: FakeBehaviour = {}) =>
    writeFakePython(join(scratch.home, 'python', 'bin', 'python'), log(), behaviour);
  const doctor = (...args: string[]) => runSjgate(0, ['doctor', ...args]);

  test("every check passes: a line each, the bridge's checks after the Node side's, exit 0", async () => {
    const python = venvPython();
    process.env.SJ_API_KEY = 'key';
    process.env.SJ_SEC_KEY = 'secret';
    const run = await doctor();
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.equal(
      run.stdout,
      [
        '✓ configuration: the SJ_ settings of the environment and .env are valid',
        `✓ data home: ${scratch.home}`,
        `✓ python: ${python}, Python 3.12.4 (the environment of \`sjgate setup production\`)`,
        '✓ shioaji: 1.7.9',
        '✓ credentials: SJ_API_KEY and SJ_SEC_KEY are set',
        '',
        'All 5 checks passed.',
        '',
      ].join('\n'),
    );
    assert.equal(run.stderr, '');
    assert.deepEqual(
      readCalls(log()).map((call) => call.args.slice(0, 2)),
      [
        ['-c', readCalls(log())[0]!.args[1]!],
        ['-m', 'sjgate_bridge'],
      ],
    );
    assert.deepEqual(readCalls(log())[1]!.args, ['-m', 'sjgate_bridge', 'doctor', '--json']);
  });

  test('a failing check: ✗ with its fix under it, a summary, exit 1', async () => {
    venvPython();
    const run = await doctor();
    assert.equal(run.code, EXIT.error);
    assert.match(
      run.stdout,
      /\n✗ credentials: SJ_API_KEY is not set\n {2}fix: set SJ_API_KEY in \.env\n\n1 of 5 checks failed\.\n$/,
    );
  });

  test('the values of .env reach the bridge, the environment winning', async () => {
    venvPython();
    writeFileSync('.env', 'SJ_API_KEY=from-dotenv\nSJ_SEC_KEY=s\n');
    const run = await doctor();
    assert.equal(run.code, EXIT.ok, run.stdout);
    assert.equal(process.env.SJ_API_KEY, undefined, 'the process environment is left as it was');
    process.env.SJ_API_KEY = '';
    const blank = await doctor();
    assert.equal(blank.code, EXIT.error, 'an empty SJ_API_KEY in the environment hides the one of .env');
    assert.match(blank.stdout, /✗ credentials: SJ_API_KEY is not set/);
  });

  test("--json passes the bridge's report through, the Node side's checks first; --json FIELDS selects", async () => {
    const python = venvPython();
    const run = await doctor('--json');
    assert.equal(run.code, EXIT.usage);
    assert.match(run.stderr, /specify one or more comma-separated fields for --json:\n {2}ok\n {2}checks\n {2}bridge/);

    const json = await doctor('--format', 'json');
    assert.equal(json.code, EXIT.error);
    const report = JSON.parse(json.stdout);
    assert.equal(report.ok, false);
    assert.equal(report.bridge, '0.1.0', 'keys of its own are kept');
    assert.deepEqual(
      report.checks.map((check: { name: string; ok: boolean }) => [check.name, check.ok]),
      [
        ['configuration', true],
        ['data home', true],
        ['python', true],
        ['shioaji', true],
        ['credentials', false],
      ],
    );
    assert.deepEqual(report.checks[2], {
      name: 'python',
      ok: true,
      detail: `${python}, Python 3.12.4 (the environment of \`sjgate setup production\`)`,
      fix: null,
    });
    const ok = await doctor('--json', 'ok');
    assert.deepEqual(JSON.parse(ok.stdout), { ok: false });
    assert.equal(ok.code, EXIT.error);
  });

  test('no interpreter: says to run `sjgate setup production`, runs nothing, exit 1 (JSON too)', async () => {
    const run = await doctor();
    assert.equal(run.code, EXIT.error);
    const python = join(scratch.home, 'python', 'bin', 'python');
    assert.ok(
      run.stdout.includes(
        `✗ data home: ${scratch.home} does not exist\n  fix: sjgate setup production (it makes the data home and the Python environment)\n` +
          `✗ python: no interpreter at ${python} (SJ_PYTHON is not set)\n  fix: sjgate setup production\n\n2 of 3 checks failed.`,
      ),
      run.stdout,
    );
    assert.deepEqual(readCalls(log()), []);
    const json = JSON.parse((await doctor('--format', 'json')).stdout);
    assert.equal(json.ok, false);
    assert.equal(json.checks[2].fix, 'sjgate setup production');
  });

  test('an interpreter without the bridge package, or with one too old to have a doctor', async () => {
    const python = venvPython({ doctor: 'missing' });
    const run = await doctor();
    assert.equal(run.code, EXIT.error);
    assert.match(
      run.stdout,
      new RegExp(`✗ bridge package: sjgate_bridge is not installed for ${python}\n  fix: sjgate setup production\n`),
    );

    venvPython({ doctor: 'no-doctor' });
    const older = await doctor();
    assert.match(
      older.stdout,
      /✗ bridge package: the sjgate_bridge of .* is older than this sjgate\n {2}fix: sjgate setup production\n/,
    );

    writeFakePython(join(scratch.dir, 'python3'), log(), { doctor: 'garbled' });
    process.env.SJ_PYTHON = join(scratch.dir, 'python3');
    const garbled = await doctor();
    assert.equal(garbled.code, EXIT.error);
    assert.match(
      garbled.stdout,
      /✗ bridge package: .*python3 -m sjgate_bridge doctor --json ended with exit code 1 and no report:/,
    );
    assert.match(garbled.stdout, /\n {6}RuntimeError: boom\n/);
  });

  test('SJ_PYTHON names the interpreter; one that is not there, or too old, is refused with the fix', async () => {
    const chosen = writeFakePython(join(scratch.dir, 'py'), log());
    process.env.SJ_PYTHON = chosen;
    process.env.SJ_API_KEY = 'k';
    const run = await doctor();
    assert.equal(run.code, EXIT.error, 'no data home yet');
    assert.match(run.stdout, new RegExp(`✓ python: ${chosen}, Python 3\\.12\\.4 \\(SJ_PYTHON\\)`));
    assert.match(run.stdout, /✓ credentials/);

    process.env.SJ_PYTHON = join(scratch.dir, 'gone');
    const gone = await doctor();
    assert.match(
      gone.stdout,
      /✗ python: cannot run .*gone \(SJ_PYTHON\)\n {2}fix: point SJ_PYTHON at a Python 3\.11\+/,
    );
    assert.match(gone.stdout, /or unset it and run `sjgate setup production`/);

    process.env.SJ_PYTHON = writeFakePython(join(scratch.dir, 'old'), log(), { version: '3.10.12' });
    const old = await doctor();
    assert.match(old.stdout, /✗ python: Python 3\.10\.12 at .*old is too old for the bridge/);
    assert.ok(!readCalls(log()).some((call) => call.python.endsWith('old') && call.args[1] === 'sjgate_bridge'));
  });

  test('a configuration error is a failed check, not the end of the doctor', async () => {
    venvPython();
    process.env.SJ_PRODUCTION = 'maybe';
    const run = await doctor();
    assert.equal(run.code, EXIT.error);
    assert.match(run.stdout, /^✗ configuration: SJ_PRODUCTION must be 'true' or 'false', got 'maybe'\n {2}fix: /);
    assert.match(run.stdout, /✓ shioaji: 1\.7\.9/);
  });
});

test('formatDoctor indents the lines of a long detail and of a fix', () => {
  const text = formatDoctor({
    ok: false,
    checks: [{ name: 'ca', ok: false, detail: 'cannot read\nthe file', fix: 'do this\nthen that' }],
  });
  assert.equal(text, '✗ ca: cannot read\n    the file\n  fix: do this\n       then that\n\n1 of 1 check failed.');
});
