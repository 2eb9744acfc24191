// Loads test suites into the one process of an entry file: loading the source's modules through tsx costs about a
// second of CPU per process, which every test file paid once. Suites are modules named *.suite.ts (so the runner does
// not also start them as files of their own); every one found under the directory, and chosen by `chosen` (which sees
// its path relative to the directory), is loaded, in path order.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function loadSuites(dir: string, chosen: (path: string) => boolean = () => true): Promise<void> {
  const suites = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.suite.ts') && chosen(path))
    .sort();
  if (suites.length === 0) throw new Error(`no *.suite.ts under ${dir} for this entry file`);
  for (const suite of suites) await import(pathToFileURL(join(dir, suite)).href);
}
