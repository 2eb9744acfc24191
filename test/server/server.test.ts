// The server's tests, in one process: loading the server's modules through tsx costs about a second of CPU per process,
// which 34 files paid once each. Suites are modules named *.suite.ts under test/server (so the runner does not also start
// them as files of their own); every one found is loaded here, in path order.

import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const here = import.meta.dirname;
const suites = readdirSync(here, { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.suite.ts'))
  .sort();
for (const suite of suites) await import(`./${relative(here, join(here, suite))}`);
