// `sjgate contracts options`: options of a product root, filtered by month, right and strike.

import { type Command, Option } from 'commander';
import { action, type CliEnv } from '../../context.js';
import { formatTable, type Row } from '../../output.js';
import { decimal, month, oneOf, text } from '../../parsers.js';
import { type Options, queryOf, regionOption } from './query.js';

const COLUMNS = ['code', 'name', 'delivery_month', 'strike_price', 'option_right', 'last_trading_date', 'reference'];

export function registerOptions(contracts: Command, env: CliEnv): void {
  contracts
    .command('options')
    .description('options of a product root, filtered by month, right and strike')
    .requiredOption('--root <ROOT>', 'product root, e.g. TXO', text)
    .option('--month <YYYYMM>', 'delivery month', month)
    .addOption(new Option('--right <C|P>', 'calls or puts').argParser(oneOf(['C', 'P'])))
    .option('--strike-min <PRICE>', 'lowest strike', decimal)
    .option('--strike-max <PRICE>', 'highest strike', decimal)
    .option('--expiry-weekday <DAY>', 'weekly options expiring on this weekday, e.g. Wed or Fri', text)
    .addOption(regionOption())
    .action(
      action<Options>(env, async (cli, o) => {
        const query = {
          root: o.root,
          delivery_month: o.month,
          option_right: o.right,
          strike_min: o.strikeMin,
          strike_max: o.strikeMax,
          expiry_weekday: o.expiryWeekday,
          region: o.region,
        };
        const list = await cli.call((client) => client.contracts.options<Row[]>(queryOf(query)));
        cli.emit(list, (rows, color) => formatTable(rows, COLUMNS, color));
      }),
    );
}
