import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/errors.js';
import { runSjgate } from '../../../helpers/cli.js';
import { type FakeBehaviour, readCalls, writeFakePython } from '../../../helpers/fake-python.js';

const PROBE = /sys\.version_info/;
const VERIFY = 'import shioaji, sjgate_bridge; print(shioaji.__version__)';

describe('sjgate setup production', () => {
  let scratch: string;
  let home: string;
  let log: string;
  const saved = { home: process.env.SJ_HOME_PATH, python: process.env.SJ_PYTHON, path: process.env.PATH };

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'sjgate-setup-'));
    home = join(scratch, 'home');
    log = join(scratch, 'calls.jsonl');
    process.env.SJ_HOME_PATH = home;
    delete process.env.SJ_PYTHON;
  });

  afterEach(() => {
    for (const [name, value] of [
      ['SJ_HOME_PATH', saved.home],
      ['SJ_PYTHON', saved.python],
      ['PATH', saved.path],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(scratch, { recursive: true, force: true });
  });

  const python = (behaviour: FakeBehaviour = {}, name = 'python3.12') =>
    writeFakePython(join(scratch, 'bin', name), log, behaviour);
  const setup = (...args: string[]) => runSjgate(0, ['setup', 'production', ...args]);
  const venv = () => join(home, 'python');
  const venvPython = () => join(home, 'python', 'bin', 'python');
  /** The calls as `<which> <args>`, the venv's interpreter as `venv`, the base as `base`. */
  const calls = () =>
    readCalls(log).map(({ python: file, args }) => {
      const which = file === venvPython() ? 'venv' : 'base';
      const shown = args.map((arg) => (PROBE.test(arg) ? '<probe>' : arg === VERIFY ? '<verify>' : arg));
      return `${which} ${shown.join(' ')}`;
    });

  test('makes the venv, installs the bridge from its own python/ folder, verifies shioaji, and says what next', async () => {
    const base = python();
    const run = await setup('--python', base);
    assert.equal(run.code, EXIT.ok, run.stderr);
    const recorded = calls();
    assert.deepEqual(recorded.slice(0, 2), ['base -c <probe>', `base -m venv ${venv()}`]);
    assert.match(
      recorded[2]!,
      /^venv -m pip install --upgrade --disable-pip-version-check --no-input \/.+\/sjgate-bridge-\w+$/,
    );
    assert.equal(recorded[3], 'venv -c <verify>');
    assert.equal(recorded.length, 4);
    // pip got a copy of the package this npm package ships, which pins shioaji 1.7; the copy is gone afterwards.
    const install = readCalls(log)[2]!;
    assert.match(install.pyproject ?? '', /"shioaji>=1\.7\.9,<1\.8"/);
    assert.ok(!existsSync(install.args.at(-1)!), 'the temporary copy is removed');

    assert.match(run.stdout, new RegExp(`^shioaji 1\\.7\\.9 is ready in ${venv()}\n`));
    for (const step of ['SJ_API_KEY=', 'SJ_SEC_KEY=', 'SJ_CA_PATH=', 'SJ_CA_PASSWD=', 'sjgate doctor']) {
      assert.ok(run.stdout.includes(step), step);
    }
    assert.match(run.stdout, /SJ_BACKEND=shioaji SJ_PRODUCTION=false sjgate server start/);
    // Off a terminal, each step is announced and then marked, with what it found.
    assert.equal(
      run.stderr,
      [
        'checking Python...',
        `✓ checking Python: Python 3.12.4 (${base})`,
        'creating the virtual environment...',
        `✓ creating the virtual environment: created ${venv()} (Python 3.12.4)`,
        'installing shioaji...',
        '✓ installing shioaji: 3 packages installed or upgraded',
        'verifying...',
        '✓ verifying: shioaji 1.7.9',
        '',
      ].join('\n'),
    );
  });

  test('--json prints the interpreter, the venv and the version of shioaji; a wrong field runs nothing', async () => {
    const base = python();
    const run = await setup('--python', base, '--json', 'python,venv,shioaji');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { python: venvPython(), venv: venv(), shioaji: '1.7.9' });
    const json = await setup('--python', base, '--format', 'json');
    assert.deepEqual(Object.keys(JSON.parse(json.stdout)), ['python', 'venv', 'shioaji']);

    rmSync(log);
    const wrong = await setup('--python', base, '--json', 'shioaji,version');
    assert.equal(wrong.code, EXIT.usage);
    assert.match(wrong.stderr, /unknown JSON field: "version"/);
    assert.deepEqual(calls(), []);
  });

  test('a second run keeps the venv and upgrades the bridge; one made by another Python is made again', async () => {
    const base = python();
    assert.equal((await setup('--python', base)).code, EXIT.ok);
    rmSync(log);
    const again = await setup('--python', base);
    assert.equal(again.code, EXIT.ok, again.stderr);
    assert.match(
      again.stderr,
      new RegExp(`✓ creating the virtual environment: kept ${venv()} \\(Python 3\\.12\\.4\\)`),
    );
    const recorded = calls();
    assert.ok(!recorded.some((call) => call.includes('-m venv')), recorded.join('\n'));
    assert.ok(recorded.some((call) => call.startsWith('venv -m pip install --upgrade')));

    rmSync(log);
    const newer = python({ version: '3.13.1' }, 'python3.13');
    const moved = await setup('--python', newer);
    assert.equal(moved.code, EXIT.ok, moved.stderr);
    assert.ok(calls().includes(`base -m venv --clear ${venv()}`), calls().join('\n'));
    assert.match(moved.stderr, /made again .* \(Python 3\.13\.1\)/);
  });

  test('a half-made venv (no pip) is made again; a folder that is not a venv is left alone', async () => {
    const base = python();
    writeFakePython(venvPython(), log, { pip: false });
    writeFileSync(join(venv(), 'pyvenv.cfg'), 'version = 3.12.4\n');
    const run = await setup('--python', base);
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.ok(calls().includes(`base -m venv --clear ${venv()}`), calls().join('\n'));

    rmSync(venv(), { recursive: true });
    mkdirSync(venv());
    writeFileSync(join(venv(), 'notes.txt'), 'mine');
    const refused = await setup('--python', base);
    assert.equal(refused.code, EXIT.error);
    assert.match(refused.stderr, /exists and is not a virtual environment: move it away/);
    assert.deepEqual(readdirSync(venv()), ['notes.txt']);
  });

  test('the interpreter comes from --python, else SJ_PYTHON (with a warning), else python3 on PATH', async () => {
    const fromEnv = python({ version: '3.11.9' }, 'py-env');
    process.env.SJ_PYTHON = fromEnv;
    const run = await setup();
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.match(run.stderr, /checking Python: Python 3\.11\.9 \(.*py-env\)/);
    assert.match(
      run.stderr,
      /warning: SJ_PYTHON is set \(.*py-env\), so the daemon runs that interpreter, not .*unset/,
    );

    delete process.env.SJ_PYTHON;
    const onPath = python({ version: '3.12.4' }, 'python3');
    process.env.PATH = `${join(scratch, 'bin')}:${process.env.PATH}`;
    const byDefault = await setup();
    assert.equal(byDefault.code, EXIT.ok, byDefault.stderr);
    assert.match(byDefault.stderr, /checking Python: Python 3\.12\.4 \(python3\)/);
    assert.ok(!byDefault.stderr.includes('warning'));
    assert.equal(readCalls(log).at(-1)?.python, venvPython());
    assert.ok(readCalls(log).some((call) => call.python === onPath));
  });

  test('no Python: says how to install one, and makes nothing', async () => {
    const run = await setup('--python', join(scratch, 'no-such-python'));
    assert.equal(run.code, EXIT.error);
    assert.match(run.stderr, /✗ checking Python/);
    assert.match(
      run.stderr,
      /error: cannot run .*no-such-python \(--python\): the Shioaji bridge needs Python 3\.11 or newer\n/,
    );
    assert.match(run.stderr, /\nfix: install it \(Debian\/Ubuntu: sudo apt-get install python3\.11 python3\.11-venv; /);
    assert.match(run.stderr, /macOS: brew install python@3\.12\), or name one with --python PATH or SJ_PYTHON\n/);
    assert.equal(run.stdout, '');
    assert.ok(!existsSync(venv()));

    process.env.PATH = join(scratch, 'empty');
    const none = await setup();
    assert.equal(none.code, EXIT.error);
    assert.match(none.stderr, /error: cannot run python3 \(the default\)/);
  });

  test('a Python older than 3.11 is refused with the fix, before the venv is made', async () => {
    const old = python({ version: '3.9.18' }, 'python3.9');
    const run = await setup('--python', old);
    assert.equal(run.code, EXIT.error);
    assert.match(
      run.stderr,
      /error: Python 3\.9\.18 at .*python3\.9 \(--python\) is too old: the Shioaji bridge needs 3\.11/,
    );
    assert.match(
      run.stderr,
      /\nfix: install one \(Debian\/Ubuntu: sudo apt-get install python3\.11 python3\.11-venv; macOS: .*\), then run: sjgate setup production --python python3\.11\n/,
    );
    assert.deepEqual(calls(), ['base -c <probe>']);
    assert.ok(!existsSync(venv()));
  });

  test('Debian without python3-venv: names the package to install', async () => {
    const run = await setup('--python', python({ venvFails: true, version: '3.11.2' }));
    assert.equal(run.code, EXIT.error);
    assert.match(run.stderr, /✗ creating the virtual environment/);
    assert.match(run.stderr, /ensurepip is not available/);
    assert.match(run.stderr, /fix: install the venv module: sudo apt-get install python3\.11-venv/);
  });

  test("pip failing: pip's last lines and the fix, and no next steps", async () => {
    const pipFailure = [
      'ERROR: Could not find a version that satisfies the requirement shioaji<1.8,>=1.7.9 (from sjgate-bridge)',
      'ERROR: No matching distribution found for shioaji<1.8,>=1.7.9',
    ];
    const run = await setup('--python', python({ pipFailure }));
    assert.equal(run.code, EXIT.error);
    assert.match(run.stderr, /✗ installing shioaji\n/);
    assert.match(run.stderr, /error: pip could not install the bridge into .* \(exit code 1\); its last lines:\n/);
    assert.ok(run.stderr.includes(`  ${pipFailure[1]}`), run.stderr);
    assert.match(run.stderr, /fix: the package index has no shioaji 1\.7 \(>=1\.7\.9\) for this Python and platform/);
    assert.equal(run.stdout, '');
    assert.ok(!calls().includes('venv -c <verify>'));

    rmSync(venv(), { recursive: true }); // its interpreter is a copy of the fake above
    const offline = await setup('--python', python({ pipFailure: ['Failed to establish a new connection'] }));
    assert.match(offline.stderr, /fix: pip cannot reach the package index/);
  });

  test('--verbose streams what pip prints', async () => {
    const run = await setup('--python', python(), '--verbose');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.match(run.stderr, /installing shioaji\.\.\.\nProcessing \/.+\nCollecting shioaji<1\.8,>=1\.7\.9\n/);
    const quiet = await setup('--python', python());
    assert.ok(!quiet.stderr.includes('Collecting'), 'summarized without --verbose');
  });

  test('shioaji that will not import after the install is an error', async () => {
    const run = await setup('--python', python({ shioaji: null }));
    assert.equal(run.code, EXIT.error);
    assert.match(run.stderr, /✗ verifying/);
    assert.match(run.stderr, /cannot import it .*\n {2}ModuleNotFoundError: No module named 'shioaji'/);
  });
});
