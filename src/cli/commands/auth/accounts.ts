// `sjgate auth accounts`: the trading accounts of the logged-in user.

import type { Command } from 'commander';
import { AUTH_PATHS } from '../../../contract/paths.js';
import type { Account } from '../../../contract/wire.js';
import { action, type CliEnv } from '../../context.js';
import { formatTable } from '../../output.js';

const COLUMNS = ['account_type', 'broker_id', 'account_id', 'person_id', 'username', 'signed'];

export function registerAccounts(auth: Command, env: CliEnv): void {
  auth
    .command('accounts')
    .description('list the trading accounts (S stock, F futures)')
    .action(
      action(env, async (cli) => {
        const accounts = await cli.call((client) => client.get<Account[]>(AUTH_PATHS.accounts));
        cli.emit(accounts, (rows, color) => formatTable(rows, COLUMNS, color));
      }),
    );
}
