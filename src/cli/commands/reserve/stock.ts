// `sjgate reserve stock CODE SHARES`: reserve shares of a stock held; they may not be sold today.

import type { Command } from 'commander';
import { RESERVE_PATHS } from '../../../contract/paths.js';
import { MAX_RESERVE_SHARES, type ReserveStockResult } from '../../../domain/reserve.js';
import type { CliEnv } from '../../context.js';
import { integerIn, text } from '../../parsers.js';
import { formatResult, reserveCommand } from './request.js';

export function registerStock(reserve: Command, env: CliEnv): void {
  reserveCommand<ReserveStockResult>(reserve, env, {
    name: 'stock',
    description: 'reserve shares of a stock held (reserve_stock); exits 1 when SinoPac refuses',
    path: RESERVE_PATHS.reserveStock,
    example: 'stock 2330 1000',
    args: (command) =>
      command
        .argument('<CODE>', 'stock code, e.g. 2330', text)
        .argument('<SHARES>', `shares (not lots), 1 to ${MAX_RESERVE_SHARES}`, integerIn(1, MAX_RESERVE_SHARES)),
    body: ([code, share]) => ({ contract: { code }, share }),
    human: formatResult,
  });
}
