// `sjgate auth accounts`: the trading accounts of the logged-in user.

import type { Command } from 'commander';
import type { Account } from '../../../contract/wire.js';
import type { DaemonClient } from '../../client.js';
import { action, type CliEnv } from '../../context.js';
import { formatTable } from '../../output.js';

const COLUMNS = ['default', 'account_type', 'broker_id', 'account_id', 'person_id', 'username', 'signed'];

const sameAccount = (a: Account, b: Account | null) =>
  b !== null && a.account_type === b.account_type && a.broker_id === b.broker_id && a.account_id === b.account_id;

/** The accounts with `default: '*'` on the default of each type (none when the daemon does not say). */
async function markedDefaults(client: DaemonClient, accounts: readonly Account[]): Promise<Record<string, unknown>[]> {
  const types = [...new Set(accounts.map((one) => one.account_type))];
  const defaults = await Promise.all(
    types.map((type) => client.auth.defaultAccount({ account_type: type }).catch(() => null)),
  );
  return accounts.map((one) => ({ default: defaults.some((chosen) => sameAccount(one, chosen)) ? '*' : '', ...one }));
}

export function registerAccounts(auth: Command, env: CliEnv): void {
  auth
    .command('accounts')
    .description('list the trading accounts (S stock, F futures); * marks the default of each type')
    .action(
      action(env, async (cli) => {
        const human = cli.format === 'human' && !cli.json;
        const accounts = await cli.call(async (client) => {
          const list = await client.auth.accounts();
          return human ? markedDefaults(client, list) : list;
        });
        cli.emit(accounts, (rows, color) => formatTable(rows, COLUMNS, color));
      }),
    );
}
