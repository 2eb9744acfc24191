// `sjgate portfolio balance|margin|positions|position-detail|profit-loss|profit-loss-detail|profit-loss-summary|
// settlements|trading-limits`: account queries with the official CLI's flags. Stock and futures rows get their own
// columns on a terminal; --format json prints the API response as it is.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerBalance } from './balance.js';
import { registerMargin } from './margin.js';
import { registerPositionDetail } from './position-detail.js';
import { registerPositions } from './positions.js';
import { registerProfitLoss } from './profit-loss.js';
import { registerProfitLossDetail } from './profit-loss-detail.js';
import { registerProfitLossSummary } from './profit-loss-summary.js';
import { registerSettlements } from './settlements.js';
import { registerTradingLimits } from './trading-limits.js';

export function registerPortfolio(program: Command, env: CliEnv): void {
  const portfolio = program
    .command('portfolio')
    .description('account balance, margin, positions, profit and loss, settlements and trading limits')
    .addHelpText(
      'after',
      `
--account is BROKER-ACCOUNT as \`sjgate auth accounts\` lists them; without it the default account
of the type is asked. Stock and futures accounts answer different columns; --format json prints the
API response as it is.

Examples:
  $ sjgate portfolio positions
  $ sjgate portfolio positions --account-type F
  $ sjgate portfolio positions --unit share
  $ sjgate portfolio profit-loss --begin-date 2026-11-02 --end-date today
  $ sjgate portfolio margin --account F002000-1234567`,
    );
  registerBalance(portfolio, env);
  registerMargin(portfolio, env);
  registerPositions(portfolio, env);
  registerPositionDetail(portfolio, env);
  registerProfitLoss(portfolio, env);
  registerProfitLossDetail(portfolio, env);
  registerProfitLossSummary(portfolio, env);
  registerSettlements(portfolio, env);
  registerTradingLimits(portfolio, env);
}
