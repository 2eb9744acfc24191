// `sjgate reserve earmarking CODE SHARES PRICE` (or --code, --share, --price): earmark cash (shares x price) for a buy of a stock.

import type { Command } from 'commander';
import type { EarmarkingResult } from '../../../domain/reserve.js';
import type { CliEnv } from '../../context.js';
import { formatResult, reserveCommand, stockArguments, stockRequest } from './request.js';

export function registerEarmarking(reserve: Command, env: CliEnv): void {
  reserveCommand<EarmarkingResult>(reserve, env, {
    name: 'earmarking',
    description: 'earmark cash, shares x price, for a buy of a stock (reserve_earmarking); exits 1 when refused',
    method: (client) => client.reserve.reserveEarmarking,
    example: 'earmarking 2330 1000 580.5\n  $ sjgate reserve earmarking --code 2330 --share 1000 --price 580.5',
    args: (command) => stockArguments(command, true),
    body: (args, options) => stockRequest(args, options, true),
    human: (answer) => `${formatResult(answer)} (NT$${Math.round(answer.share * answer.price)} at ${answer.price})`,
  });
}
