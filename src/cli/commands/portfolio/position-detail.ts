// `sjgate portfolio position-detail`: the trades that make up one position.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import type { Row } from '../../output.js';
import { accountOption } from '../../parsers.js';
import { accountTypeOption, detailIdOption } from './flags.js';
import { portfolioQuery } from './query.js';
import { portfolioRequests } from './requests.js';
import { formatPortfolioRows } from './rows.js';

export function registerPositionDetail(portfolio: Command, env: CliEnv): void {
  portfolio
    .command('position-detail')
    .description('the trades that make up one position')
    .addOption(detailIdOption('positions'))
    .addOption(accountTypeOption())
    .addOption(accountOption('stock or futures'))
    .addHelpText('after', '\nExample:\n  $ sjgate portfolio position-detail --detail-id 0')
    .action(
      portfolioQuery<Row[]>(
        env,
        (client) => client.portfolio.positionDetail,
        portfolioRequests.positionDetail,
        (rows, color) => formatPortfolioRows('positionDetail', rows, color),
      ),
    );
}
