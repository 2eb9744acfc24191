// `sjgate portfolio settlements`: cash to receive or pay today (T), T+1 and T+2 on a stock account.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { formatTable, type Row } from '../../output.js';
import { accountOption } from '../../parsers.js';
import { portfolioQuery } from './query.js';
import { accountRequest } from './requests.js';

export function registerSettlements(portfolio: Command, env: CliEnv): void {
  portfolio
    .command('settlements')
    .description('cash to receive or pay today (T), T+1 and T+2 on a stock account')
    .addOption(accountOption('stock'))
    .addHelpText('after', '\nExample:\n  $ sjgate portfolio settlements')
    .action(
      portfolioQuery<Row[]>(
        env,
        (client) => client.portfolio.settlements,
        (o) => accountRequest(o, 'S'),
        (rows, color) => formatTable(rows, ['T', 'date', 'amount'], color),
      ),
    );
}
