// `sjgate reserve detail`: today's share reserve requests.

import type { Command } from 'commander';
import type { ReserveStocksDetail } from '../../../domain/reserve.js';
import type { CliEnv } from '../../context.js';
import { formatStocks, reserveCommand } from './request.js';

export function registerDetail(reserve: Command, env: CliEnv): void {
  reserveCommand<ReserveStocksDetail>(reserve, env, {
    name: 'detail',
    description: "today's share reserve requests, accepted or refused (stock_reserve_detail)",
    method: (client) => client.reserve.stockReserveDetail,
    example: 'detail',
    human: formatStocks,
  });
}
