// `sjgate auth subscribe-trade`: receive the order and deal reports of an account.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerTradeSubscription } from './trade-subscription.js';

export function registerSubscribeTrade(auth: Command, env: CliEnv): void {
  registerTradeSubscription(auth, env, {
    name: 'subscribe-trade',
    method: (client) => client.auth.subscribeTrade,
    what: 'receive the order and deal reports (order_event) of an account',
    note: 'The order event stream (`sjgate order events`) carries the reports of subscribed accounts only.',
  });
}
