// Replays share the event loop with every request. They run one page at a time, in turn, for at most SLICE_MS, and
// then leave the loop to everything else for as long as they ran: at most half of its time, however many replays there
// are, so /api/v1/health or an order waits a few ms for them. (A replay per client that yields with setImmediate
// would still run them all in each turn; and Node accepts one new connection per turn of the loop, so a request behind
// a flood of stream connections gets in only if the turns in between are short.) A replay whose client is over its
// buffer cap waits apart until the client drains or is dropped; while the streams are over their memory budget, the
// whole queue waits.

import { logError } from '../../log.js';
import type { StreamBudget } from './budget.js';
import type { Replay } from './replay.js';

const SLICE_MS = 5;
/** How often a queue held back by the memory budget looks again. */
const BUDGET_WAIT_MS = 50;

export class ReplayScheduler {
  private readonly ready: Replay[] = [];
  private scheduled = false;
  running = 0;
  /** How many times the memory budget held the queue back, since the start. */
  heldBack = 0;

  constructor(private readonly budget: StreamBudget) {}

  start(replay: Replay): void {
    this.running++;
    this.enqueue(replay);
  }

  /** Replays held back by the memory budget. */
  get waiting(): number {
    return this.budget.spent ? this.ready.length : 0;
  }

  private enqueue(replay: Replay): void {
    this.ready.push(replay);
    this.wake();
  }

  private wake(delayMs = 0): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(this.runSlice, delayMs);
  }

  private readonly runSlice = (): void => {
    this.scheduled = false;
    const start = performance.now();
    const end = start + SLICE_MS;
    // What was charged in the last slice may have reached the kernel since: count afresh.
    this.budget.queuedBytes(true);
    while (this.ready.length > 0 && performance.now() < end) {
      if (this.budget.spent) {
        this.heldBack++;
        this.wake(BUDGET_WAIT_MS);
        return;
      }
      const replay = this.ready.shift()!;
      const { connection } = replay;
      const before = connection.unread;
      const more = this.step(replay);
      this.budget.charge(Math.max(0, connection.unread - before));
      if (!more) this.running--;
      else if (!connection.overCap) this.ready.push(replay);
      else connection.writable().then((open) => (open ? this.enqueue(replay) : this.running--));
    }
    if (this.ready.length > 0) this.wake(Math.max(1, Math.round(performance.now() - start)));
  };

  private step(replay: Replay): boolean {
    try {
      return replay.step();
    } catch (error) {
      logError('SSE replay failed; the client is dropped to reconnect:', error);
      replay.connection.close();
      return false;
    }
  }
}
