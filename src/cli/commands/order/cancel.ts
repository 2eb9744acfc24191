// `sjgate order cancel`: cancel what is left of an order.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerChange } from './change.js';

export function registerCancel(order: Command, env: CliEnv): void {
  registerChange(order, env, {
    name: 'cancel',
    method: (client) => client.orders.cancelOrder,
    description: 'cancel what is left of an order',
    noun: 'cancel',
    body: (o) => ({ trade_id: o.id }),
    example: 'cancel --id 90681873',
  });
}
