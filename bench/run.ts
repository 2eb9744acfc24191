// Runs every benchmark (or those named on the command line) and prints one JSON object per result; each is also kept
// under bench/results/ (results.ts), so a change can be compared with the last run.

import { readdirSync } from 'node:fs';
import { saveResult } from './results.js';

const only = process.argv.slice(2);
const files = readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((name) => f.includes(name)))
  .sort();

for (const file of files) {
  const module = (await import(`./${file}`)) as { run: () => Promise<object | object[]> };
  const results = await module.run();
  const all = [results].flat();
  for (const [i, result] of all.entries()) {
    console.log(JSON.stringify(result));
    saveResult(result, file, all.length > 1 ? i + 1 : null);
  }
}
