// `sjgate reserve earmarking-detail`: today's cash earmark requests.

import type { Command } from 'commander';
import type { EarmarkStocksDetail } from '../../../domain/reserve.js';
import type { CliEnv } from '../../context.js';
import { formatStocks, reserveCommand } from './request.js';

export function registerEarmarkingDetail(reserve: Command, env: CliEnv): void {
  reserveCommand<EarmarkStocksDetail>(reserve, env, {
    name: 'earmarking-detail',
    description: "today's cash earmark requests, accepted or refused (earmarking_detail)",
    method: (client) => client.reserve.earmarkingDetail,
    example: 'earmarking-detail',
    human: formatStocks,
  });
}
