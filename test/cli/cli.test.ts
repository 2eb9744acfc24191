// The CLI's tests, in one process (see test/helpers/suites.ts): every *.suite.ts under test/cli.

import { loadSuites } from '../helpers/suites.js';

await loadSuites(import.meta.dirname);
