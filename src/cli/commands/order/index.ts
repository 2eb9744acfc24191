// `sjgate order place|cancel|update-price|update-qty|list|events`: orders with the official CLI's flags. Enum values
// are written in lower or kebab case (buy, intraday-odd, margin-trading) and sent in the API's spelling (Buy,
// IntradayOdd).

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerCancel } from './cancel.js';
import { registerEvents } from './events.js';
import { registerList } from './list.js';
import { registerPlace } from './place.js';
import { registerUpdatePrice } from './update-price.js';
import { registerUpdateQty } from './update-qty.js';

export function registerOrder(program: Command, env: CliEnv): void {
  const order = program
    .command('order')
    .description('place, change and cancel orders; list trades')
    .addHelpText(
      'after',
      `
Enum values may be written in lower or kebab case (buy, intraday-odd, margin-trading) or as the
API spells them (Buy, IntradayOdd, MarginTrading). A refused order is printed with status Failed and
the reason in msg.

Examples:
  $ sjgate order place --code 2330 --action buy --price 1000 --quantity 1
  $ sjgate order place --code TXFR1 --action sell --price-type mkp --tif ioc --quantity 2
  $ sjgate order update-qty --id 90681873 --quantity 1
  $ sjgate order list --account-type S`,
    );
  registerPlace(order, env);
  registerCancel(order, env);
  registerUpdatePrice(order, env);
  registerUpdateQty(order, env);
  registerList(order, env);
  registerEvents(order, env);
}
