// `sjgate portfolio trading-limits`: trading, margin-purchase and short-sale limits of a stock account.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { formatTable } from '../../output.js';
import { accountOption } from '../../parsers.js';
import { portfolioQuery } from './query.js';
import { accountRequest } from './requests.js';

/** Trading, margin and short limits as three rows of limit, used and available. */
export function formatTradingLimits(limits: Readonly<Record<string, number>>, color = false): string {
  return formatTable(
    (['trading', 'margin', 'short'] as const).map((kind) => ({
      type: kind,
      limit: limits[`${kind}_limit`],
      used: limits[`${kind}_used`],
      available: limits[`${kind}_available`],
    })),
    undefined,
    color,
  );
}

export function registerTradingLimits(portfolio: Command, env: CliEnv): void {
  portfolio
    .command('trading-limits')
    .description('trading, margin-purchase and short-sale limits of a stock account: used and available')
    .addOption(accountOption('stock'))
    .addHelpText('after', '\nExample:\n  $ sjgate portfolio trading-limits')
    .action(
      portfolioQuery<Record<string, number>>(
        env,
        (client) => client.portfolio.tradingLimits,
        (o) => accountRequest(o, 'S'),
        formatTradingLimits,
      ),
    );
}
