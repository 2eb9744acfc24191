// Soak (issue 14): the real daemon for 10 minutes (BENCH_SOAK_SECONDS to change it) under mixed load: orders a few in
// flight with Idempotency-Keys and cancels, queries, 500 SSE clients (10 % stalled), app uploads, and a SIGKILL and
// restart halfway. Prints the driver's report (test/helpers/soak.ts) with the verdicts: no acknowledged order lost,
// none duplicated, no answer >= 500, the daemon's RSS at the end within RSS_BOUND_MB of its value after warm-up.

import { RSS_BOUND_MB, runSoak } from '../test/helpers/soak.js';

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);

export async function run() {
  const report = await runSoak({
    durationMs: SECONDS * 1000,
    log: process.env.BENCH_SOAK_QUIET === '1' ? undefined : (line) => console.error(line),
  });
  const rssGrowth = Math.round((report.rss_mb.end - report.rss_mb.start) * 10) / 10;
  return {
    bench: 'soak',
    ...report,
    rss_growth_mb: rssGrowth,
    verdict: {
      lost: report.orders.lost === 0,
      duplicates: report.orders.duplicates === 0,
      no_5xx: report.http_5xx === 0,
      rss: rssGrowth <= RSS_BOUND_MB,
      order_events: report.sse.order_events_missing === 0 && report.sse.order_events_duplicated === 0,
    },
  };
}
