// The broker's tests whose names sort from l to p, in one process (see test/helpers/suites.ts). The broker's suites are
// split in three by name so that no one process runs for minutes on a loaded machine.

import { loadSuites } from '../helpers/suites.js';

await loadSuites(import.meta.dirname, (path) => !path.includes('/') && path >= 'l' && path < 'q');
