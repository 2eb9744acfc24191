// `sjgate contracts ...`: contract lookup (Contract V2), with the official CLI's flags, plus `combo` and `combos`.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerCombo } from './combo.js';
import { registerCombos } from './combos.js';
import { registerFutures } from './futures.js';
import { registerFuturesRoots } from './futures-roots.js';
import { registerGet } from './get.js';
import { registerInfo } from './info.js';
import { registerList } from './list.js';
import { registerOptionRoots } from './option-roots.js';
import { registerOptions } from './options.js';
import { registerTickBands } from './tick-bands.js';
import { registerWarrantUnderlyings } from './warrant-underlyings.js';
import { registerWarrants } from './warrants.js';
import { registerWatch } from './watch.js';

export function registerContracts(program: Command, env: CliEnv): void {
  const contracts = program
    .command('contracts')
    .description('look up contracts: stocks, indices, futures, options, warrants and combos')
    .addHelpText(
      'after',
      `
Examples:
  $ sjgate contracts get 2330
  $ sjgate contracts info TXFR1 --type FUT
  $ sjgate contracts list --type STK --page 1 --page-size 50
  $ sjgate contracts options --root TXO --right C --strike-min 40000 --strike-max 41000
  $ sjgate contracts combo --legs TXFR1,TXFR2`,
    );
  registerList(contracts, env);
  registerGet(contracts, env);
  registerInfo(contracts, env);
  registerFutures(contracts, env);
  registerOptions(contracts, env);
  registerWarrants(contracts, env);
  registerFuturesRoots(contracts, env);
  registerOptionRoots(contracts, env);
  registerWarrantUnderlyings(contracts, env);
  registerTickBands(contracts, env);
  registerCombo(contracts, env);
  registerWatch(contracts, env);
  registerCombos(contracts, env);
}
