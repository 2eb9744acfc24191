// The timers that keep a SinoPac session healthy: a watchdog that calls a silent session dead, and the daily
// refresh the official server does (a new login around 08:22 Taiwan time, so a token never runs out).

import { nextTaipeiTime, taipeiDate } from '../../domain/time.js';

export interface UpkeepOptions {
  now: () => number;
  /** No quote for this long while quotes are expected: the session is silent. */
  silentAfterMs: () => number;
  expectQuotes: (() => boolean) | undefined;
  lastQuoteAt: () => number;
  connected: () => boolean;
  onSilent: () => void;
  /** 'HH:MM' Taiwan time, or null for none. */
  maintenanceAt: string | null;
  onMaintenance: (next: number) => void;
}

/** Starts both timers; returns the function that stops them. */
export function startUpkeep(options: UpkeepOptions): () => void {
  const timers: NodeJS.Timeout[] = [];
  const { expectQuotes, silentAfterMs } = options;
  if (expectQuotes) {
    const watchdog = setInterval(
      () => {
        if (!options.connected() || !expectQuotes()) return;
        if (options.now() - options.lastQuoteAt() >= silentAfterMs()) options.onSilent();
      },
      Math.min(silentAfterMs(), 5_000),
    );
    watchdog.unref();
    timers.push(watchdog);
  }
  const scheduleMaintenance = () => {
    if (options.maintenanceAt === null) return;
    const next = nextTaipeiTime(options.maintenanceAt, options.now());
    const timer = setTimeout(() => {
      scheduleMaintenance();
      options.onMaintenance(nextTaipeiTime(options.maintenanceAt!, options.now() + 1));
    }, next - options.now());
    timer.unref();
    timers.push(timer);
  };
  scheduleMaintenance();
  return () => {
    for (const timer of timers) clearTimeout(timer);
  };
}

/** Logins a day, counted by Taiwan date: SinoPac suspends an account that logs in too often. */
export class LoginBudget {
  private day = '';
  private count = 0;

  constructor(
    private readonly now: () => number,
    readonly max: number,
  ) {}

  /** Counts a login; false when the day's budget is spent (the login must not happen). */
  take(): boolean {
    const day = taipeiDate(this.now());
    if (day !== this.day) {
      this.day = day;
      this.count = 0;
    }
    if (this.count >= this.max) return false;
    this.count++;
    return true;
  }

  get today(): number {
    return taipeiDate(this.now()) === this.day ? this.count : 0;
  }
}

/** Retries after delays that double from the first to the last; reset after a success. */
export class Backoff {
  private delay: number;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly range: { first: number; last: number }) {
    this.delay = range.first;
  }

  /** Runs `attempt` after the next delay; returns that delay. */
  schedule(attempt: () => void): number {
    this.cancel();
    const delay = this.delay;
    this.delay = Math.min(this.delay * 2, this.range.last);
    this.timer = setTimeout(attempt, delay);
    return delay;
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
  }

  /** The next delay is at least this long (SinoPac's one-minute suspension). */
  atLeast(ms: number): void {
    this.delay = Math.max(this.delay, ms);
  }

  reset(): void {
    this.delay = this.range.first;
  }
}
