// What the gateway is subscribed to: quote subscriptions (at most 200) and the accounts whose order reports are
// delivered. The daemon keeps them, not the SSE connection, so they survive a reconnect; they are saved to a file
// (written whole, then renamed into place) and restored after a restart.

import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { AccountsPort, QuoteFeedPort, SubscribeInput } from '../broker/port.js';
import { STREAM_PATHS } from '../contract/paths.js';
import { type Account, type AccountSelector, accountKeyOf } from '../domain/accounts.js';
import { DomainError } from '../domain/errors.js';
import { projectionValue } from '../domain/index-projections.js';
import {
  isComboSubscription,
  MAX_SUBSCRIPTIONS,
  type QuoteSubscription,
  type SessionEvent,
  SUBSCRIPTION_OK_EVENT_CODE,
  subscriptionKey,
} from '../domain/quotes.js';
import { checkScannerSubscription, type ScannerSubscription, scannerKey } from '../domain/scanner-rules.js';

export interface SubscriptionBookOptions {
  quotes: QuoteFeedPort;
  accounts: AccountsPort;
  /** Where the subscriptions are saved; null keeps them in memory only. */
  file: string | null;
  /** Session events (subscribe acks) go to the streams through this. */
  onSession: (event: SessionEvent) => void;
}

interface SavedSubscriptions {
  version: 1;
  quotes: QuoteSubscription[];
  /** Market scanners (a rule or state on an exchange); absent in files written before them. */
  scanners?: ScannerSubscription[];
  trade_accounts: { broker_id: string; account_id: string }[];
}

export interface RestoreReport {
  restored: number;
  failed: { subscription: string; reason: string }[];
}

export class SubscriptionBook {
  private readonly quotes = new Map<string, QuoteSubscription>();
  private readonly tradeAccounts = new Map<string, Account>();
  private readonly scanners = new Map<string, ScannerSubscription>();

  constructor(private readonly options: SubscriptionBookOptions) {}

  /** Subscribes, or returns the subscription already held (subscribing twice is one subscription). */
  async subscribe(input: SubscribeInput): Promise<QuoteSubscription> {
    const subscription = await this.options.quotes.resolve(input);
    const key = subscriptionKey(subscription);
    const held = this.quotes.get(key);
    if (held) return held;
    this.checkLimit();
    // The place is taken before the venue answers, so requests meanwhile see it: no second subscription of the same
    // key, and no 201st.
    this.quotes.set(key, subscription);
    try {
      await this.options.quotes.subscribe(subscription);
    } catch (error) {
      this.quotes.delete(key);
      throw error;
    }
    this.save();
    this.acknowledge(subscription);
    return subscription;
  }

  /** Unsubscribes; null when the request names nothing that is subscribed. */
  async unsubscribe(input: SubscribeInput): Promise<{ subscription: QuoteSubscription; wasSubscribed: boolean }> {
    const subscription = await this.options.quotes.resolve(input);
    const key = subscriptionKey(subscription);
    const held = this.quotes.get(key);
    if (!held) return { subscription, wasSubscribed: false };
    this.quotes.delete(key);
    await this.options.quotes.unsubscribe(held);
    this.save();
    this.acknowledge(held);
    return { subscription: held, wasSubscribed: true };
  }

  list(): QuoteSubscription[] {
    return [...this.quotes.values()];
  }

  /**
   * Subscribes to a market scanner (a rule or state on one exchange's stocks), or returns the one held. Each is one
   * of the MAX_SUBSCRIPTIONS a session holds, as one upstream topic.
   */
  async subscribeScanner(subscription: ScannerSubscription): Promise<ScannerSubscription> {
    checkScannerSubscription(subscription);
    const key = scannerKey(subscription);
    const held = this.scanners.get(key);
    if (held) return held;
    this.checkLimit();
    this.scanners.set(key, subscription);
    try {
      await this.options.quotes.subscribeScanner(subscription);
    } catch (error) {
      this.scanners.delete(key);
      throw error;
    }
    this.save();
    return subscription;
  }

  async unsubscribeScanner(subscription: ScannerSubscription): Promise<{ wasSubscribed: boolean }> {
    const key = scannerKey(subscription);
    const held = this.scanners.get(key);
    if (!held) return { wasSubscribed: false };
    this.scanners.delete(key);
    await this.options.quotes.unsubscribeScanner(held);
    this.save();
    return { wasSubscribed: true };
  }

  listScanners(): ScannerSubscription[] {
    return [...this.scanners.values()];
  }

  /** Quote and scanner subscriptions together are at most MAX_SUBSCRIPTIONS. */
  private checkLimit(): void {
    const held = this.quotes.size + this.scanners.size;
    if (held < MAX_SUBSCRIPTIONS) return;
    throw new DomainError(
      'SUBSCRIPTION_LIMIT',
      `at most ${MAX_SUBSCRIPTIONS} subscriptions at a time (the service's limit) and ${held} are held; ` +
        `unsubscribe one first (GET ${STREAM_PATHS.subscriptions} lists them)`,
    );
  }

  async subscribeTrade(selector: AccountSelector): Promise<Account> {
    const account = await this.options.accounts.resolve(selector);
    this.tradeAccounts.set(accountKeyOf(account), account);
    this.save();
    return account;
  }

