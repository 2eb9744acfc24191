// `sjgate auth default-account`: make an account the default of its type.

import { type Command, Option } from 'commander';
import type { Account } from '../../../contract/wire.js';
import { action, type CliEnv } from '../../context.js';
import { formatHeading, formatRecord } from '../../output.js';
import { type AccountSelector, account, oneOf } from '../../parsers.js';

const ACCOUNT_FIELDS = [
  'account_type',
  'person_id',
  'broker_id',
  'account_id',
  'signed',
  'username',
] as const satisfies readonly (keyof Account)[];

interface DefaultAccountOptions {
  account: AccountSelector;
  accountType?: 'S' | 'F';
}

export function registerDefaultAccount(auth: Command, env: CliEnv): void {
  auth
    .command('default-account')
    .description('make an account the default of its type (used when a request names no account)')
    .requiredOption('--account <BROKER-ACCOUNT>', 'the account, e.g. 9A95-1234567', account)
    .addOption(new Option('--account-type <S|F>', 'the account type').argParser(oneOf(['S', 'F'] as const)))
    .addHelpText(
      'after',
      `
Examples:
  $ sjgate auth default-account --account 9A95-1234567
  $ sjgate auth default-account --account F002000-7654321 --account-type F`,
    )
    .action(
      action<DefaultAccountOptions>(
        env,
        async (cli, options) => {
          const body = {
            ...(options.accountType === undefined ? {} : { account_type: options.accountType }),
            ...options.account,
          };
          const chosen = await cli.call((client) => client.auth.setDefaultAccount(body));
          cli.emit(
            chosen,
            (value, color) => `${formatHeading('default account', color)}\n${formatRecord(value, { color })}`,
          );
        },
        { fields: ACCOUNT_FIELDS },
      ),
    );
}
