// `sjgate data credit-enquire`: margin and short balances of stocks.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerStockCodesQuery } from './stock-codes.js';

export function registerCreditEnquire(data: Command, env: CliEnv): void {
  registerStockCodesQuery(data, env, {
    name: 'credit-enquire',
    method: (client) => client.data.creditEnquire,
    what: 'margin and short balances of stocks',
    columns: [
      'stock_id',
      'system',
      'margin_unit',
      'short_unit',
      'margin_loan_ratio',
      'short_margin_ratio',
      'update_time',
    ],
  });
}
