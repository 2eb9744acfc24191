#!/usr/bin/env node
// Runs every test file with node:test through tsx. Node 20 does not expand globs in --test,
// and `node --test` with no files passes with zero tests, so the list is built here and must not be empty.
//
// Nothing may hang the suite: every test and hook has a time limit (TEST_LIMIT_MS unless it sets its own, see
// test-time-limit.mjs), every file has one (FILE_LIMIT_MS: the timeout of node:test's run() bounds whole files), and
// the whole run has a budget (SUITE_BUDGET_MS): past it, every process of the run is killed and the files still running
// are named. Not forceExit: on Node 20 it sometimes ends a file's process while its later suites still run, and
// their tests silently go missing from the report (catalog.test.ts lost 4 to 14 of its 52 about one run in four).
// The processes of a run are told apart by a marker in their environment, which daemons that detach keep too (so
// this needs Linux's /proc; elsewhere only the runner itself is stopped).
// At the end the slowest files are listed.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const TEST_LIMIT_MS = 60_000;
const FILE_LIMIT_MS = 180_000;
const SUITE_BUDGET_MS = 8 * 60_000;
const SLOWEST_SHOWN = 10;

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * Files that take tens of seconds each (the broker's, the CLI's and the server's suites in a few processes, a browser,
 * real daemons): they start first, longest first, so that the last minute of a run is filled with short files rather than
 * waiting on one long file started late. (test-files-in-order.mjs keeps this order: `node --test` would sort by path.)
 */
const LONG_FIRST = ['test/broker/suites-', 'test/cli/cli.test.ts', 'test/browser/', 'test/server/suites-', 'test/e2e/'];
const longRank = (file) => {
  const rank = LONG_FIRST.findIndex((start) => file.startsWith(start));
  return rank === -1 ? LONG_FIRST.length : rank;
};

const filter = process.argv.slice(2);
const files = findTests('test')
  .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
  .sort((a, b) => longRank(a) - longRank(b) || a.localeCompare(b));
if (files.length === 0) {
  console.error('run-tests: no test files found under test/');
  process.exit(1);
}

const scratch = mkdtempSync(join(tmpdir(), 'sjgate-run-tests-'));
const progressPath = join(scratch, 'progress.tsv');
// Every process of this run inherits the marker, daemons that detach from the process group included.
const runId = randomUUID();
const marker = `SJ_TEST_RUN=${runId}`;
const started = Date.now();
const here = import.meta.dirname;

const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    '--import',
    join(here, 'test-time-limit.mjs'),
    '--import',
    join(here, 'test-assert-messages.mjs'),
    join(here, 'test-files-in-order.mjs'),
    '2',
    `${FILE_LIMIT_MS}`,
    progressPath,
    ...files.map((file) => resolve(file)),
  ],
  {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, SJ_TEST_RUN: runId, SJ_TEST_TIME_LIMIT_MS: `${TEST_LIMIT_MS}` },
  },
);

let stopping = false;
/** When the Python tests started; null until they do. */
let pythonStartedAt = null;
// The Python tests run beside the node tests (a full run only), under a marker of their own, so that the leftovers
// of the node tests can be stopped when those end without stopping the Python tests; their output is shown after.
const pythonMarkerId = `${runId}-python`;
const READ_TESTS = 'python/tests/test_api_reads.py';
const PYTHON_PARTS = [[READ_TESTS], ['python/tests', `--ignore=${READ_TESTS}`]];
const pythonLogs = PYTHON_PARTS.map((_, i) => join(scratch, `python-${i}.log`));
const pythonDone = filter.length === 0 ? runPythonTests() : Promise.resolve(0);
const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));

const watchdog = setTimeout(() => {
  const running = progress().running.map(({ file, since }) => `  ${file} (running for ${seconds(Date.now() - since)})`);
  if (pythonStartedAt !== null) running.push(`  python/tests (running for ${seconds(Date.now() - pythonStartedAt)})`);
  console.error(
    `\nrun-tests: FAILED: the suite ran past its budget of ${seconds(SUITE_BUDGET_MS)} and was stopped.\n` +
      (running.length > 0 ? `Files still running:\n${running.join('\n')}` : 'No test file had started.'),
  );
  void stopEverything().then(() => finish(1));
}, SUITE_BUDGET_MS);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    console.error(`\nrun-tests: ${signal}, stopping the tests`);
    void stopEverything().then(() => finish(signal === 'SIGINT' ? 130 : 143));
  });
}

void exited.then(async (code) => {
  if (stopping) return;
  stopLeftovers(marker);
  // A filtered run (`node scripts/run-tests.mjs <part>`) is for the test files named; the Python tests come with the
  // full run only, under the same budget.
  const python = await pythonDone;
  printPythonOutput();
  if (stopping) return;
  clearTimeout(watchdog);
  stopLeftovers(`SJ_TEST_RUN=${pythonMarkerId}`);
  finish(Math.max(code, python));
});

