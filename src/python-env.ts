// Where the Python of the production bridge is: the virtual environment `sjgate setup production` makes under the
// data home, the interpreter the daemon runs the sidecar with, and the sidecar's package as this npm package ships
// it. Shared by the CLI and the server, so it imports neither (nor the broker).

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { homePathOf } from './config.js';

/** The oldest Python the bridge runs on (python/pyproject.toml says the same: requires-python >= 3.11). */
export const MIN_PYTHON = { major: 3, minor: 11 } as const;

/** The virtual environment of the bridge: <data home>/python. */
export function venvDir(homePath: string): string {
  return join(homePath, 'python');
}

/** The interpreter of a virtual environment. */
export function venvPython(venv: string): string {
  return process.platform === 'win32' ? join(venv, 'Scripts', 'python.exe') : join(venv, 'bin', 'python');
}

export interface BridgePython {
  /** A path, or a command name looked up on PATH (SJ_PYTHON may be either). */
  path: string;
  /** SJ_PYTHON named it, or it is the interpreter of the venv under the data home. */
  source: 'SJ_PYTHON' | 'venv';
}

/** The interpreter the daemon runs the sidecar with: SJ_PYTHON when set, else <data home>/python/bin/python. */
export function bridgePython(env: NodeJS.ProcessEnv = process.env): BridgePython {
  const named = env.SJ_PYTHON?.trim();
  if (named) return { path: named, source: 'SJ_PYTHON' };
  return { path: venvPython(venvDir(homePathOf(env))), source: 'venv' };
}

/**
 * The sidecar's Python project (pyproject.toml and src/sjgate_bridge/) at the root of this package: this file is
 * src/python-env.ts in the repository and dist/python-env.js in an installed package, one level below the root
 * either way.
 */
export const BRIDGE_PROJECT_DIR = fileURLToPath(new URL('../python', import.meta.url));
