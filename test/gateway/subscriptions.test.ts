// The subscription book over a quote feed that answers later, as a networked venue's does: requests that overlap
// while the venue is subscribing must not hold a subscription twice or go past the limit.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AccountsPort, QuoteFeedPort, SubscribeInput } from '../../src/broker/port.js';
import { DomainError } from '../../src/domain/errors.js';
import { MAX_SUBSCRIPTIONS, type QuoteSubscription } from '../../src/domain/quotes.js';
import { SubscriptionBook } from '../../src/gateway/subscriptions.js';

/** A feed whose subscribe answers on the next turn of the event loop, counting what it was asked to deliver. */
function slowFeed() {
  const subscribed: string[] = [];
  const feed: QuoteFeedPort = {
    resolve: async ({ contract, quoteType }: SubscribeInput) =>
      ({
        code: (contract as { code: string }).code,
        security_type: 'STK',
        exchange: 'TSE',
        quote_type: quoteType,
        intraday_odd: false,
        target_code: null,
      }) as unknown as QuoteSubscription,
    subscribe: async (subscription) => {
      await new Promise((resolve) => setImmediate(resolve));
      subscribed.push((subscription as { code: string }).code);
    },
    unsubscribe: async () => undefined,
    onMarketEvent: () => () => undefined,
    subscribeScanner: async () => undefined,
    unsubscribeScanner: async () => undefined,
  };
  return { feed, subscribed };
}

const request = (code: string): SubscribeInput => ({ contract: { code }, quoteType: 'Tick', intradayOdd: false });

function bookOn(feed: QuoteFeedPort) {
  return new SubscriptionBook({ quotes: feed, accounts: {} as AccountsPort, file: null, onSession: () => undefined });
}

describe('the subscription book over a slow feed', () => {
  test('the same subscription asked twice at once is subscribed once', async () => {
    const { feed, subscribed } = slowFeed();
    const book = bookOn(feed);
    const [a, b] = await Promise.all([book.subscribe(request('2330')), book.subscribe(request('2330'))]);
    assert.equal(a, b);
    assert.deepEqual(subscribed, ['2330']);
    assert.equal(book.list().length, 1);
  });

  test('two subscriptions asked at once for the last place: one is held, the other refused', async () => {
    const { feed } = slowFeed();
    const book = bookOn(feed);
    for (let n = 0; n < MAX_SUBSCRIPTIONS - 1; n++) await book.subscribe(request(`C${n}`));
    const raced = await Promise.allSettled([book.subscribe(request('LAST1')), book.subscribe(request('LAST2'))]);
    assert.deepEqual(
      raced.map((r) => r.status),
      ['fulfilled', 'rejected'],
    );
    const refusal = (raced[1] as PromiseRejectedResult).reason;
    assert.ok(refusal instanceof DomainError && refusal.kind === 'SUBSCRIPTION_LIMIT', String(refusal));
    assert.equal(book.list().length, MAX_SUBSCRIPTIONS);
  });

  test('a subscription the venue refuses is not held', async () => {
    const { feed } = slowFeed();
    const book = bookOn({
      ...feed,
      subscribe: async () => {
        throw new Error('venue down');
      },
    });
    await assert.rejects(book.subscribe(request('2330')), /venue down/);
    assert.deepEqual(book.list(), []);
  });
});
