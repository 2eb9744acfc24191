// `sjgate portfolio profit-loss-summary`: realized profit and loss between two dates, summed per code, with the total.

import type { Command } from 'commander';
import type { ProfitLossSummary } from '../../../contract/wire.js';
import type { CliEnv } from '../../context.js';
import { formatHeading, formatRecord } from '../../output.js';
import { accountOption } from '../../parsers.js';
import { accountTypeOption, beginDateOption, endDateOption } from './flags.js';
import { portfolioQuery } from './query.js';
import { portfolioRequests } from './requests.js';
import { formatPortfolioRows } from './rows.js';

export function formatProfitLossSummary(summary: ProfitLossSummary, color = false): string {
  return [
    formatPortfolioRows('profitLossSummary', summary.profitloss_sum, color),
    formatHeading('total', color),
    formatRecord(summary.total, { indent: 2, color }),
  ].join('\n');
}

export function registerProfitLossSummary(portfolio: Command, env: CliEnv): void {
  portfolio
    .command('profit-loss-summary')
    .description('realized profit and loss between two dates, summed per code, with the total')
    .addOption(accountTypeOption())
    .addOption(accountOption('stock or futures'))
    .addOption(beginDateOption())
    .addOption(endDateOption())
    .addHelpText('after', '\nExample:\n  $ sjgate portfolio profit-loss-summary --begin-date 2026-11-02')
    .action(
      portfolioQuery<ProfitLossSummary>(
        env,
        (client) => client.portfolio.profitLossSum,
        (o) => portfolioRequests.profitLossSummary(o),
        formatProfitLossSummary,
      ),
    );
}
