// Runs every benchmark (or those named on the command line) and prints one JSON object per result.

import { readdirSync } from 'node:fs';

const only = process.argv.slice(2);
const files = readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((name) => f.includes(name)))
  .sort();

for (const file of files) {
  const module = (await import(`./${file}`)) as { run: () => Promise<object | object[]> };
  const results = await module.run();
  for (const result of [results].flat()) console.log(JSON.stringify(result));
}
