import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../src/domain/errors.js';
import {
  canMove,
  canReach,
  moveStatus,
  ORDER_STATUS_MOVES,
  settleStatus,
  transition,
} from '../../src/domain/order-states.js';
import { FINAL_ORDER_STATUSES, isFinalStatus, ORDER_STATUSES, type OrderStatus } from '../../src/domain/orders.js';

/** Every move one report may make, written out: the table must say exactly this. */
const ALLOWED: readonly [OrderStatus, OrderStatus][] = [
  ['Inactive', 'PendingSubmit'],
  ['Inactive', 'PreSubmitted'],
  ['Inactive', 'Submitted'],
  ['Inactive', 'Failed'],
  ['PendingSubmit', 'PreSubmitted'],
  ['PendingSubmit', 'Submitted'],
  ['PendingSubmit', 'Failed'],
  ['PreSubmitted', 'Submitted'],
  ['PreSubmitted', 'Cancelled'],
  ['PreSubmitted', 'Failed'],
  ['Submitted', 'Submitted'],
  ['Submitted', 'PartFilled'],
  ['Submitted', 'Filled'],
  ['Submitted', 'Cancelled'],
  ['PartFilled', 'PartFilled'],
  ['PartFilled', 'Filled'],
  ['PartFilled', 'Cancelled'],
];

const key = ([from, to]: readonly [OrderStatus, OrderStatus]) => `${from} → ${to}`;
const allowedKeys = new Set(ALLOWED.map(key));
const everyPair = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to): [OrderStatus, OrderStatus] => [from, to]));
const FORBIDDEN = everyPair.filter((pair) => !allowedKeys.has(key(pair)));

describe('order status transitions', () => {
  it('holds every allowed move, and transition() makes it', () => {
    for (const [from, to] of ALLOWED) {
      assert.ok(canMove(from, to), `${from} → ${to}`);
      assert.equal(transition(from, to), to);
      const status = { status: from };
      moveStatus(status, to);
      assert.equal(status.status, to);
    }
  });

  it('holds no other move', () => {
    const table = ORDER_STATUSES.flatMap((from) => ORDER_STATUS_MOVES[from].map((to) => key([from, to])));
    assert.deepEqual(table.sort(), [...allowedKeys].sort());
  });

  it('throws an INTERNAL DomainError on every forbidden move, and leaves the status as it was', () => {
    assert.equal(FORBIDDEN.length, ORDER_STATUSES.length ** 2 - ALLOWED.length);
    for (const [from, to] of FORBIDDEN) {
      assert.ok(!canMove(from, to), `${from} → ${to}`);
      assert.throws(
        () => transition(from, to),
        (error: unknown) =>
          error instanceof DomainError && error.kind === 'INTERNAL' && error.message.includes(`from ${from} to ${to}`),
        `${from} → ${to}`,
      );
      const status = { status: from };
      assert.throws(() => moveStatus(status, to));
      assert.equal(status.status, from);
    }
  });

  it('refuses the moves that would rewrite history', () => {
    for (const [from, to] of [
      ['Filled', 'Cancelled'],
      ['Filled', 'Filled'],
      ['Cancelled', 'Submitted'],
      ['Cancelled', 'Cancelled'],
      ['Failed', 'Submitted'],
      ['Submitted', 'PendingSubmit'],
      ['Submitted', 'PreSubmitted'],
      ['Submitted', 'Failed'],
      ['PartFilled', 'Submitted'],
      ['PendingSubmit', 'Inactive'],
      ['PendingSubmit', 'Filled'],
    ] as const) {
      assert.throws(() => transition(from, to), DomainError, `${from} → ${to}`);
    }
  });

  it('has no move out of a final status, and one out of every other', () => {
    for (const status of ORDER_STATUSES) {
      assert.equal(ORDER_STATUS_MOVES[status].length === 0, isFinalStatus(status), status);
    }
    for (const from of FINAL_ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) assert.ok(!canReach(from, to), `${from} → ${to}`);
    }
  });

  it('reaches in several moves what a client that missed reports may see', () => {
    assert.ok(canReach('PendingSubmit', 'Filled'));
    assert.ok(canReach('Inactive', 'Cancelled'));
    assert.ok(canReach('PreSubmitted', 'PartFilled'));
    assert.ok(!canReach('PartFilled', 'Submitted'));
    assert.ok(!canReach('Submitted', 'PreSubmitted'));
    // Every move is a path of one.
    for (const [from, to] of ALLOWED) assert.ok(canReach(from, to), `${from} → ${to}`);
  });

  it('settles an acknowledged order on the status its quantities give', () => {
    const status = { status: 'Submitted' as OrderStatus, order_quantity: 3, deal_quantity: 1, cancel_quantity: 0 };
    settleStatus(status);
    assert.equal(status.status, 'PartFilled');
    status.deal_quantity = 3;
    settleStatus(status);
    assert.equal(status.status, 'Filled');
    // A filled order does not become Cancelled when a late cancel settles it.
    assert.throws(() => settleStatus(status, 'cancel'), DomainError);
    assert.equal(status.status, 'Filled');
  });
});
