// `sjgate data regulatory`: stocks under disposition (punish) or attention (notice).

import { type Command, Option } from 'commander';
import type { DaemonClient } from '../../client.js';
import { action, type CliEnv } from '../../context.js';
import { formatTable, rowsOfColumns } from '../../output.js';
import { oneOf } from '../../parsers.js';
import type { Columns } from './flags.js';

export const REGULATORY_TYPES = ['punish', 'notice'] as const;
export type RegulatoryType = (typeof REGULATORY_TYPES)[number];

/** The client method of one list. */
export function regulatoryList(client: DaemonClient, type: RegulatoryType = 'punish') {
  return type === 'punish' ? client.data.regulatoryPunish : client.data.regulatoryNotice;
}

export function registerRegulatory(data: Command, env: CliEnv): void {
  data
    .command('regulatory')
    .description('stocks under disposition (punish) or attention (notice)')
    .addOption(
      new Option('--type <TYPE>', `list: ${REGULATORY_TYPES.join(', ')}`)
        .argParser(oneOf(REGULATORY_TYPES))
        .default('punish'),
    )
    .addHelpText('after', '\nExamples:\n  $ sjgate data regulatory\n  $ sjgate data regulatory --type notice')
    .action(
      action<{ type?: RegulatoryType }>(env, async (cli, options) => {
        const list = await cli.call((client) => regulatoryList(client, options.type)<Columns>());
        cli.emit(list, (value, color) => formatTable(rowsOfColumns(value), undefined, color));
      }),
    );
}
