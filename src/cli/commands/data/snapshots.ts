// `sjgate data snapshots`: the current snapshot of codes and combos.

import type { Command } from 'commander';
import type { InstrumentRef } from '../../../contract/wire.js';
import { action, type CliEnv } from '../../context.js';
import { formatTable, type Row } from '../../output.js';
import {
  type CodeOrCombo,
  type ContractOptions,
  codesWithCombos,
  contractRef,
  exchangeOption,
  instrumentRef,
  legCode,
  securityTypeOption,
} from './flags.js';

const COLUMNS = [
  'code',
  'datetime',
  'open',
  'high',
  'low',
  'close',
  'change_price',
  'change_rate',
  'total_volume',
  'buy_price',
  'sell_price',
];

export interface SnapshotsOptions extends ContractOptions {
  codes: readonly CodeOrCombo[];
}

/** The body of POST /data/snapshots: each code a contract, each `a+b` a combo. */
export function snapshotsRequest(options: SnapshotsOptions): { contracts: InstrumentRef[] } {
  return {
    contracts: options.codes.map((entry) =>
      typeof entry === 'string' ? contractRef(entry, options) : instrumentRef(entry[0], options, entry[1]),
    ),
  };
}

export function registerSnapshots(data: Command, env: CliEnv): void {
  data
    .command('snapshots')
    .description('the current snapshot of each code (at most 500)')
    .requiredOption('--codes <CODES>', 'codes separated by commas; a combo is CODE1+CODE2', codesWithCombos)
    .addOption(securityTypeOption())
    .addOption(exchangeOption())
    .addHelpText(
      'after',
      `
Examples:
  $ sjgate data snapshots --codes 2330,2317
  $ sjgate data snapshots --codes TXFR1,TXFR1+TXFR2`,
    )
    .action(
      action<SnapshotsOptions>(env, async (cli, options) => {
        const codes = await Promise.all(
          options.codes.map(
            async (entry): Promise<CodeOrCombo> =>
              typeof entry === 'string' ? entry : [await legCode(cli, entry[0]), await legCode(cli, entry[1])],
          ),
        );
        const body = snapshotsRequest({ ...options, codes });
        const snapshots = await cli.call((client) => client.data.snapshots<Row[]>(body));
        cli.emit(snapshots, (rows, color) => formatTable(rows, COLUMNS, color));
      }),
    );
}
