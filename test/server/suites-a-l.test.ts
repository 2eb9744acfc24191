// The server's suites whose names sort from a to l, in one process (see test/helpers/suites.ts). The server's suites
// are split in three by name so that no one process runs for minutes on a loaded machine.

import { loadSuites } from '../helpers/suites.js';

await loadSuites(import.meta.dirname, (path) => path >= 'a' && path < 'm');
