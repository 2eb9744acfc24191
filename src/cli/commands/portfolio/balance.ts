// `sjgate portfolio balance`: the bank balance of a stock account.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { formatRecord, type Row } from '../../output.js';
import { accountOption } from '../../parsers.js';
import { portfolioQuery } from './query.js';
import { accountRequest } from './requests.js';

export function registerBalance(portfolio: Command, env: CliEnv): void {
  portfolio
    .command('balance')
    .description('the bank balance of a stock account')
    .addOption(accountOption('stock'))
    .addHelpText('after', '\nExample:\n  $ sjgate portfolio balance')
    .action(
      portfolioQuery<Row>(
        env,
        (client) => client.portfolio.accountBalance,
        (o) => accountRequest(o, 'S'),
        (value, color) => formatRecord(value, { color }),
      ),
    );
}
