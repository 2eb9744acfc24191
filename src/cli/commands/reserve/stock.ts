// `sjgate reserve stock CODE SHARES` (or --code, --share): reserve shares of a stock held; they may not be sold today.

import type { Command } from 'commander';
import type { ReserveStockResult } from '../../../domain/reserve.js';
import type { CliEnv } from '../../context.js';
import { formatResult, reserveCommand, stockArguments, stockRequest } from './request.js';

export function registerStock(reserve: Command, env: CliEnv): void {
  reserveCommand<ReserveStockResult>(reserve, env, {
    name: 'stock',
    description: 'reserve shares of a stock held (reserve_stock); exits 1 when SinoPac refuses',
    method: (client) => client.reserve.reserveStock,
    example: 'stock 2330 1000\n  $ sjgate reserve stock --code 2330 --share 1000',
    args: (command) => stockArguments(command, false),
    body: (args, options) => stockRequest(args, options, false),
    human: formatResult,
  });
}
