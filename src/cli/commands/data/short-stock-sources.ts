// `sjgate data short-stock-sources`: shares available to borrow for short sales.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerStockCodesQuery } from './stock-codes.js';

export function registerShortStockSources(data: Command, env: CliEnv): void {
  registerStockCodesQuery(data, env, {
    name: 'short-stock-sources',
    method: (client) => client.data.shortStockSources,
    what: 'shares available to borrow for short sales',
    columns: ['code', 'short_stock_source', 'datetime'],
  });
}
