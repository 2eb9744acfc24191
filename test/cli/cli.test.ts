// The CLI's tests, in one process: loading the CLI's modules through tsx costs about a second of CPU per process,
// which 75 files paid once each. Suites are modules named *.suite.ts under test/cli (so the runner does not also start
// them as files of their own); every one found is loaded here, in path order.

import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const here = import.meta.dirname;
const suites = readdirSync(here, { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.suite.ts'))
  .sort();
for (const suite of suites) await import(`./${relative(here, join(here, suite))}`);
