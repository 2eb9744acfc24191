// A scratch folder per test for CLI commands that read the environment: a data home in it (SJ_HOME_PATH), the given
// variables unset, and a working folder without .env; everything put back after the test.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'node:test';

export interface Scratch {
  /** The scratch folder of the running test. */
  dir: string;
  /** SJ_HOME_PATH of the running test, in `dir` (not made). */
  home: string;
}

/** Registers beforeEach/afterEach hooks in the calling suite; the returned object holds the running test's paths. */
export function scratchEnvironment(variables: readonly string[], prefix: string): Scratch {
  const scratch: Scratch = { dir: '', home: '' };
  const saved = Object.fromEntries(variables.map((name) => [name, process.env[name]]));
  const cwd = process.cwd();
  beforeEach(() => {
    scratch.dir = mkdtempSync(join(tmpdir(), prefix));
    scratch.home = join(scratch.dir, 'home');
    for (const name of variables) delete process.env[name];
    process.env.SJ_HOME_PATH = scratch.home;
    // A folder without .env, unless a test writes one.
    mkdirSync(join(scratch.dir, 'work'));
    process.chdir(join(scratch.dir, 'work'));
  });
  afterEach(() => {
    process.chdir(cwd);
    for (const name of variables) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    rmSync(scratch.dir, { recursive: true, force: true });
  });
  return scratch;
}
