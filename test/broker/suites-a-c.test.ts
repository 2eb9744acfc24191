// The broker's suites whose names sort from a to c, in one process (see test/helpers/suites.ts). The broker's
// suites are split in five by name so that no one process runs for minutes on a loaded machine (the files' own limit
// is 3 minutes) and the two cores stay busy to the end of a run.

import { loadSuites } from '../helpers/suites.js';

await loadSuites(import.meta.dirname, (path) => !path.includes('/') && path < 'd');
