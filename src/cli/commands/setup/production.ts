// `sjgate setup production`: the Python environment of the production bridge. A virtual environment under the data
// home (<SJ_HOME_PATH>/python) with the sidecar package this npm package ships in python/, which brings a compatible
// shioaji (its pyproject pins shioaji>=1.7.9,<1.8). Running it again upgrades what is there, or keeps it.

import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Command } from 'commander';
import { homePathOf } from '../../../config.js';
import { BRIDGE_PROJECT_DIR, bridgePython, venvDir, venvPython } from '../../../python-env.js';
import { action, type CliEnv } from '../../context.js';
import { colorEnabled, type Output, writeLines } from '../../io.js';
import { formatHeading } from '../../output.js';
import { Phases } from '../../progress.js';
import {
  lastLines,
  type ProcessResult,
  PythonError,
  type PythonInfo,
  probePython,
  requirePython,
  runProcess,
} from '../../python.js';

interface ProductionOptions {
  python?: string;
  verbose?: boolean;
}

const SETUP_FIELDS = ['python', 'venv', 'shioaji'] as const;

export interface ProductionSetup {
  /** The venv's interpreter: the one the daemon runs the sidecar with (unless SJ_PYTHON names another). */
  python: string;
  venv: string;
  /** shioaji's own __version__. */
  shioaji: string;
}

const VERIFY = 'import shioaji, sjgate_bridge; print(shioaji.__version__)';

/** The interpreter to make the venv with, and how it was named, for messages. */
function baseInterpreter(option: string | undefined): { path: string; named: string } {
  if (option !== undefined) return { path: option, named: '--python' };
  const fromEnv = process.env.SJ_PYTHON?.trim();
  if (fromEnv) return { path: fromEnv, named: 'SJ_PYTHON' };
  return { path: 'python3', named: 'the default' };
}

/** Runs one step between its ✓ and ✗; `detail` says what it found. */
async function step<T>(phases: Phases, label: string, run: () => Promise<T>, detail: (value: T) => string): Promise<T> {
  phases.start(label);
  try {
    const value = await run();
    phases.done(detail(value));
    return value;
  } catch (error) {
    phases.fail();
    throw error;
  }
}

interface Venv {
  dir: string;
  python: string;
}

/**
 * Makes the venv with `base`, or keeps the one there when it runs the same Python (major.minor) and has pip; one
 * made by another Python, or left half-made, is made again.
 */
async function prepareVenv(
  base: string,
  info: PythonInfo,
  venv: Venv,
  onLine: (line: string) => void,
): Promise<string> {
  const marker = join(venv.dir, 'pyvenv.cfg');
  if (!existsSync(marker) && existsSync(venv.dir) && readdirSync(venv.dir).length > 0) {
    throw new PythonError(
      `${venv.dir} exists and is not a virtual environment: move it away, sjgate makes its Python environment there`,
    );
  }
  const current = existsSync(marker) ? await probePython(venv.python).catch(() => null) : null;
  if (current?.pip && current.major === info.major && current.minor === info.minor) {
    return `kept ${venv.dir} (Python ${current.version})`;
  }
  mkdirSync(venv.dir, { recursive: true, mode: 0o700 });
  const args = ['-m', 'venv', ...(existsSync(marker) ? ['--clear'] : []), venv.dir];
  const result = await runProcess(base, args, { onLine });
  if (result.code !== 0) {
    const fix = /ensurepip is not available|No module named venv/.test(result.stdout + result.stderr)
      ? `install the venv module: sudo apt-get install python${info.major}.${info.minor}-venv`
      : 'check that the data home is writable, or pass another interpreter with --python';
    throw new PythonError(
      `${base} -m venv ${venv.dir} failed (exit code ${result.code}); its last lines:\n` +
        `${lastLines(result.lines)}\nfix: ${fix}`,
    );
  }
  return `${current === null ? 'created' : 'made again'} ${venv.dir} (Python ${info.version})`;
}

/** What pip did, from its `Successfully installed a-1 b-2` line. */
function pipSummary(result: ProcessResult): string {
  const line = result.lines.findLast((text) => text.startsWith('Successfully installed '));
  const count = line === undefined ? 0 : line.trim().split(/\s+/).length - 2;
  return count === 0 ? 'up to date' : `${count} package${count === 1 ? '' : 's'} installed or upgraded`;
}

/** What to do about a failed pip install, from what it printed. */
function pipFix(output: string): string {
  if (/Failed to establish a new connection|Temporary failure in name resolution|ProxyError|SSLError/.test(output)) {
    return 'pip cannot reach the package index: check the network (and HTTPS_PROXY or PIP_INDEX_URL), then run it again';
  }
  if (/No matching distribution found for shioaji|satisfies the requirement shioaji/.test(output)) {
    return (
      'the package index has no shioaji 1.7 (>=1.7.9) for this Python and platform: ' +
      'try another Python with --python, or check PIP_INDEX_URL'
    );
  }
  return "run `sjgate setup production --verbose` to see pip's whole output";
}

/**
 * pip installs the bridge from a copy of python/ in a temporary folder: pip builds in the folder it is given, and
 * the package's own may be read-only (a global npm install) and is not to be littered with build/ either way.
 */
