// What `data credit-enquire` and `data short-stock-sources` share: stock codes in, one row per stock out.

import type { Command } from 'commander';
import type { ContractRef } from '../../../domain/market-data.js';
import { type PostMethod, postTo } from '../../client.js';
import { action, type CliEnv } from '../../context.js';
import { formatTable, type Row } from '../../output.js';
import { codeList } from '../../parsers.js';
import { type ContractOptions, contractRef, exchangeOption, securityTypeOption } from './flags.js';

export interface CodesOptions extends ContractOptions {
  codes: readonly string[];
}

/** The body of POST /data/credit_enquire and /data/short_stock_sources. */
export function contractsRequest(options: CodesOptions): { contracts: ContractRef[] } {
  return { contracts: options.codes.map((code) => contractRef(code, options)) };
}

/** A command that posts --codes with `method` and shows the answer's `columns`. */
export function registerStockCodesQuery(
  data: Command,
  env: CliEnv,
  query: { name: string; method: PostMethod; what: string; columns: readonly string[] },
): void {
  data
    .command(query.name)
    .description(`the ${query.what}`)
    .requiredOption('--codes <CODES>', 'stock codes separated by commas', codeList)
    .addOption(
      securityTypeOption(undefined, 'STK, the default (another type is taken, as by the official CLI, and refused)'),
    )
    .addOption(exchangeOption(['TSE', 'OTC']))
    .addHelpText('after', `\nExample:\n  $ sjgate data ${query.name} --codes 2330,2317`)
    .action(
      action<CodesOptions>(env, async (cli, options) => {
        const body = contractsRequest(options);
        const rows = await cli.call((client) => postTo<Row[]>(client, query.method, body));
        cli.emit(rows, (value, color) => formatTable(value, query.columns, color));
      }),
    );
}
