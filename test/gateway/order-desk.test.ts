// The gateway's order services over a venue whose answers take time, as a networked venue's do: Idempotency-Key
// while the first place is still in flight, timeout 0, and answers only once the journal holds what they report.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PlaceOrderInput, Venue } from '../../src/broker/port.js';
import { SimVenue } from '../../src/broker/sim/sim-venue.js';
import { DomainError } from '../../src/domain/errors.js';
import type { Trade } from '../../src/domain/orders.js';
import { ManualClock } from '../../src/domain/time.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { MONDAY_MORNING } from '../helpers/app.js';

/** A simulator whose place_order answers only when the test lets it, counting the calls. */
function slowVenue() {
  const sim = new SimVenue({ clock: new ManualClock(MONDAY_MORNING), seed: 1, clockMode: 'always-open', apiKey: null });
  const held: (() => void)[] = [];
  let places = 0;
  const venue: Venue = Object.assign(Object.create(sim) as Venue, {
    orders: {
      ...sim.orders,
      place: async (input: PlaceOrderInput): Promise<Trade> => {
        places++;
        await new Promise<void>((resolve) => held.push(resolve));
        return sim.orders.place(input);
      },
    },
  });
  return {
    venue,
    release: () => {
      for (const resolve of held.splice(0)) resolve();
    },
    places: () => places,
    limitDown: () => (sim.exchange.contracts.current().find('2884') as { limit_down: number }).limit_down,
  };
}

const order = (price: number, quantity = 1) => ({
  contract: { code: '2884' },
  stockOrder: { action: 'Buy' as const, price, quantity, price_type: 'LMT' as const, order_type: 'ROD' as const },
});

/** Lets the event loop run the pending turns (the place waits behind one). */
const turns = () => new Promise((resolve) => setImmediate(resolve));

describe('the order desk', () => {
  test('a retry under a key while the first place is in flight waits for it: one order, one answer', async () => {
    const slow = slowVenue();
    const gateway = Gateway.open(slow.venue, { log: () => undefined });
    try {
      const request = { ...order(slow.limitDown()), wait: true, idempotencyKey: 'in-flight' };
      const first = gateway.orders.place(request);
      const retry = gateway.orders.place(request);
      await turns();
      assert.equal(slow.places(), 1, 'the retry did not reach the venue');
      slow.release();
      const [a, b] = await Promise.all([first, retry]);
      assert.match(a.order.id, /^[0-9a-f]{8}$/);
      assert.equal(b.order.id, a.order.id);
      assert.deepEqual(
        gateway.journal.orders.list().map((stored) => stored.id),
        [a.order.id],
        'the answer came after the journal held the order',
      );
      assert.deepEqual(gateway.journal.idempotencyKeys.orderFor('in-flight')?.orderId, a.order.id);
    } finally {
      await gateway.close();
    }
  });

  test('a different order under a key in flight is refused once the first is placed; a new key places anew', async () => {
    const slow = slowVenue();
    const gateway = Gateway.open(slow.venue, { log: () => undefined });
    try {
      const price = slow.limitDown();
      const first = gateway.orders.place({ ...order(price), wait: true, idempotencyKey: 'k' });
      const other = gateway.orders.place({ ...order(price, 2), wait: true, idempotencyKey: 'k' });
      const refused = assert.rejects(other, (error: unknown) => {
        assert.ok(error instanceof DomainError);
        assert.equal(error.kind, 'IDEMPOTENCY_KEY_REUSED');
        assert.match(error.message, /different order \(trade id [0-9a-f]{8}\)/);
        return true;
      });
      await turns();
      slow.release();
      const placed = await first;
      await refused;
      assert.match((await other.catch((error: Error) => error.message)) as string, new RegExp(placed.order.id));
      const fresh = gateway.orders.place({ ...order(price, 2), wait: true, idempotencyKey: 'k2' });
      await turns();
      slow.release();
      assert.notEqual((await fresh).order.id, placed.order.id);
      assert.equal(slow.places(), 2);
    } finally {
      await gateway.close();
    }
  });

  test('timeout 0 answers Inactive without ids; the order and its New event are journaled all the same', async () => {
    const slow = slowVenue();
    const gateway = Gateway.open(slow.venue, { log: () => undefined });
    try {
      const heard: string[] = [];
      gateway.orderEvents.listen((event) => heard.push(event.event.state));
      const placing = gateway.orders.place({ ...order(slow.limitDown()), wait: false });
      await turns();
      slow.release();
      const answer = await placing;
      assert.equal(answer.order.id, '');
      assert.equal(answer.status.status, 'Inactive');
      const [stored] = gateway.journal.orders.list();
      assert.equal(stored?.status, 'Submitted');
      assert.deepEqual(heard, ['StockOrder'], 'the New event is published once written');
      assert.equal(gateway.orderEvents.lastSeq(), 1);
    } finally {
      await gateway.close();
    }
  });
});
