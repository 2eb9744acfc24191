// `sjgate order update-price`: change a working limit order's price.

import { type Command, Option } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerChange } from './change.js';
import { price } from './flags.js';

export function registerUpdatePrice(order: Command, env: CliEnv): void {
  registerChange(order, env, {
    name: 'update-price',
    method: (client) => client.orders.updatePrice,
    description: "change a working limit order's price",
    noun: 'price change',
    extra: new Option('--price <PRICE>', 'the new limit price').argParser(price).makeOptionMandatory(),
    body: (o) => ({ trade_id: o.id, price: o.price }),
    example: 'update-price --id 90681873 --price 1005',
  });
}
