// `sjgate contracts futures`: futures of a product root, or every futures on an underlying.

import { type Command, Option } from 'commander';
import { action, type CliEnv, UsageError } from '../../context.js';
import { formatTable, type Row } from '../../output.js';
import { month, text } from '../../parsers.js';
import { type Options, queryOf, regionOption } from './query.js';

const COLUMNS = [
  'code',
  'name',
  'delivery_month',
  'last_trading_date',
  'reference',
  'limit_up',
  'limit_down',
  'target_code',
];

export function registerFutures(contracts: Command, env: CliEnv): void {
  contracts
    .command('futures')
    .description('futures of a product root, or every futures on an underlying')
    .addOption(new Option('--root <ROOT>', 'product root, e.g. TXF').argParser(text).conflicts('underlying'))
    .option('--underlying <CODE>', 'underlying code, e.g. 2330 or IX0001', text)
    .option('--month <YYYYMM>', 'delivery month', month)
    .addOption(regionOption())
    .addHelpText(
      'after',
      '\nGive --root or --underlying.\n\nExample:\n  $ sjgate contracts futures --root TXF --month 202607',
    )
    .action(
      action<Options>(env, async (cli, o) => {
        if (o.root === undefined && o.underlying === undefined) throw new UsageError('give --root or --underlying');
        const query = { root: o.root, underlying_code: o.underlying, delivery_month: o.month, region: o.region };
        const list = await cli.call((client) => client.contracts.futures<Row[]>(queryOf(query)));
        cli.emit(list, (rows, color) => formatTable(rows, COLUMNS, color));
      }),
    );
}
