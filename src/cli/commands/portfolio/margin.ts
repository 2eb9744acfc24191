// `sjgate portfolio margin`: the margin account of a futures account.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { formatRecord, type Row } from '../../output.js';
import { accountOption } from '../../parsers.js';
import { portfolioQuery } from './query.js';
import { accountRequest } from './requests.js';

export function registerMargin(portfolio: Command, env: CliEnv): void {
  portfolio
    .command('margin')
    .description('the margin account of a futures account: equity, margins, risk indicator')
    .addOption(accountOption('futures'))
    .addHelpText('after', '\nExample:\n  $ sjgate portfolio margin')
    .action(
      portfolioQuery<Row>(
        env,
        (client) => client.portfolio.margin,
        (o) => accountRequest(o, 'F'),
        (value, color) => formatRecord(value, { color }),
      ),
    );
}
