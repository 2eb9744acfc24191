// `sjgate contracts combo`: build the combo contract of two futures or options legs.

import { type Command, Option } from 'commander';
import type { ComboRequest } from '../../../contract/wire.js';
import { COMBO_TYPES, type ComboType } from '../../../domain/contracts.js';
import { action, type CliEnv, UsageError } from '../../context.js';
import { formatRecord } from '../../output.js';
import { codeList, oneOf } from '../../parsers.js';
import { queryOf, regionOption } from './query.js';

interface ComboOptions {
  legs: string[];
  comboType?: ComboType;
  region?: string;
}

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
Each leg code is looked up first for its security type and exchange; a continuous alias (TXFR1, TXFR2)
stands for the month it is today. Option legs are listed by \`sjgate contracts options --root TXO\`.

Examples:
  $ sjgate contracts combo --legs TXFR1,TXFR2
  $ sjgate contracts combo --legs MXFR1,MXFR2 --format json`,
    )
    .action(
      action<ComboOptions>(env, async (cli, o) => {
        const codes = o.legs;
        if (codes.length !== 2) throw new UsageError(`--legs takes two codes, got ${codes.length}`);
        const combo = await cli.call(async (client) => {
          const legs: ComboRequest['legs'] = [];
          for (const code of codes) {
            const leg = await client.contracts.get(code, queryOf({ region: o.region }));
            // A continuous alias stands for its month today: combos are of specific months.
            legs.push({ security_type: leg.security_type, exchange: leg.exchange, code: leg.target_code ?? leg.code });
          }
          const body = o.comboType === undefined ? { legs } : { legs, combo_type: o.comboType };
          return client.contracts.combo(body);
        });
        cli.emit(combo, (value, color) => formatRecord(value, { color }));
      }),
    );
}
