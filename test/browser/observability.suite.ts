// The dashboard's observability view in Chromium against a real gateway: request rates, latency quantiles and errors
// by endpoint of the user's traffic (not the page's own), the subscriptions with a search, and the live streams,
// counted per topic only while the view holds its viewer session (released when the view is left).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  type BrowserGateway,
  chromiumMissing,
  collectErrors,
  SCREENSHOTS,
  startBrowserGateway,
  until,
} from '../helpers/browser.js';

describe('observability view in Chromium', { skip: chromiumMissing() ?? false }, () => {
  let running: BrowserGateway;
  let base: string;

  before(async () => {
    running = await startBrowserGateway('2026-11-23T08:00:05+08:00');
    ({ base } = running);
  });

  after(async () => {
    await running?.close();
  });

  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, and a wrong field fails the test
  const json = async (path: string, init?: RequestInit) => (await fetch(`${base}${path}`, init)).json() as Promise<any>;

  test('shows the user traffic, the subscriptions and the live streams; leaving releases the viewer', async () => {
    // A user's traffic: two lookups, one of them an error, and a subscription.
    await fetch(`${base}/api/v1/data/contracts/2330`);
    await fetch(`${base}/api/v1/data/contracts/NOPE`);
    await json('/api/v1/stream/subscribe', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: '2330', quote_type: 'Tick' }),
    });

    const context = await running.newContext({ viewport: { width: 1280, height: 1100 } });
    const page: Page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${base}/#observability`);
    const byTestId = (id: string) => page.getByTestId(id);
    await byTestId('observability').waitFor();
    assert.equal(await byTestId('view-observability').getAttribute('aria-pressed'), 'true');

    // Only the user's three requests: the page's own (X-Shioaji-Activity: dashboard) are not counted here.
    await byTestId('obs-requests').getByText('3', { exact: true }).waitFor();
    assert.match(await byTestId('obs-errors').innerText(), /^1 \(33\.3%\)$/);
    assert.match(await byTestId('obs-p50').innerText(), /^\d+(\.\d+)? (µs|ms)$/);
    assert.match(await byTestId('obs-p99').innerText(), /^\d+(\.\d+)? (µs|ms)$/);
    const worst = page.locator('[data-testid^="obs-endpoint-"]').first();
    assert.match(await worst.innerText(), /GET \/api\/v1\/data\/contracts\/:code/);
    await byTestId('obs-rate-chart').locator('rect').first().waitFor({ state: 'attached' });

    // The page's own requests are there under its origin.
    await byTestId('obs-origin').getByRole('button', { name: 'Dashboard' }).click();
    await page.getByTestId('obs-endpoint-GET /api/v1/monitor/metrics').waitFor();

    // Subscriptions and their search.
    await byTestId('obs-subscription-2330').waitFor();
    await byTestId('obs-subscriptions-search').fill('zzz');
    await byTestId('card-obs-subscriptions').getByText('Nothing matches.').waitFor();
    await byTestId('obs-subscriptions-search').fill('TIC/v1');
    await byTestId('obs-subscription-2330').waitFor();

    // The view holds a viewer session: topics are counted and the page's stream is a row.
    await byTestId('obs-streams-collecting').getByText('counting topics').waitFor();
    await byTestId('obs-stream-connection').first().waitFor();
    const streams = await json('/api/v1/monitor/streams');
    assert.equal(streams.viewers, 1);
    assert.equal(streams.collecting, true);
    await page.screenshot({ path: join(SCREENSHOTS, 'observability.png'), fullPage: true });

    // Back to trading: the session is released at once, and counting stops.
    await byTestId('view-trading').click();
    await byTestId('card-server').waitFor();
    await until('the viewer session released', async () => (await json('/api/v1/monitor/streams')).viewers === 0);
    assert.equal((await json('/api/v1/monitor/streams')).collecting, false);
    assert.deepEqual(errors, []);
  });
});
