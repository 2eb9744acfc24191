// The data home holds the journal (orders, cash, positions) and the hosted apps: only its owner may read it. A home
// made by an earlier version, or by hand with the usual umask, is tightened at start, and the change is logged.

import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';

const OWNER_ONLY_DIR = 0o700;
const OWNER_ONLY_FILE = 0o600;
export const JOURNAL_FILE = 'sjgate.db';
const PRIVATE_FILES = [
  JOURNAL_FILE,
  `${JOURNAL_FILE}-wal`,
  `${JOURNAL_FILE}-shm`,
  'subscriptions.json',
  'monitor.json',
  'monitor-metrics.json',
];

/** Makes the home and an empty journal file, both owner-only; SQLite gives its -wal and -shm files the same mode. */
export function createDataHome(home: string): void {
  mkdirSync(home, { recursive: true, mode: OWNER_ONLY_DIR });
  closeSync(openSync(join(home, JOURNAL_FILE), 'a', OWNER_ONLY_FILE));
}

/** Takes group and other permissions off the home, its journal files and its apps folder; logs each change. */
export function tightenDataHome(home: string, log: (line: string) => void): void {
  const paths: [string, number][] = [
    [home, OWNER_ONLY_DIR],
    [join(home, 'apps'), OWNER_ONLY_DIR],
    ...PRIVATE_FILES.map((name): [string, number] => [join(home, name), OWNER_ONLY_FILE]),
  ];
  for (const [path, mode] of paths) {
    const before = permissionsOf(path);
    if (before === null || (before & ~mode) === 0) continue;
    chmodSync(path, mode);
    log(`tightened the permissions of ${path} from ${octal(before)} to ${octal(mode)} (it holds trading data)`);
  }
}

function permissionsOf(path: string): number | null {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return null;
  }
}

const octal = (mode: number) => `0${mode.toString(8)}`;
