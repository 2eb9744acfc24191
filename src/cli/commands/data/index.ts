// `sjgate data ticks|kbars|snapshots|scanner|credit-enquire|short-stock-sources|regulatory|daily-quotes|stream|
// index-stream|index-components|scanner-watch`:
// market data with the official CLI's flags. Column-oriented answers are shown one row per entry.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerCreditEnquire } from './credit-enquire.js';
import { registerDailyQuotes } from './daily-quotes.js';
import { registerIndexComponents } from './index-components.js';
import { registerIndexStream } from './index-stream.js';
import { registerKbars } from './kbars.js';
import { registerRegulatory } from './regulatory.js';
import { registerScanner } from './scanner.js';
import { registerScannerWatch } from './scanner-watch.js';
import { registerShortStockSources } from './short-stock-sources.js';
import { registerSnapshots } from './snapshots.js';
import { registerStream } from './stream.js';
import { registerTicks } from './ticks.js';

export function registerData(program: Command, env: CliEnv): void {
  const data = program
    .command('data')
    .description('market data: ticks, kbars, snapshots, rankings, credit, short sources, regulatory lists, quotes')
    .addHelpText(
      'after',
      `
Dates are YYYY-MM-DD or 'today' (the date in Taiwan). Column-oriented answers (ticks, kbars,
regulatory, daily-quotes) are shown one row per entry; --format json prints the API response as it is,
--json FIELDS only the named columns.

Examples:
  $ sjgate data ticks --code 2330 --last 20
  $ sjgate data kbars --code TXFR1 --start 2026-07-01 --end 2026-07-03
  $ sjgate data snapshots --codes 2330,2317,TXFR1+TXFR2
  $ sjgate data scanner --scanner-type volume-rank --count 20 --ascending
  $ sjgate data scanner-watch --rule volume_burst --exchange TSE`,
    );
  registerTicks(data, env);
  registerKbars(data, env);
  registerSnapshots(data, env);
  registerScanner(data, env);
  registerCreditEnquire(data, env);
  registerShortStockSources(data, env);
  registerRegulatory(data, env);
  registerDailyQuotes(data, env);
  registerStream(data, env);
  registerIndexStream(data, env);
  registerIndexComponents(data, env);
  registerScannerWatch(data, env);
}