async function installBridge(venv: Venv, onLine: (line: string) => void): Promise<ProcessResult> {
  const project = BRIDGE_PROJECT_DIR;
  if (!existsSync(join(project, 'pyproject.toml')) || !existsSync(join(project, 'src', 'sjgate_bridge'))) {
    throw new PythonError(`the bridge's Python package is missing from this sjgate (${project}): reinstall sjgate`);
  }
  const copy = mkdtempSync(join(tmpdir(), 'sjgate-bridge-'));
  try {
    cpSync(join(project, 'pyproject.toml'), join(copy, 'pyproject.toml'));
    cpSync(join(project, 'src', 'sjgate_bridge'), join(copy, 'src', 'sjgate_bridge'), {
      recursive: true,
      filter: (source) => basename(source) !== '__pycache__',
    });
    // An absolute path: pip reads a bare word as the name of a package on the index.
    const args = ['-m', 'pip', 'install', '--upgrade', '--disable-pip-version-check', '--no-input', copy];
    const result = await runProcess(venv.python, args, { env: { ...process.env, PYTHONUNBUFFERED: '1' }, onLine });
    if (result.code !== 0) {
      throw new PythonError(
        `pip could not install the bridge into ${venv.dir} (exit code ${result.code}); its last lines:\n` +
          `${lastLines(result.lines)}\nfix: ${pipFix(result.stdout + result.stderr)}`,
      );
    }
    return result;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** shioaji's version, imported next to the bridge by the venv's interpreter. */
async function verify(venv: Venv): Promise<string> {
  const result = await runProcess(venv.python, ['-c', VERIFY], { timeoutMs: 120_000 });
  const version = result.stdout.trim().split(/\r?\n/).at(-1)?.trim() ?? '';
  if (result.code !== 0 || version === '') {
    throw new PythonError(
      `pip installed the bridge, but ${venv.python} cannot import it (exit code ${result.code}):\n` +
        `${lastLines(result.lines)}\nfix: run \`sjgate setup production --verbose\` again and read pip's output`,
    );
  }
  return version;
}

function nextSteps(setup: ProductionSetup, color: boolean): string {
  return `${formatHeading(`shioaji ${setup.shioaji} is ready in ${setup.venv}`, color)}

Next steps:
  1. Put your SinoPac API key and certificate in .env (in the folder you run sjgate from):
       SJ_API_KEY=...
       SJ_SEC_KEY=...
       SJ_CA_PATH=/path/to/Sinopac.pfx
       SJ_CA_PASSWD=...
  2. Check everything: sjgate doctor
  3. Start on SinoPac's simulation environment first:
       SJ_BACKEND=shioaji SJ_PRODUCTION=false sjgate server start`;
}

async function setUpProduction(options: ProductionOptions, stderr: Output, phases: Phases): Promise<ProductionSetup> {
  const base = baseInterpreter(options.python);
  const dir = venvDir(homePathOf());
  const venv: Venv = { dir, python: venvPython(dir) };
  const onLine = options.verbose ? (line: string) => writeLines(stderr, line) : (line: string) => phases.note(line);
  const info = await step(
    phases,
    'checking Python',
    () => requirePython(base.path, base.named),
    ({ version }) => `Python ${version} (${base.path})`,
  );
  await step(phases, 'creating the virtual environment', () => prepareVenv(base.path, info, venv, onLine), String);
  await step(phases, 'installing shioaji', () => installBridge(venv, onLine), pipSummary);
  const shioaji = await step(
    phases,
    'verifying',
    () => verify(venv),
    (version) => `shioaji ${version}`,
  );
  return { python: venv.python, venv: venv.dir, shioaji };
}

export function registerProduction(setup: Command, env: CliEnv): void {
  setup
    .command('production')
    .description("install shioaji and sjgate's Python bridge in a virtual environment under the data home")
    .option('--python <PATH>', 'the Python (3.11 or newer) to make it with (default: SJ_PYTHON, else python3)')
    .addHelpText(
      'after',
      `
Makes <SJ_HOME_PATH>/python (default ~/.sjgate/python) with the given Python and installs into it the bridge's
Python package, which brings shioaji 1.7 from PyPI. Running it again upgrades what is there, or keeps it.
The daemon runs the bridge with SJ_PYTHON when set, else with <SJ_HOME_PATH>/python/bin/python.
--json prints python (that interpreter), venv and shioaji (its version).

Examples:
  $ sjgate setup production
  $ sjgate setup production --python /usr/bin/python3.12 --verbose   # --verbose: pip's whole output
  $ sjgate setup production --json shioaji`,
    )
    .action(
      action<ProductionOptions>(
        env,
        async (cli, own) => {
          const options = { ...own, verbose: cli.globals.verbose === true };
          const stderr = cli.io.stderr;
          const live = Boolean(stderr.isTTY) && !options.verbose;
          const phases = new Phases(stderr, live, colorEnabled(stderr));
          const result = await setUpProduction(options, stderr, phases);
          cli.emit(result, nextSteps);
          const daemon = bridgePython();
          if (daemon.source === 'SJ_PYTHON' && daemon.path !== result.python) {
            cli.printError(
              `warning: SJ_PYTHON is set (${daemon.path}), so the daemon runs that interpreter, not ${result.python}; ` +
                'unset SJ_PYTHON to use this environment',
            );
          }
        },
        { fields: SETUP_FIELDS },
      ),
    );
}