function stopLeftovers(which) {
  const leftovers = processesOfThisRun(which);
  if (leftovers.length === 0) return;
  console.error(
    `run-tests: ${leftovers.length} process(es) started by the tests were still running and are stopped now:\n` +
      leftovers.map(({ pid, command }) => `  ${pid} ${command}`).join('\n'),
  );
  for (const { pid } of leftovers) kill(pid, 'SIGKILL');
}

/**
 * The Python tests (python/tests: Schemathesis against the real daemon built in dist/) in the virtual environment
 * python/.venv. Without it they are skipped with a note, unless SJ_PYTHON_TESTS=required (as .ci/run sets).
 * They run as two pytest processes, each with a daemon of its own: Schemathesis's stateless run over the reading
 * operations (test_api_reads.py) beside everything else, so that the two halves of the long run do not wait on each
 * other (on a loaded machine two processes also get a larger share of the CPU than one).
 */
function runPythonTests() {
  const pytest = join('python', '.venv', 'bin', 'pytest');
  if (!existsSync(pytest)) {
    const required = process.env.SJ_PYTHON_TESTS === 'required';
    console.error(
      `run-tests: ${required ? 'the Python tests are required but' : 'skipping the Python tests:'} ${pytest} is missing. ` +
        "Create it with: python3 -m venv python/.venv && python/.venv/bin/pip install -e 'python[test]'",
    );
    return Promise.resolve(required ? 1 : 0);
  }
  pythonStartedAt = Date.now();
  const parts = PYTHON_PARTS.map((args, i) => runPytest(pytest, args, pythonLogs[i]));
  return Promise.all(parts).then((statuses) => Math.max(...statuses));
}

/** The output of the Python tests, each part's in turn. */
function printPythonOutput() {
  for (const log of pythonLogs) if (existsSync(log)) process.stdout.write(readFileSync(log));
}

/** One pytest process, with a log of its own so that the parts' output does not interleave. */
function runPytest(pytest, args, log) {
  const output = openSync(log, 'w');
  const python = spawn(pytest, args, {
    stdio: ['ignore', output, output],
    env: { ...process.env, SJ_TEST_RUN: pythonMarkerId },
  });
  return new Promise((resolve) => {
    python.on('exit', (status) => resolve(status ?? 1));
    python.on('error', (error) => {
      console.error(`run-tests: cannot run ${pytest}: ${error.message}`);
      resolve(1);
    });
  });
}

/** The files that ended (with their durations) and those still running, from the progress reporter. */
function progress() {
  const lines = existsSync(progressPath) ? readFileSync(progressPath, 'utf8').split('\n') : [];
  const running = new Map();
  const ended = [];
  for (const line of lines) {
    const [kind, path, ms, outcome] = line.split('\t');
    const file = relative(process.cwd(), path ?? '');
    if (kind === 'start') running.set(file, Number(ms));
    if (kind === 'end') {
      running.delete(file);
      ended.push({ file, ms: Number(ms), outcome });
    }
  }
  return { ended, running: [...running].map(([file, since]) => ({ file, since })) };
}

function printSlowest() {
  const { ended } = progress();
  const total = Date.now() - started;
  if (ended.length === 0) return;
  const slowest = [...ended].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_SHOWN);
  console.log(`\nrun-tests: ${ended.length} files in ${seconds(total)}; the slowest:`);
  for (const { file, ms, outcome } of slowest) {
    console.log(`  ${seconds(ms).padStart(7)}  ${file}${outcome === 'fail' ? '  (failed)' : ''}`);
  }
}

/**
 * Processes carrying a marker of this run (the node tests', or the Python tests' `which`): every process the tests
 * started, wherever it went. Linux only (/proc).
 */
function processesOfThisRun(which = marker) {
  if (!existsSync('/proc')) return [];
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0');
      if (!environ.includes(which)) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'latin1').replaceAll('\0', ' ').trim();
      found.push({ pid: Number(entry), command });
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

function kill(pid, signal) {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/**
 * SIGTERM to every process of the run (the runner, its file processes and whatever the tests started, found by the
 * marker), then SIGKILL to what is left after a few seconds. The runner stays in this process group, so whatever
 * stops `npm test` as a group still reaches it.
 */
async function stopEverything() {
  if (stopping) return new Promise(() => {});
  stopping = true;
  clearTimeout(watchdog);
  const ours = () => [...processesOfThisRun(), ...processesOfThisRun(`SJ_TEST_RUN=${pythonMarkerId}`)];
  kill(child.pid, 'SIGTERM');
  for (const { pid } of ours()) kill(pid, 'SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
  await new Promise((resolve) => setTimeout(resolve, 500));
  kill(child.pid, 'SIGKILL');
  for (const { pid } of ours()) kill(pid, 'SIGKILL');
  printPythonOutput();
}

function finish(code) {
  printSlowest();
  rmSync(scratch, { recursive: true, force: true });
  process.exit(code);
}

function seconds(ms) {
  return ms >= 60_000
    ? `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`
    : `${(ms / 1000).toFixed(1)} s`;
}
