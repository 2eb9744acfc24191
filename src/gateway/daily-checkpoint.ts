// A checkpoint of the venue's derived state once a day while the gateway runs, not only at start and close (issue
// 22): a daemon left running for months would otherwise keep every realized row since its start in memory and, after
// a crash, book every deal since then again. It is taken on the first check after the Taiwan calendar day changes on
// the venue's clock, and covers every deal journaled by then (the journal's rowid), whatever trades meanwhile.

import { type Clock, taipeiDate } from '../domain/time.js';

/** How often the venue's clock is looked at by default: a day's checkpoint comes within a minute of midnight. */
export const DAILY_CHECKPOINT_CHECK_MS = 60_000;

/** Calls `work` on the first check after each change of the Taiwan day; returns the function that stops it. */
export function onEachNewDay(clock: Pick<Clock, 'now'>, work: () => void, checkEveryMs: number): () => void {
  let day = taipeiDate(clock.now());
  const timer = setInterval(() => {
    const today = taipeiDate(clock.now());
    if (today === day) return;
    day = today;
    work();
  }, checkEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}
