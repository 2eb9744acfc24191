// `sjgate auth unsubscribe-trade`: stop the order and deal reports of an account.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerTradeSubscription } from './trade-subscription.js';

export function registerUnsubscribeTrade(auth: Command, env: CliEnv): void {
  registerTradeSubscription(auth, env, {
    name: 'unsubscribe-trade',
    method: (client) => client.auth.unsubscribeTrade,
    what: 'stop the order and deal reports (order_event) of an account',
    note: 'The order event stream (`sjgate order events`) stops carrying the reports of the account.',
  });
}
