// Soak (issue 14): the real daemon for 12 s (SJ_SOAK_SECONDS overrides) under mixed load — orders a few in flight
// with Idempotency-Keys and cancels, queries, 500 SSE clients of which 10 % never read, app uploads — SIGKILLed and
// restarted on the same home and port halfway through. Afterwards no acknowledged order is lost or duplicated, no
// answer was >= 500, every order event reached the parsing readers exactly once, and the daemon's RSS is back near
// its value after warm-up. The driver (test/helpers/soak.ts) is the one bench/soak.bench.ts runs for 10 minutes.

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { RSS_BOUND_MB, Soak } from '../helpers/soak.js';

const SECONDS = Number(process.env.SJ_SOAK_SECONDS ?? 12);
/** Start-up, warm-up, the restart, the settles and the checks take 15 to 60 s on top of the load. */
const TIMEOUT_MS = (SECONDS + 150) * 1000;
/** Fewer orders than the benchmark's 25/s: every order's events go to 450 readers in this very process. */
const ORDERS_PER_SECOND = 15;

/**
 * Shorter quiet spells than the benchmark's 10 s: the end reading waits on its own (up to 30 s more) until the idle
 * daemon's RSS is back within the bound, and a start reading taken before V8 shrank its heap only loosens the check.
 */
const SETTLE_MS = 3000;

const soak = new Soak({
  durationMs: SECONDS * 1000,
  ordersPerSecond: ORDERS_PER_SECOND,
  settleMs: SETTLE_MS,
  warmupMs: 2000,
  // Built by `npm test` before the tests (as for test/e2e/cli.test.ts): both starts take seconds less than through tsx.
  builtDaemon: true,
});
// A failed or timed-out run must not leave the daemon or a socket behind: dispose() kills the daemon's process group.
after(() => soak.dispose());

test(`a ${SECONDS} s soak with a SIGKILL and restart loses nothing, duplicates nothing, answers no 5xx`, {
  timeout: TIMEOUT_MS,
}, async (t) => {
  const report = await soak.run();
  t.diagnostic(JSON.stringify({ ...report, rss_mb: { ...report.rss_mb, timeline: undefined } }));
  const { orders, sse, uploads, rss_mb: rss } = report;

  // Every kind of load happened: at least half the paced orders, cancels, queries, readers, stalls, uploads.
  assert.ok(orders.acknowledged >= SECONDS * ORDERS_PER_SECOND * 0.5, `${orders.acknowledged} orders acknowledged`);
  assert.ok(orders.cancels > 0 && report.queries.ok > SECONDS * 5, JSON.stringify({ orders, q: report.queries }));
  assert.ok(sse.clients >= 500 && sse.stalled >= 50 && sse.events > 0, JSON.stringify(sse));
  assert.ok(sse.reconnects > 0, 'readers resumed with Last-Event-ID after the restart');
  assert.ok(uploads.ok > 0 && uploads.verified === uploads.ok, JSON.stringify(uploads));
  assert.equal(report.restarts, 1);

  assert.equal(orders.lost, 0, 'acknowledged orders missing from order/trades');
  assert.equal(orders.duplicates, 0, 'an order id or custom_field tag twice in order/trades');
  assert.equal(orders.unexpected, 0, 'orders nobody sent');
  assert.equal(orders.refused, 0, 'place_order answers other than 200');
  assert.equal(report.http_5xx, 0, report.errors.join('\n'));
  assert.equal(report.queries.failed + uploads.failed, 0, report.errors.join('\n'));
  assert.equal(report.connection_errors_other, 0, report.errors.join('\n'));
  assert.equal(sse.order_events_duplicated, 0);
  assert.equal(sse.order_events_missing, 0, 'acknowledged orders whose New event a parsing reader never got');
  assert.deepEqual(report.errors, []);
  assert.ok(rss.end - rss.start <= RSS_BOUND_MB, `RSS ${rss.start} MB after warm-up, ${rss.end} MB at the end`);
});
