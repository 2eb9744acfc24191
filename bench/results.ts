// Where `npm run bench` keeps its figures: every result as JSON in bench/results/<when>-<benchmark>.json (not
// committed), and bench/results/latest.json, the newest result of each benchmark with the machine it ran on, which is
// committed when a change is measured, so the next change is compared with it.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

export const RESULTS_DIR = join(import.meta.dirname, 'results');

export interface Machine {
  cpu: string;
  cores: number;
  memory_gb: number;
  node: string;
  load_1m: number;
}

export function machine(): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memory_gb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    load_1m: Math.round(loadavg()[0]! * 100) / 100,
  };
}

/** A result's name: its `benchmark` field, else the bench file it came from. */
export function nameOf(result: object, file: string): string {
  const named = (result as { benchmark?: unknown }).benchmark;
  return typeof named === 'string' ? named : file.replace(/\.bench\.ts$/, '');
}

/**
 * Writes one result under its own name and time, and makes it the latest of its benchmark; returns the file. `part`
 * numbers the results of a bench that gives several (they may share a benchmark name).
 */
export function saveResult(result: object, file: string, part: number | null, at = new Date(), dir = RESULTS_DIR) {
  mkdirSync(dir, { recursive: true });
  const name = `${nameOf(result, file)}${part === null ? '' : `-${part}`}`.replace(/[^\w.-]+/g, '_');
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  const record = { benchmark: name, at: at.toISOString(), machine: machine(), result };
  const path = join(dir, `${stamp}-${name}.json`);
  writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
  const latestPath = join(dir, 'latest.json');
  const latest = readLatest(latestPath);
  latest[name] = record;
  const sorted = Object.fromEntries(Object.entries(latest).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(latestPath, `${JSON.stringify(sorted, null, 2)}\n`);
  return path;
}

function readLatest(path: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}
