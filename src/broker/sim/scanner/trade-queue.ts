// The next trade (or trial match) of every scanned stock, earliest first: a binary heap, so a step visits only the
// stocks that traded, in time order across the exchange (ties in stock order, so the same market gives the same
// signals in the same order).

export interface QueuedTrade {
  timeUs: number;
  member: number;
  trial: boolean;
}

export class TradeQueue {
  private readonly heap: QueuedTrade[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(timeUs: number, member: number, trial: boolean): void {
    const heap = this.heap;
    heap.push({ timeUs, member, trial });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  /** The earliest entry if it is due by `limitUs` (removed), else null. */
  popUpTo(limitUs: number): QueuedTrade | null {
    const heap = this.heap;
    const top = heap[0];
    if (top === undefined || top.timeUs > limitUs) return null;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < heap.length && before(heap[left]!, heap[smallest]!)) smallest = left;
        if (right < heap.length && before(heap[right]!, heap[smallest]!)) smallest = right;
        if (smallest === i) break;
        [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
        i = smallest;
      }
    }
    return top;
  }

  clear(): void {
    this.heap.length = 0;
  }
}

function before(a: QueuedTrade, b: QueuedTrade): boolean {
  if (a.timeUs !== b.timeUs) return a.timeUs < b.timeUs;
  if (a.trial !== b.trial) return a.trial;
  return a.member < b.member;
}
