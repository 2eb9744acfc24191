// `sjgate reserve summary`: shares held and reserved today, per stock.

import type { Command } from 'commander';
import type { ReserveStocksSummary } from '../../../domain/reserve.js';
import type { CliEnv } from '../../context.js';
import { formatStocks, reserveCommand } from './request.js';

export function registerSummary(reserve: Command, env: CliEnv): void {
  reserveCommand<ReserveStocksSummary>(reserve, env, {
    name: 'summary',
    description: 'shares held and reserved today, per stock (stock_reserve_summary)',
    method: (client) => client.reserve.stockReserveSummary,
    example: 'summary',
    human: formatStocks,
  });
}
