// `sjgate contracts list`: the contracts of one security type.

import type { Command } from 'commander';
import { SECURITY_TYPES } from '../../../domain/contracts.js';
import { action, type CliEnv } from '../../context.js';
import { formatTable } from '../../output.js';
import { integerIn } from '../../parsers.js';
import { type Options, queryOf, regionOption, typeOption } from './query.js';

const COLUMNS = ['code', 'security_type', 'exchange', 'region', 'target_code'];

export function registerList(contracts: Command, env: CliEnv): void {
  contracts
    .command('list')
    .description('list the contracts of one security type (all of them, or one page with --page/--page-size)')
    .addOption(typeOption(SECURITY_TYPES).makeOptionMandatory())
    .option('--page <N>', 'page number, from 1', integerIn(1))
    .option('--page-size <N>', 'contracts per page (alone: page 1)', integerIn(1))
    .addOption(regionOption())
    .action(
      action<Options>(env, async (cli, o) => {
        const query = { security_type: o.type, page: o.page, page_size: o.pageSize, region: o.region };
        const list = await cli.call((client) => client.contracts.list(queryOf(query)));
        cli.emit(list, (value, color) => {
          const footer =
            value.page === undefined
              ? `total ${value.total}`
              : `page ${value.page} of ${value.max_page ?? '?'} (total ${value.total})`;
          return `${formatTable(value.contracts, COLUMNS, color)}\n${footer}`;
        });
      }),
    );
}
