// `sjgate reserve earmarking CODE SHARES PRICE`: earmark cash (shares x price) for a buy of a stock.

import type { Command } from 'commander';
import { RESERVE_PATHS } from '../../../contract/paths.js';
import { type EarmarkingResult, MAX_RESERVE_SHARES } from '../../../domain/reserve.js';
import type { CliEnv } from '../../context.js';
import { decimal, integerIn, text } from '../../parsers.js';
import { formatResult, reserveCommand } from './request.js';

export function registerEarmarking(reserve: Command, env: CliEnv): void {
  reserveCommand<EarmarkingResult>(reserve, env, {
    name: 'earmarking',
    description: 'earmark cash, shares x price, for a buy of a stock (reserve_earmarking); exits 1 when refused',
    path: RESERVE_PATHS.reserveEarmarking,
    example: 'earmarking 2330 1000 580.5',
    args: (command) =>
      command
        .argument('<CODE>', 'stock code, e.g. 2330', text)
        .argument('<SHARES>', `shares (not lots), 1 to ${MAX_RESERVE_SHARES}`, integerIn(1, MAX_RESERVE_SHARES))
        .argument('<PRICE>', 'price per share', decimal),
    body: ([code, share, price]) => ({ contract: { code }, share, price }),
    human: (answer) => `${formatResult(answer)} (NT$${Math.round(answer.share * answer.price)} at ${answer.price})`,
  });
}
