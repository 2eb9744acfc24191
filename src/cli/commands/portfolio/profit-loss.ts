// `sjgate portfolio profit-loss`: realized profit and loss, one row per closing trade, between two dates.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import type { Row } from '../../output.js';
import { accountOption } from '../../parsers.js';
import { accountTypeOption, beginDateOption, endDateOption, unitOption } from './flags.js';
import { portfolioQuery } from './query.js';
import { portfolioRequests } from './requests.js';
import { formatPortfolioRows } from './rows.js';

export function registerProfitLoss(portfolio: Command, env: CliEnv): void {
  portfolio
    .command('profit-loss')
    .description('realized profit and loss, one row per closing trade, between two dates')
    .addOption(accountTypeOption())
    .addOption(accountOption('stock or futures'))
    .addOption(beginDateOption())
    .addOption(endDateOption())
    .addOption(unitOption())
    .addHelpText(
      'after',
      '\nExamples:\n  $ sjgate portfolio profit-loss\n' +
        '  $ sjgate portfolio profit-loss --begin-date 2026-11-02 --end-date 2026-11-20 --account-type F',
    )
    .action(
      portfolioQuery<Row[]>(
        env,
        (client) => client.portfolio.profitLoss,
        (o) => portfolioRequests.profitLoss(o),
        (rows, color) => formatPortfolioRows('profitLoss', rows, color),
      ),
    );
}
