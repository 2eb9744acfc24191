// `sjgate auth accounts|usage|default-account`.

import { type Command, Option } from 'commander';
import { action } from '../context.js';
import type { Runtime } from '../daemon.js';
import { formatBar, formatHeading, formatRecord, formatTable, type Row } from '../output.js';
import { account, oneOf } from '../parsers.js';

export interface Usage {
  connections: number;
  bytes: number;
  limit_bytes: number;
  remaining_bytes: number;
}

const ACCOUNT_COLUMNS = ['account_type', 'broker_id', 'account_id', 'person_id', 'username', 'signed'];

interface DefaultAccountOptions {
  account: { broker_id: string; account_id: string };
  accountType?: 'S' | 'F';
}

export function registerAuth(program: Command, runtime: Runtime): void {
  const auth = program.command('auth').description('accounts and API usage of the logged-in user');

  auth
    .command('accounts')
    .description('list the trading accounts (S stock, F futures)')
    .action(
      action(runtime, async (cli) => {
        const accounts = await cli.call((client) => client.get<Row[]>('/api/v1/auth/accounts'));
        cli.emit(accounts, (rows) => formatTable(rows, ACCOUNT_COLUMNS));
      }),
    );

  auth
    .command('usage')
    .description("today's data usage against the daily limit")
    .action(
      action(runtime, async (cli) => {
        const usage = await cli.call((client) => client.get<Usage>('/api/v1/auth/usage'));
        cli.emit(usage, formatUsage);
      }),
    );

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
      action<DefaultAccountOptions>(runtime, async (cli, options) => {
        const body = {
          ...(options.accountType === undefined ? {} : { account_type: options.accountType }),
          ...options.account,
        };
        const chosen = await cli.call((client) => client.post<Row>('/api/v1/auth/default_account', body));
        cli.emit(chosen, (value) => `${formatHeading('default account')}\n${formatRecord(value)}`);
      }),
    );
}

const MB = 1024 ** 2;
const GB = 1024 ** 3;

/** Sizes below 1 GB read in MB (the 500 MB tier), larger ones in GB. */
const formatSize = (bytes: number) => (bytes < GB ? `${(bytes / MB).toFixed(2)} MB` : `${(bytes / GB).toFixed(2)} GB`);

/** As the official CLI: `Data Used: x MB / y GB [####................] p%`. */
export function formatUsage(usage: Usage): string {
  const fraction = usage.limit_bytes > 0 ? usage.bytes / usage.limit_bytes : 0;
  return [
    formatHeading('API Usage'),
    `Connections: ${usage.connections}`,
    `Data Used: ${(usage.bytes / MB).toFixed(2)} MB / ${formatSize(usage.limit_bytes)} ${formatBar(fraction)} ${(fraction * 100).toFixed(2)}%`,
    `Remaining: ${formatSize(usage.remaining_bytes)}`,
  ].join('\n');
}
