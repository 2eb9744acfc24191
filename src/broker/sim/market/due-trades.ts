// The watched tapes of the live feed by the time of their next trade, earliest first (a binary heap): a step visits
// only the tapes that traded since the last, so its cost follows the trades, not the number of watched codes. It is
// filled for one pair of market days; when a day changes, the feed visits every tape and fills it again.

import { MinHeap } from './min-heap.js';

export interface Queued {
  /** Epoch µs of its next trade when queued; a queued item whose tape has moved on since is skipped. */
  nextTradeUs: number;
}

interface Item<T> {
  timeUs: number;
  order: number;
  value: T;
}

export class DueTrades<T extends Queued> {
  private readonly heap = new MinHeap<Item<T>>(before);
  private pushed = 0;
  /** The stock and futures market days it was filled for. */
  days = '';

  /** Epoch µs of the earliest queued trade; Infinity when none is left. */
  get nextUs(): number {
    return this.heap.peek()?.timeUs ?? Number.POSITIVE_INFINITY;
  }

  /** Queues a value at its next trade (nothing when it has none left). */
  push(value: T): void {
    if (Number.isFinite(value.nextTradeUs)) this.heap.push({ timeUs: value.nextTradeUs, order: this.pushed++, value });
  }

  /** The earliest value whose trade is due by `limitUs` (removed), else null; stale items are dropped on the way. */
  popUpTo(limitUs: number): T | null {
    for (;;) {
      const top = this.heap.peek();
      if (top === undefined || top.timeUs > limitUs) return null;
      this.heap.pop();
      if (top.value.nextTradeUs === top.timeUs) return top.value;
    }
  }

  clear(): void {
    this.heap.clear();
  }
}

/** Earlier trade first; at the same instant, the one queued first (the same market steps the same way). */
function before<T>(a: Item<T>, b: Item<T>): boolean {
  return a.timeUs !== b.timeUs ? a.timeUs < b.timeUs : a.order < b.order;
}