  async unsubscribeTrade(selector: AccountSelector): Promise<Account> {
    const account = await this.options.accounts.resolve(selector);
    this.tradeAccounts.delete(accountKeyOf(account));
    this.save();
    return account;
  }

  /** Whether order and deal reports of an account (`broker_id-account_id`) are delivered. */
  tradeSubscribed(accountKey: string): boolean {
    return this.tradeAccounts.has(accountKey);
  }

  tradeAccountKeys(): string[] {
    return [...this.tradeAccounts.keys()];
  }

  /** Subscribes again to what the file holds; what can no longer be resolved (an expired contract) is dropped. */
  async restore(): Promise<RestoreReport> {
    const report: RestoreReport = { restored: 0, failed: [] };
    let saved: SavedSubscriptions | null;
    try {
      saved = this.read();
    } catch (error) {
      report.failed.push({ subscription: this.options.file ?? '', reason: (error as Error).message });
      return report;
    }
    if (!saved) return report;
    for (const subscription of saved.quotes) {
      try {
        await this.subscribe(requestOf(subscription));
        report.restored++;
      } catch (error) {
        report.failed.push({ subscription: subscriptionKey(subscription), reason: (error as Error).message });
      }
    }
    for (const scanner of saved.scanners ?? []) {
      try {
        await this.subscribeScanner(scanner);
        report.restored++;
      } catch (error) {
        report.failed.push({ subscription: scannerKey(scanner), reason: (error as Error).message });
      }
    }
    for (const { broker_id, account_id } of saved.trade_accounts) {
      try {
        await this.subscribeTrade({ broker_id, account_id });
        report.restored++;
      } catch (error) {
        report.failed.push({ subscription: `trade:${broker_id}-${account_id}`, reason: (error as Error).message });
      }
    }
    this.save();
    return report;
  }

  // The SDK's ack: Response Code 200, Event Code 16, Info the topic (TIC/v1/STK/*/TSE/2330), Event 'Subscribe or
  // Unsubscribe ok'.
  private acknowledge(subscription: QuoteSubscription): void {
    this.options.onSession({
      resp_code: 200,
      event_code: SUBSCRIPTION_OK_EVENT_CODE,
      info: topicOf(subscription),
      event: 'Subscribe or Unsubscribe ok',
    });
  }

  private save(): void {
    const file = this.options.file;
    if (file === null) return;
    const saved: SavedSubscriptions = {
      version: 1,
      quotes: this.list(),
      scanners: this.listScanners(),
      trade_accounts: [...this.tradeAccounts.values()].map(({ broker_id, account_id }) => ({ broker_id, account_id })),
    };
    writeFileSync(`${file}.tmp`, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  }

  private read(): SavedSubscriptions | null {
    const file = this.options.file;
    if (file === null || !existsSync(file)) return null;
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<SavedSubscriptions>;
    if (saved.version !== 1) throw new Error(`${file}: not a subscriptions file of this version of sjgate`);
    return {
      version: 1,
      quotes: saved.quotes ?? [],
      scanners: saved.scanners ?? [],
      trade_accounts: saved.trade_accounts ?? [],
    };
  }
}

/** The request that names a held subscription again (R1/R2 by their alias, so they follow the roll). */
function requestOf(subscription: QuoteSubscription): SubscribeInput {
  const common = { quoteType: subscription.quote_type, intradayOdd: subscription.intraday_odd };
  if (!isComboSubscription(subscription) && (subscription.ranking || subscription.projection)) {
    const { security_type, exchange, code, ranking, projection } = subscription;
    return { contract: { security_type, exchange, code }, ...common, ranking, projection };
  }
  if (isComboSubscription(subscription)) {
    const { legs, combo_type } = subscription.contract;
    const refs = legs.map(({ security_type, exchange, code }) => ({ security_type, exchange, code }));
    return { contract: { legs: refs, combo_type }, ...common };
  }
  const { security_type, exchange, code } = subscription;
  return { contract: { security_type, exchange, code }, ...common };
}

/** The quote topic of a subscription as the SDK names it in session events. */
export function topicOf(subscription: QuoteSubscription): string {
  const kinds = {
    Tick: 'TIC/v1',
    BidAsk: 'QUO/v1',
    Quote: 'QUO/v2',
    KBar: 'KBR/v1',
    CalculatedIndex: 'CAL/v1',
    IndexContribution: 'CTB/v1',
    IndustryContribution: 'IDC/v1',
    IndexComponents: 'CMP/v1',
  } as const;
  const kind = kinds[subscription.quote_type];
  if (isComboSubscription(subscription)) {
    return `${kind}/FOP/*/TFE/${subscription.contract.legs.map((leg) => leg.target_code ?? leg.code).join('/')}`;
  }
  const code = subscription.target_code ?? subscription.code;
  if (subscription.ranking) return `${kind}/IND/${subscription.exchange}/${code}/${subscription.ranking}`;
  if (subscription.projection)
    return `${kind}/IND/${subscription.exchange}/${code}/${projectionValue(subscription.projection)}`;
  if (subscription.security_type === 'IND') return `QUO/v1/IND/*/${subscription.exchange}/${code}`;
  if (subscription.security_type === 'FUT' || subscription.security_type === 'OPT') return `${kind}/FOP/*/TFE/${code}`;
  return `${kind}/${subscription.intraday_odd ? 'ODD' : 'STK'}/*/${subscription.exchange}/${code}`;
}
