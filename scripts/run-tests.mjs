#!/usr/bin/env node
// Runs every test file with node:test through tsx. Node 20 does not expand globs in --test,
// and `node --test` with no files passes with zero tests, so the list is built here and must not be empty.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const filter = process.argv.slice(2);
const files = findTests('test')
  .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
  .sort();
if (files.length === 0) {
  console.error('run-tests: no test files found under test/');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
});
const nodeStatus = result.status ?? 1;
// A filtered run (`node scripts/run-tests.mjs <part>`) is for the test files named; the Python tests come with the
// full run only.
process.exit(filter.length === 0 ? Math.max(nodeStatus, runPythonTests()) : nodeStatus);

/**
 * The Python tests (python/tests: Schemathesis against the real daemon built in dist/) in the virtual environment
 * python/.venv. Without it they are skipped with a note, unless SJ_PYTHON_TESTS=required (as .ci/run sets).
 */
function runPythonTests() {
  const pytest = join('python', '.venv', 'bin', 'pytest');
  if (!existsSync(pytest)) {
    const required = process.env.SJ_PYTHON_TESTS === 'required';
    console.error(
      `run-tests: ${required ? 'the Python tests are required but' : 'skipping the Python tests:'} ${pytest} is missing. ` +
        "Create it with: python3 -m venv python/.venv && python/.venv/bin/pip install -e 'python[test]'",
    );
    return required ? 1 : 0;
  }
  const python = spawnSync(pytest, ['python/tests'], { stdio: 'inherit' });
  return python.status ?? 1;
}
