// The life cycle of an order's status as a state machine: the moves one report of the exchange may make, and the
// status an acknowledged order's quantities give. Every change of a status goes through transition(), which refuses a
// move the table does not hold: such a move is a bug of the venue, never something a client asked for.

import { DomainError } from './errors.js';
import { isFinalStatus, type OrderQuantities, type OrderStatus, openQuantity } from './orders.js';

/**
 * The statuses one report may move an order to. A status absent from a row is unreachable in one move; a final
 * status (Filled, Cancelled, Failed) has no moves at all.
 */
export const ORDER_STATUS_MOVES: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  // The placeholder of an order placed without waiting ("order still in transit"): the exchange's answer replaces it.
  Inactive: ['PendingSubmit', 'PreSubmitted', 'Submitted', 'Failed'],
  // Sent, not yet answered: the exchange takes it (Submitted), reserves it for the next session (PreSubmitted) or
  // refuses it (Failed).
  PendingSubmit: ['PreSubmitted', 'Submitted', 'Failed'],
  // Reserved until its session opens: it enters the market then, unless it is cancelled or refused first.
  PreSubmitted: ['Submitted', 'Cancelled', 'Failed'],
  // Submitted and PartFilled stay themselves across price and quantity updates and partial fills.
  Submitted: ['Submitted', 'PartFilled', 'Filled', 'Cancelled'],
  PartFilled: ['PartFilled', 'Filled', 'Cancelled'],
  Filled: [],
  Cancelled: [],
  Failed: [],
};

/** True when one report may move an order from `from` to `to`. */
export const canMove = (from: OrderStatus, to: OrderStatus): boolean => ORDER_STATUS_MOVES[from].includes(to);

/**
 * True when an order seen at `from` may later be seen at `to`, in one move or more: a client that misses reports
 * (polling, a restart) sees PendingSubmit then Filled.
 */
export function canReach(from: OrderStatus, to: OrderStatus): boolean {
  const reached = new Set<OrderStatus>();
  const pending = [...ORDER_STATUS_MOVES[from]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next === to) return true;
    if (reached.has(next)) continue;
    reached.add(next);
    pending.push(...ORDER_STATUS_MOVES[next]);
  }
  return false;
}

/** The status after a move from `from` to `to`; a move the table does not hold is a bug of the venue and throws. */
export function transition(from: OrderStatus, to: OrderStatus): OrderStatus {
  if (!canMove(from, to)) {
    const allowed = ORDER_STATUS_MOVES[from];
    throw new DomainError(
      'INTERNAL',
      `an order cannot move from ${from} to ${to}` +
        (isFinalStatus(from) ? ` (${from} is final)` : `; from ${from} it moves to ${allowed.join(', ')}`),
    );
  }
  return to;
}

/** Moves a status in place, through transition(). */
export function moveStatus(status: { status: OrderStatus }, to: OrderStatus): void {
  status.status = transition(status.status, to);
}

/**
 * The status of an acknowledged order from its quantities. When nothing is left open, an order whose last change
 * was a fill is Filled and one whose remainder was cancelled (a cancel, an IOC or FOK remainder) is Cancelled.
 * Quantities of zero all round mean the exchange has not acknowledged the order yet.
 */
export function statusForQuantities(q: OrderQuantities, closedBy: 'deal' | 'cancel' = 'deal'): OrderStatus {
  if (q.order_quantity === 0 && q.deal_quantity === 0 && q.cancel_quantity === 0) return 'PendingSubmit';
  if (openQuantity(q) > 0) return q.deal_quantity > 0 ? 'PartFilled' : 'Submitted';
  return q.deal_quantity > 0 && closedBy === 'deal' ? 'Filled' : 'Cancelled';
}

/** Moves an acknowledged order to the status its quantities give after a fill, a cancel or a reduction. */
export function settleStatus(
  status: OrderQuantities & { status: OrderStatus },
  closedBy: 'deal' | 'cancel' = 'deal',
): void {
  moveStatus(status, statusForQuantities(status, closedBy));
}
