// `sjgate portfolio positions`: open positions of a stock or futures account.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import type { Row } from '../../output.js';
import { accountOption } from '../../parsers.js';
import { accountTypeOption, unitOption } from './flags.js';
import { portfolioQuery } from './query.js';
import { portfolioRequests } from './requests.js';
import { formatPortfolioRows } from './rows.js';

export function registerPositions(portfolio: Command, env: CliEnv): void {
  portfolio
    .command('positions')
    .description('open positions of a stock or futures account, valued at the last price')
    .addOption(accountTypeOption())
    .addOption(accountOption('stock or futures'))
    .addOption(unitOption())
    .addHelpText(
      'after',
      '\nExamples:\n  $ sjgate portfolio positions\n  $ sjgate portfolio positions --unit share\n' +
        '  $ sjgate portfolio positions --account-type F',
    )
    .action(
      portfolioQuery<Row[]>(
        env,
        (client) => client.portfolio.positionUnit,
        portfolioRequests.positions,
        (rows, color) => formatPortfolioRows('positions', rows, color),
      ),
    );
}
