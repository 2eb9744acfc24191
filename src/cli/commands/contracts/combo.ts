// `sjgate contracts combo`: build the combo contract of two futures or options legs.

import { type Command, Option } from 'commander';
import { CONTRACT_PATHS, contractPath } from '../../../contract/paths.js';
import type { Contract } from '../../../contract/wire.js';
import { COMBO_TYPES } from '../../../domain/contracts.js';
import { action, type CliEnv, UsageError } from '../../context.js';
import { formatRecord, type Row } from '../../output.js';
import { codeList, oneOf } from '../../parsers.js';
import { type Options, queryOf, regionOption } from './query.js';

export function registerCombo(contracts: Command, env: CliEnv): void {
  contracts
    .command('combo')
    .description('build the combo contract of two futures or options legs')
    .requiredOption('--legs <CODE1,CODE2>', 'the two leg codes, comma-separated', codeList)
    .addOption(new Option('--combo-type <TYPE>', `combo type: ${COMBO_TYPES.join(', ')}`).argParser(oneOf(COMBO_TYPES)))
    .addOption(regionOption())
    .addHelpText(
      'after',
      `
Each leg code is looked up first for its security type and exchange.

Examples:
  $ sjgate contracts combo --legs TXFG6,TXFH6
  $ sjgate contracts combo --legs TXO43000G6,TXO43000S6 --combo-type Straddle`,
    )
    .action(
      action<Options>(env, async (cli, o) => {
        const codes = o.legs as string[];
        if (codes.length !== 2) throw new UsageError(`--legs takes two codes, got ${codes.length}`);
        const combo = await cli.call(async (client) => {
          const legs: Pick<Contract, 'security_type' | 'exchange' | 'code'>[] = [];
          for (const code of codes) {
            const leg = await client.get<Contract>(contractPath(code), queryOf({ region: o.region }));
            legs.push({ security_type: leg.security_type, exchange: leg.exchange, code: leg.code });
          }
          const body = o.comboType === undefined ? { legs } : { legs, combo_type: o.comboType };
          return client.post<Row>(CONTRACT_PATHS.combo, body);
        });
        cli.emit(combo, (value, color) => formatRecord(value, { color }));
      }),
    );
}
