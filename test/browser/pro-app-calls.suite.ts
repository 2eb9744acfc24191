// Sinotrade's pro-app, in the calls it makes: a hosted app (test/browser/fixtures/pro-app-calls) that calls what the
// pro-app's watchlist, market pulse and radar panels and its order toasts call, with the same bodies, from Chromium.
// Every answer must be a success, and every stream family those panels draw must arrive on the one aggregate
// stream, with the JSON types the pro-app computes with.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { taipeiInstant } from '../../src/domain/time.js';
import {
  type BrowserGateway,
  chromiumMissing,
  collectErrors,
  SkippingClock,
  startBrowserGateway,
  until,
} from '../helpers/browser.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/pro-app-calls/', import.meta.url));
/**
 * A Monday 20 s before the open, so the calls are made before it, the trial matches (simtrade) come first and then
 * the opening's rush. Once the calls are made, the clock skips to a second before the open instead of waiting for it.
 */
const SIM_START = '2026-11-23T08:59:40+08:00';
const BEFORE_THE_OPEN = taipeiInstant('2026-11-23', '08:59:59');
const FAMILIES = [
  'tick_stk',
  'bidask_stk',
  'quote_idx',
  'calculated_index',
  'index_contribution',
  'industry_contribution',
  'scanner',
  'order_event',
];

interface Report {
  responses: { method: string; path: string; status: number; body: string }[];
  events: Record<string, Record<string, unknown>[]>;
  counts: Record<string, number>;
  errors: string[];
}

describe("the pro-app's calls from a hosted app in Chromium", { skip: chromiumMissing() ?? false }, () => {
  const clock = new SkippingClock(Date.parse(SIM_START));
  let running: BrowserGateway;
  let base: string;

  before(async () => {
    running = await startBrowserGateway(SIM_START, { SJ_SIM_CLOCK: 'exchange', SJ_SIM_LIMITS: 'off' }, clock);
    base = running.base;
    const form = new FormData();
    for (const name of readdirSync(FIXTURE)) form.append('files', new Blob([readFileSync(join(FIXTURE, name))]), name);
    const uploaded = await fetch(`${base}/api/v1/apps/pro-calls`, { method: 'POST', body: form });
    assert.equal(uploaded.status, 200, await uploaded.text());
  });

  after(async () => {
    await running?.close();
  });

  test('every call succeeds, and each family the panels draw arrives with the types they compute with', async () => {
    const page = await (await running.newContext()).newPage();
    const pageErrors = collectErrors(page);
    await page.goto(`${base}/apps/pro-calls/`);
    await page.locator('#status').getByText('called').waitFor({ timeout: 30_000 });
    clock.skipTo(BEFORE_THE_OPEN);
    const report = async (): Promise<Report> => JSON.parse(await page.locator('#report').innerText()) as Report;
    let seen = await report();
    // Not failed here: the assertions below name what is missing.
    await until(
      'every family on the stream',
      async () => {
        seen = await report();
        return FAMILIES.every((family) => seen.counts[family]);
      },
      20_000,
    ).catch(() => undefined);

    const failed = seen.responses.filter((response) => response.status >= 400);
    assert.deepEqual(failed, [], 'no call fails (the pro-app shows a banner for each)');
    // 4 of the session, 6 of the watchlist, 14 of the market pulse (2 indices: Quote, calculated_index, industry and
    // 4 rankings), 26 of the radar (13 scanners on 2 exchanges), 4 of the order ticket.
    assert.equal(seen.responses.length, 54, 'every call was made and answered');
    assert.deepEqual(
      FAMILIES.filter((family) => !seen.counts[family]),
      [],
      `every family arrives: ${JSON.stringify(seen.counts)}`,
    );
    assert.deepEqual([...seen.errors, ...pageErrors], []);

    const [calculated] = seen.events.calculated_index!;
    for (const key of ['open', 'high', 'low', 'close', 'price_chg', 'pct_chg', 'total_amount']) {
      assert.equal(typeof calculated![key], 'number', `calculated_index.${key} is a number`);
    }
    assert.match(String(calculated!.date), /^\d{4}\/\d\d\/\d\d$/);

    for (const event of seen.events.index_contribution!) {
      const entries = event.entries as { code: string; points: unknown; price_chg: unknown }[];
      assert.ok(['top10', 'abs10', 'positive25', 'negative25'].includes(String(event.ranking)));
      for (const entry of entries) {
        assert.equal(typeof entry.points, 'number', `${entry.code}.points`);
        assert.equal(typeof entry.price_chg, 'number', `${entry.code}.price_chg`);
      }
    }

    for (const event of seen.events.industry_contribution!) {
      const entries = event.entries as { category: string; points: number }[];
      const sum = entries.reduce((total, entry) => total + entry.points, 0);
      assert.equal(typeof event.index_price_chg, 'number');
      assert.ok(
        Math.abs(sum - Number(event.index_price_chg)) <= 0.01 * Math.max(1, entries.length),
        `the industries' points sum to the index change: ${sum} vs ${event.index_price_chg}`,
      );
    }

    for (const event of seen.events.scanner!) {
      const quote = event.quote as { code?: unknown };
      assert.equal(typeof quote.code, 'string', JSON.stringify(event));
      assert.ok('scanner' in event ? typeof event.extra === 'object' : Array.isArray(event.scanners));
    }

    const states = seen.events.order_event!.map((event) => event.state);
    assert.ok(states.includes('StockOrder'), `order toasts come from order events: ${states.join(', ')}`);
  });
});
