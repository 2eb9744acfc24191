// `sjgate data index-components`: the components of IX0001 or IX0043 now, with their weights and points, or their
// industry groups.

import type { Command } from 'commander';
import { MARKET_DATA_PATHS } from '../../../contract/paths.js';
import { action, type CliEnv } from '../../context.js';
import { formatTable, type Row } from '../../output.js';
import { text } from '../../parsers.js';

export interface IndexComponentsOptions {
  index: string;
  groups?: boolean | undefined;
}

interface IndexComponentsAnswer {
  contract: { code: string };
  entries: (Row & { contract: { code: string }; points: number })[];
  groups: Row[];
}

const ENTRY_COLUMNS = ['code', 'category', 'price', 'price_chg', 'pct_chg', 'points', 'weight_ppm', 'total_amount'];
const GROUP_COLUMNS = [
  'category',
  'name',
  'item_count',
  'points',
  'weighted_pct_chg',
  'reference_weight_ppm',
  'advance_count',
  'decline_count',
  'breadth_bps',
];

/** The components, most points first (either way), or the groups in their order. */
export function formatIndexComponents(answer: IndexComponentsAnswer, groups: boolean, color: boolean): string {
  if (groups) return formatTable(answer.groups, GROUP_COLUMNS, color);
  const rows = [...answer.entries]
    .sort((a, b) => Math.abs(b.points) - Math.abs(a.points))
    .map((entry) => ({ ...entry, code: entry.contract.code, weight_ppm: entry.reference_weight_ppm }));
  return formatTable(rows, ENTRY_COLUMNS, color);
}

export function registerIndexComponents(data: Command, env: CliEnv): void {
  data
    .command('index-components')
    .description("the components of IX0001 or IX0043 now: prices, points of the index's change, weights")
    .option('--index <CODE>', 'IX0001 (TAIEX) or IX0043 (TPEx)', text, 'IX0001')
    .option('--groups', 'show the industry groups instead of the components')
    .addHelpText(
      'after',
      `
Asks POST ${MARKET_DATA_PATHS.indexComponents}. The components' points add up to the index's change;
the table lists the components with the most points (either way) first, or with --groups each industry.
--format json prints the whole answer (entries and groups) as the API sends it.

Examples:
  $ sjgate data index-components
  $ sjgate data index-components --index IX0043 --groups
  $ sjgate data index-components --format json | jq '.groups[] | {name, points}'`,
    )
    .action(
      action<IndexComponentsOptions>(env, async (cli, options) => {
        const body = { contract: { code: options.index } };
        const answer = await cli.call((client) => client.data.indexComponents<IndexComponentsAnswer>(body));
        cli.emit(answer, (value, color) => formatIndexComponents(value, options.groups === true, color));
      }),
    );
}
