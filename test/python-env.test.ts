import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { BRIDGE_PROJECT_DIR, bridgePython, venvDir } from '../src/python-env.js';
import { REPO_ROOT } from './helpers/import-graph.js';

test("the bridge's interpreter: SJ_PYTHON when set, else the venv under the data home", () => {
  assert.deepEqual(bridgePython({ SJ_PYTHON: ' /opt/py/bin/python3 ', SJ_HOME_PATH: '/data' }), {
    path: '/opt/py/bin/python3',
    source: 'SJ_PYTHON',
  });
  assert.deepEqual(bridgePython({ SJ_PYTHON: ' ', SJ_HOME_PATH: '/data' }), {
    path: '/data/python/bin/python',
    source: 'venv',
  });
  assert.equal(bridgePython({}).path, join(homedir(), '.sjgate', 'python', 'bin', 'python'));
  assert.equal(venvDir('/data'), '/data/python');
});

test('the Python project is found at the package root, and npm ships it', () => {
  assert.equal(BRIDGE_PROJECT_DIR, join(REPO_ROOT, 'python'));
  assert.ok(existsSync(join(BRIDGE_PROJECT_DIR, 'pyproject.toml')));
  const files = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { files: string[] }).files;
  for (const path of ['python/pyproject.toml', 'python/src/sjgate_bridge']) assert.ok(files.includes(path), path);
});
