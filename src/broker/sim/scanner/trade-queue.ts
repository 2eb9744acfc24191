// The next trade (or trial match) of every scanned stock, earliest first: a binary heap, so a step visits only the
// stocks that traded, in time order across the exchange (ties in stock order, so the same market gives the same
// signals in the same order).

import { MinHeap } from '../market/min-heap.js';

export interface QueuedTrade {
  timeUs: number;
  member: number;
  trial: boolean;
}

export class TradeQueue {
  private readonly heap = new MinHeap<QueuedTrade>(before);

  get size(): number {
    return this.heap.size;
  }

  push(timeUs: number, member: number, trial: boolean): void {
    this.heap.push({ timeUs, member, trial });
  }

  /** The earliest entry if it is due by `limitUs` (removed), else null. */
  popUpTo(limitUs: number): QueuedTrade | null {
    const top = this.heap.peek();
    if (top === undefined || top.timeUs > limitUs) return null;
    return this.heap.pop()!;
  }

  clear(): void {
    this.heap.clear();
  }
}

function before(a: QueuedTrade, b: QueuedTrade): boolean {
  if (a.timeUs !== b.timeUs) return a.timeUs < b.timeUs;
  if (a.trial !== b.trial) return a.trial;
  return a.member < b.member;
}
