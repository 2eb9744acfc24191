// `sjgate contracts warrants`: warrants on an underlying stock.

import { type Command, Option } from 'commander';
import { action, type CliEnv } from '../../context.js';
import { formatTable, type Row } from '../../output.js';
import { date, decimal, oneOf, text } from '../../parsers.js';
import { type Options, queryOf, regionOption } from './query.js';

const COLUMNS = [
  'code',
  'name',
  'underlying_code',
  'call_put',
  'strike_price',
  'exercise_ratio',
  'expiry_date',
  'last_trading_date',
  'reference',
];

export function registerWarrants(contracts: Command, env: CliEnv): void {
  contracts
    .command('warrants')
    .description('warrants on an underlying stock')
    .requiredOption('--underlying <CODE>', 'underlying stock code, e.g. 2330', text)
    .option('--code <CODE>', 'one warrant', text)
    .addOption(new Option('--call-put <C|P>', 'calls or puts').argParser(oneOf(['C', 'P'])))
    .option('--strike-min <PRICE>', 'lowest strike', decimal)
    .option('--strike-max <PRICE>', 'highest strike', decimal)
    .option('--expiry-from <YYYY-MM-DD>', 'earliest expiry date', date)
    .option('--expiry-to <YYYY-MM-DD>', 'latest expiry date', date)
    .addOption(regionOption())
    .action(
      action<Options>(env, async (cli, o) => {
        const query = {
          underlying_code: o.underlying,
          code: o.code,
          call_put: o.callPut,
          strike_min: o.strikeMin,
          strike_max: o.strikeMax,
          expiry_from: o.expiryFrom,
          expiry_to: o.expiryTo,
          region: o.region,
        };
        const list = await cli.call((client) => client.contracts.warrants<Row[]>(queryOf(query)));
        cli.emit(list, (rows, color) => formatTable(rows, COLUMNS, color));
      }),
    );
}
