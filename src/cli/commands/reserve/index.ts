// `sjgate reserve summary|detail|stock|earmarking-detail|earmarking`: share and cash pre-collection (預收券款) of a
// stock account. Not reservation orders: a reserve sets aside shares held, an earmark cash, for today.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerDetail } from './detail.js';
import { registerEarmarking } from './earmarking.js';
import { registerEarmarkingDetail } from './earmarking-detail.js';
import { registerStock } from './stock.js';
import { registerSummary } from './summary.js';

export function registerReserve(program: Command, env: CliEnv): void {
  const reserve = program
    .command('reserve')
    .description('share reserves and cash earmarks (預收券款) of a stock account')
    .addHelpText(
      'after',
      `
--account is BROKER-ACCOUNT as \`sjgate auth accounts\` lists them; without it the default stock
account. A request SinoPac refuses prints its reason and exits 1; --format json prints the answer.

Examples:
  $ sjgate reserve summary
  $ sjgate reserve stock 2330 1000
  $ sjgate reserve stock --code 2330 --share 1000          # the official CLI's flags work too
  $ sjgate reserve earmarking 2330 1000 580.5
  $ sjgate reserve detail --format json`,
    );
  registerSummary(reserve, env);
  registerDetail(reserve, env);
  registerStock(reserve, env);
  registerEarmarkingDetail(reserve, env);
  registerEarmarking(reserve, env);
}
