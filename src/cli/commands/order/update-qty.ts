// `sjgate order update-qty`: reduce a working order by a quantity.

import { type Command, Option } from 'commander';
import type { CliEnv } from '../../context.js';
import { integerIn } from '../../parsers.js';
import { registerChange } from './change.js';

export function registerUpdateQty(order: Command, env: CliEnv): void {
  registerChange(order, env, {
    name: 'update-qty',
    method: (client) => client.orders.updateQty,
    description: 'reduce a working order by a quantity (it keeps its price and place in the queue)',
    noun: 'quantity change',
    extra: new Option('--quantity <N>', 'how many to cancel').argParser(integerIn(1)).makeOptionMandatory(),
    body: (o) => ({ trade_id: o.id, quantity: o.quantity }),
    example: 'update-qty --id 90681873 --quantity 1',
  });
}
