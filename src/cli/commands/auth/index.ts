// `sjgate auth accounts|usage|ca-expiretime|default-account|subscribe-trade|unsubscribe-trade`.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerAccounts } from './accounts.js';
import { registerCaExpireTime } from './ca-expiretime.js';
import { registerDefaultAccount } from './default-account.js';
import { registerSubscribeTrade } from './subscribe-trade.js';
import { registerUnsubscribeTrade } from './unsubscribe-trade.js';
import { registerUsage } from './usage.js';

export function registerAuth(program: Command, env: CliEnv): void {
  const auth = program
    .command('auth')
    .description('accounts, API usage and order report subscriptions of the logged-in user');
  registerAccounts(auth, env);
  registerUsage(auth, env);
  registerCaExpireTime(auth, env);
  registerDefaultAccount(auth, env);
  registerSubscribeTrade(auth, env);
  registerUnsubscribeTrade(auth, env);
}
