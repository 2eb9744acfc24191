// A fake Python interpreter for the tests of `setup production` and `doctor`: a Node script that records each call
// (its arguments, and what a pip install was given) and answers what the CLI asks of a Python, as told: its
// version, `-m venv` (which makes a venv whose interpreter is a copy of the fake), `-m pip install`, the import of
// shioaji and `-m sjgate_bridge doctor --json`. Nothing reaches the network.

import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface FakeBehaviour {
  /** What `sys.version_info` says (default 3.12.4). */
  version?: string;
  /** Whether pip is there (default true). */
  pip?: boolean;
  /** `-m venv` fails as Debian's python3 without python3-venv does. */
  venvFails?: boolean;
  /** `-m pip install` fails with these lines, or succeeds (default). */
  pipFailure?: string[];
  /** shioaji's version, or null when it cannot be imported (default 1.7.9). */
  shioaji?: string | null;
  /**
   * `-m sjgate_bridge doctor --json`: 'missing' (no such module), 'no-doctor' (a bridge from before the doctor,
   * without __main__), 'garbled' (a traceback, no JSON), or 'report':
   * a credentials check that passes when SJ_API_KEY reaches it, after a passing shioaji check (the default).
   */
  doctor?: 'missing' | 'no-doctor' | 'garbled' | 'report';
}

export interface Call {
  /** The fake that was run. */
  python: string;
  args: string[];
  /** For a pip install: the pyproject.toml of the folder it was given, or null when there was none. */
  pyproject?: string | null;
}

const SCRIPT = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const config = JSON.parse(CONFIG);
const args = process.argv.slice(2);
const call = { python: __filename, args };
const out = (text) => process.stdout.write(text + '\n');
const fail = (text, code = 1) => {
  process.stderr.write(text + '\n');
  process.exitCode = code;
};
if (args[0] === '-m' && args[1] === 'pip') {
  const project = path.join(args.at(-1), 'pyproject.toml');
  call.pyproject = fs.existsSync(project) ? fs.readFileSync(project, 'utf8') : null;
}
fs.appendFileSync(config.log, JSON.stringify(call) + '\n');
if (args[0] === '-c' && args[1].includes('sys.version_info')) {
  out(config.version);
  out(config.pip ? 'pip' : 'no-pip');
} else if (args[0] === '-c' && args[1].includes('import shioaji')) {
  if (config.shioaji === null) fail("ModuleNotFoundError: No module named 'shioaji'");
  else out(config.shioaji);
} else if (args[0] === '-m' && args[1] === 'venv') {
  const dir = args.at(-1);
  if (config.venvFails) {
    out('The virtual environment was not created successfully because ensurepip is not available.');
    process.exitCode = 1;
  } else {
    fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'pyvenv.cfg'), 'version = ' + config.version + '\n');
    fs.copyFileSync(__filename, path.join(dir, 'bin', 'python'));
    fs.chmodSync(path.join(dir, 'bin', 'python'), 0o755);
  }
} else if (args[0] === '-m' && args[1] === 'pip') {
  out('Processing ' + args.at(-1));
  out('Collecting shioaji<1.8,>=1.7.9');
  if (config.pipFailure) {
    for (const line of config.pipFailure) fail(line);
  } else {
    out('Successfully installed shioaji-' + config.shioaji + ' pydantic-2.11.0 sjgate-bridge-0.1.0');
  }
} else if (args[0] === '-m' && args[1] === 'sjgate_bridge') {
  if (config.doctor === 'missing') fail(__filename + ': No module named sjgate_bridge');
  else if (config.doctor === 'no-doctor') {
    fail(__filename + ": No module named sjgate_bridge.__main__; 'sjgate_bridge' is a package and cannot be directly executed");
  } else if (config.doctor === 'garbled') fail('Traceback (most recent call last):\nRuntimeError: boom');
  else {
    const key = Boolean(process.env.SJ_API_KEY);
    const checks = [
      { name: 'shioaji', ok: true, detail: config.shioaji, fix: null },
      key
        ? { name: 'credentials', ok: true, detail: 'SJ_API_KEY and SJ_SEC_KEY are set', fix: null }
        : { name: 'credentials', ok: false, detail: 'SJ_API_KEY is not set', fix: 'set SJ_API_KEY in .env' },
    ];
    out(JSON.stringify({ ok: key, checks, bridge: '0.1.0' }));
    process.exitCode = key ? 0 : 1;
  }
} else {
  fail('fake python: unexpected arguments ' + JSON.stringify(args), 2);
}
`;

/**
 * Writes a fake interpreter at `path` (its folder made as needed) that records its calls in `log` (one JSON line
 * each; see readCalls) and behaves as told.
 */
export function writeFakePython(path: string, log: string, behaviour: FakeBehaviour = {}): string {
  const config = {
    log,
    version: behaviour.version ?? '3.12.4',
    pip: behaviour.pip ?? true,
    venvFails: behaviour.venvFails ?? false,
    pipFailure: behaviour.pipFailure ?? null,
    shioaji: behaviour.shioaji === undefined ? '1.7.9' : behaviour.shioaji,
    doctor: behaviour.doctor ?? 'report',
  };
  mkdirSync(dirname(path), { recursive: true });
  const script = `#!${process.execPath}\nconst CONFIG = ${JSON.stringify(JSON.stringify(config))};\n${SCRIPT}`;
  writeFileSync(path, script);
  chmodSync(path, 0o755);
  return path;
}

/** The calls the fakes recorded in `log`, in order. */
export function readCalls(log: string): Call[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Call);
}
