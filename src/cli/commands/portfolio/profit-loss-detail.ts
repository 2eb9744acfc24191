// `sjgate portfolio profit-loss-detail`: the opening and closing trades behind one profit-loss row.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import type { Row } from '../../output.js';
import { accountOption } from '../../parsers.js';
import { accountTypeOption, detailIdOption, unitOption } from './flags.js';
import { portfolioQuery } from './query.js';
import { portfolioRequests } from './requests.js';
import { formatPortfolioRows } from './rows.js';

export function registerProfitLossDetail(portfolio: Command, env: CliEnv): void {
  portfolio
    .command('profit-loss-detail')
    .description('the opening and closing trades behind one profit-loss row')
    .addOption(detailIdOption('profit-loss'))
    .addOption(accountTypeOption())
    .addOption(accountOption('stock or futures'))
    .addOption(unitOption())
    .addHelpText('after', '\nExample:\n  $ sjgate portfolio profit-loss-detail --detail-id 0')
    .action(
      portfolioQuery<Row[]>(
        env,
        (client) => client.portfolio.profitLossDetail,
        portfolioRequests.profitLossDetail,
        (rows, color) => formatPortfolioRows('profitLossDetail', rows, color),
      ),
    );
}
