// When the live feed steps: a timer due at the next watched trade, so a trade reaches the streams when it happens in
// simulated time rather than at the next tick of a fixed timer; bounded both ways, so that a busy market steps at most
// every FEED_MIN_STEP_MS (not a timer per trade) and a quiet one still every FEED_STEP_MS (a new day, the listeners).

import type { Clock } from '../../../domain/time.js';

/** The longest wait between two steps: a new day, a stalled clock and the step listeners are seen this often. */
export const FEED_STEP_MS = 100;
/**
 * The shortest time between the starts of two steps. A step is due at the next watched trade, so a trade reaches the
 * listeners within this of its time; and a client gets at most 1000 / this writes a second however busy the market
 * (the trades of a step reach it in one write), the rate the fan-out is measured at (streams.bench.ts).
 */
export const FEED_MIN_STEP_MS = 10;

/** Epoch ms of the next step: the next trade (epoch µs), within the bounds from the last step and from now. */
export function nextStepAt(nowMs: number, lastStepAtMs: number, nextTradeUs: number): number {
  const trade = Math.ceil(nextTradeUs / 1000);
  return Math.min(nowMs + FEED_STEP_MS, Math.max(trade, lastStepAtMs + FEED_MIN_STEP_MS, nowMs));
}

export class StepTimer {
  private timer: NodeJS.Timeout | null = null;
  /** Clock ms at which the timer is due. */
  private dueAt = Number.POSITIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    private readonly dueNext: () => number,
    private readonly step: () => void,
  ) {}

  start(): void {
    if (this.timer === null) this.schedule();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.dueAt = Number.POSITIVE_INFINITY;
  }

  /** Brings the timer forward when the next step is now due sooner (a newly watched tape trades before it). */
  reconsider(): void {
    if (this.timer === null || this.dueNext() >= this.dueAt) return;
    clearTimeout(this.timer);
    this.schedule();
  }

  private readonly onTimer = (): void => {
    this.timer = null;
    this.step();
    this.schedule();
  };

  private schedule(): void {
    this.dueAt = this.dueNext();
    this.timer = setTimeout(this.onTimer, Math.max(1, this.dueAt - this.clock.now()));
    this.timer.unref();
  }
}
