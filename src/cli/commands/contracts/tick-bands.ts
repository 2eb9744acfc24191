// `sjgate contracts tick-bands`: the tick size by price band of a tick rule.

import type { Command } from 'commander';
import { action, type CliEnv } from '../../context.js';
import { formatHeading, formatTable } from '../../output.js';
import { text } from '../../parsers.js';
import { type Options, queryOf, regionOption, typeOption } from './query.js';

export function registerTickBands(contracts: Command, env: CliEnv): void {
  contracts
    .command('tick-bands')
    .description('the tick size by price band of a futures or options tick rule (Info.tick_rule)')
    .argument('<RULE>', 'tick rule, e.g. TXO', text)
    .addOption(typeOption(['FUT', 'OPT']).makeOptionMandatory())
    .addOption(regionOption())
    .action(
      action<Options>(env, async (cli, o, [rule]) => {
        const query = queryOf({ security_type: o.type, region: o.region });
        const bands = await cli.call((client) => client.contracts.tickBands(rule as string, query));
        cli.emit(bands, (value, color) => {
          const heading = `${value.rule} tick bands (${value.security_type}, ${value.basis} basis, ${value.region})`;
          return `${formatHeading(heading, color)}\n${formatTable(value.bands, ['min', 'max', 'tick'], color)}`;
        });
      }),
    );
}
