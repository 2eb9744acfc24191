// The dashboard in Chromium against a real gateway: every card renders without errors, live ticks arrive, an order
// goes from the ticket to the blotters, an app is uploaded, opened and deleted, and the theme persists.
// One gateway and one browser serve the whole file. Screenshots of every card go to test-results/screenshots/.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { loadConfig } from '../../src/config.js';
import { startGateway } from '../../src/server/main.js';
import {
  type BrowserGateway,
  chromiumMissing,
  collectErrors,
  SCREENSHOTS,
  startBrowserGateway,
  until,
} from '../helpers/browser.js';

/** The market watch's codes on a first visit. */
const WATCHED_AT_FIRST = ['TXFR1', 'MXFR1', '2330', '2317', '2303', '0050'];

const CARDS = ['server', 'usage', 'accounts', 'watch', 'chart', 'ticket', 'blotters', 'streams', 'apps'];
/** A Monday morning on the always-open clock, where 2330 trades every second or so at any hour, so ticks come fast. */
const SIM_START = '2026-11-23T08:00:05+08:00';

describe('dashboard in Chromium', { skip: chromiumMissing() ?? false }, () => {
  let running: BrowserGateway;
  let base: string;

  before(async () => {
    // Every test opens a fresh dashboard on this one daemon, each reading the portfolio: a dozen of them within
    // five seconds would pass the accounting group's 25 calls and meet a 429 that no user of one page meets.
    running = await startBrowserGateway(SIM_START, { SJ_SIM_LIMITS: 'off' });
    ({ base } = running);
  });

  afterEach(() => running.closeContexts());

  after(async () => {
    await running?.close();
  });

  /** A fresh page (own storage) on the dashboard, with its errors collected. */
  async function openDashboard(): Promise<{ page: Page; errors: string[]; context: BrowserContext }> {
    const context = await running.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${base}/`);
    return { page, errors, context };
  }

  const byTestId = (page: Page, id: string) => page.getByTestId(id);

  async function waitForLoadedCards(page: Page): Promise<void> {
    for (const card of CARDS) await byTestId(page, `card-${card}`).waitFor({ state: 'visible' });
    await byTestId(page, 'server-version').getByText('0.1.0', { exact: true }).waitFor();
    await byTestId(page, 'account-default').first().waitFor();
    await byTestId(page, 'streams-page').getByText('live').waitFor();
    await byTestId(page, 'chart-status').waitFor({ state: 'detached' });
    await until('the quotes of the market watch', async () => {
      const lasts = await page.locator('[data-testid^="watch-last-"]').allInnerTexts();
      return lasts.length === WATCHED_AT_FIRST.length && lasts.every((text) => text !== '—');
    });
    await until(
      'the subscriptions list',
      async () => (await page.locator('[data-testid^="subscription-"]').count()) >= 2 * WATCHED_AT_FIRST.length,
    );
  }

  async function screenshotCards(page: Page, suffix = ''): Promise<void> {
    for (const card of CARDS) {
      await byTestId(page, `card-${card}`).screenshot({ path: join(SCREENSHOTS, `${card}${suffix}.png`) });
    }
  }

  test('loads with every card filled in and no errors', async () => {
    const { page, errors } = await openDashboard();
    await waitForLoadedCards(page);
    assert.equal(await byTestId(page, 'server-mode').innerText(), 'Simulation · clock always open');
    await byTestId(page, 'server-time')
      .getByText(/^2026-11-23 08:0\d:\d\d TW$/)
      .waitFor();
    assert.match(await byTestId(page, 'usage-connections').innerText(), /^\d+$/);
    for (const code of WATCHED_AT_FIRST) {
      assert.match(await byTestId(page, `watch-last-${code}`).innerText(), /^[\d,.]+$/, code);
    }
    await screenshotCards(page);
    assert.deepEqual(errors, []);
  });

  test('live ticks reach the market watch', async () => {
    const { page, errors } = await openDashboard();
    await byTestId(page, 'watch-row-2330').waitFor();
    // The counters start at 0 with the page: any count is a trade that came over the stream while it was open.
    await until(
      'a trade on the stream',
      async () => {
        const counts = await page.locator('[data-testid^="watch-ticks-"]').allInnerTexts();
        return counts.some((count) => Number(count) > 0);
      },
      15_000,
    );
    assert.deepEqual(errors, []);
  });

  test('the market watch is saved as a watchlist and loaded back from one', async () => {
    const { page, errors } = await openDashboard();
    await byTestId(page, 'watch-row-2330').waitFor();
    page.once('dialog', (dialog) => void dialog.accept('  browser list '));
    await byTestId(page, 'watch-save').click();
    await byTestId(page, 'watch-lists')
      .locator('option', { hasText: 'browser list (6)' })
      .waitFor({ state: 'attached' });
    const saved = (await (await fetch(`${base}/api/v1/watchlist`)).json()) as {
      id: string;
      contracts: { code: string }[];
    }[];
    const list = saved.find((l) => l.contracts.length === 6);
    assert.deepEqual(
      list?.contracts.map((c) => c.code),
      WATCHED_AT_FIRST,
    );

    // A list made elsewhere (the API, the CLI) is loaded into the market watch from the select.
    const other = await fetch(`${base}/api/v1/watchlist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'two', contracts: [{ code: '2454' }, { code: '2330' }] }),
    });
    const made = (await other.json()) as { id: string };
    await page.reload({ waitUntil: 'domcontentloaded' });
    await byTestId(page, 'watch-lists').locator('option', { hasText: 'two (2)' }).waitFor({ state: 'attached' });
    await byTestId(page, 'watch-lists').selectOption(made.id);
    await until('the loaded list', async () => (await page.locator('[data-testid^="watch-row-"]').count()) === 2);
    await byTestId(page, 'watch-row-2454').waitFor();

    // Saving with the list chosen replaces its contracts.
    await byTestId(page, 'watch-remove-2330').click();
    await byTestId(page, 'watch-save').click();
    await byTestId(page, 'watch-lists').locator('option', { hasText: 'two (1)' }).waitFor({ state: 'attached' });
    await fetch(`${base}/api/v1/watchlist/${made.id}`, { method: 'DELETE' });
    if (list) await fetch(`${base}/api/v1/watchlist/${list.id}`, { method: 'DELETE' });
    assert.deepEqual(errors, []);
  });

  test('an order goes from the ticket, after its confirmation, to the blotters', async () => {
    const { page, errors } = await openDashboard();
    await byTestId(page, 'watch-row-2330').getByRole('button', { name: /^2330/ }).click();
    await byTestId(page, 'ticket-code').getByText('2330').waitFor();

    // A marketable order: bought at once, so it shows in deals and positions.
    await byTestId(page, 'ticket-price-type').selectOption('MKT');
    assert.equal(await byTestId(page, 'ticket-order-type').inputValue(), 'IOC');
    await byTestId(page, 'ticket-review').click();
    const confirm = byTestId(page, 'ticket-confirm');
    assert.equal(await confirm.innerText(), 'Confirm Buy 1 × 2330 @ MKT');
    await confirm.click();
    await byTestId(page, 'ticket-result')
      .getByText(/^Filled · 1 @ [\d,.]+ · order \w+$/)
      .waitFor();
    await byTestId(page, 'deals-table').locator('tbody tr[data-testid^=deal-]').first().waitFor();
    await byTestId(page, 'position-2330').waitFor();
    assert.match(await byTestId(page, 'position-2330').innerText(), /2330\s+Buy\s+1\b/);

    // A limit order at the limit-down price rests: it is working until cancelled from the blotter.
    const info = (await (await fetch(`${base}/api/v1/data/contracts/2330/info`)).json()) as { limit_down: number };
    await byTestId(page, 'ticket-price-type').selectOption('LMT');
    await byTestId(page, 'ticket-order-type').selectOption('ROD');
    await byTestId(page, 'ticket-price').fill(String(info.limit_down));
    await byTestId(page, 'ticket-review').click();
    assert.equal(await confirm.innerText(), `Confirm Buy 1 × 2330 @ ${info.limit_down}`);
    await confirm.click();
    const placed = byTestId(page, 'ticket-result').getByText(/^Submitted · order (\w+)$/);
    await placed.waitFor();
    const orderId = (await placed.innerText()).split('order ')[1]!;
    const row = byTestId(page, `order-${orderId}`);
    await row.getByText('Submitted').waitFor();
    await byTestId(page, `order-cancel-${orderId}`).click();
    await row.getByText('Cancelled').waitFor();

    // An order the rules refuse shows every rule it breaks, each with its English.
    await byTestId(page, 'ticket-price').fill('9999');
    await byTestId(page, 'ticket-review').click();
    await confirm.click();
    await byTestId(page, 'ticket-result')
      .getByText(/^價格檔數錯誤 \(price not on the tick grid/)
      .waitFor();
    assert.equal(
      await byTestId(page, 'ticket-also').first().innerText(),
      "also: 價格超過漲跌幅範圍 (price outside today's limits)",
    );

    // A request the gateway refuses shows its message as the gateway worded it.
    await byTestId(page, 'ticket-quantity').fill('0');
    await byTestId(page, 'ticket-review').click();
    await confirm.click();
    await byTestId(page, 'ticket-result')
      .getByText(/^invalid request \(1 problem\): .*quantity/)
      .waitFor();
    assert.deepEqual(
      errors.filter((error) => !error.includes('422')),
      [],
    );
  });

  test('an app folder is uploaded, opened in a new tab and deleted', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'sjgate-app-'));
    const dist = join(folder, 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><html><body><h1>Demo</h1><script src="assets/app.js"></script></body></html>',
    );
    writeFileSync(
      join(dist, 'assets', 'app.js'),
      "const proof = document.createElement('p'); proof.id = 'proof'; proof.textContent = 'app ran'; document.body.append(proof);",
    );
    try {
      const { page, context, errors } = await openDashboard();
      await byTestId(page, 'apps-name').fill('bad name');
      await byTestId(page, 'apps-input').setInputFiles(dist);
      await byTestId(page, 'apps-picked').getByText('2 files', { exact: false }).waitFor();
      await byTestId(page, 'apps-upload').click();
      await byTestId(page, 'apps-error')
        .getByText(/invalid app name "bad name"/)
        .waitFor();

      await byTestId(page, 'apps-name').fill('browser-demo');
      await byTestId(page, 'apps-upload').click();
      await byTestId(page, 'apps-done').getByText('Uploaded 2 files to /apps/browser-demo/').waitFor();
      await byTestId(page, 'app-browser-demo').waitFor();

      const [opened] = await Promise.all([
        context.waitForEvent('page'),
        byTestId(page, 'app-open-browser-demo').click(),
      ]);
      await opened.locator('#proof').getByText('app ran').waitFor();
      assert.equal(new URL(opened.url()).pathname, '/apps/browser-demo/');
      await opened.close();

      await byTestId(page, 'app-delete-browser-demo').click();
      await byTestId(page, 'app-delete-confirm-browser-demo').click();
      await byTestId(page, 'app-browser-demo').waitFor({ state: 'detached' });
      const listed = (await (await fetch(`${base}/api/v1/apps`)).json()) as { apps: string[] };
      assert.ok(!listed.apps.includes('browser-demo'));
      assert.deepEqual(
        errors.filter((error) => !error.includes('400')),
        [],
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('a gateway open to the network asks for its keys, and works once they are given', async () => {
    const openHome = mkdtempSync(join(tmpdir(), 'sjgate-browser-keys-'));
    const keyed = await startGateway(
      loadConfig({
        SJ_HOME_PATH: openHome,
        SJ_HTTP_ADDR: '0.0.0.0:0',
        SJ_API_KEY: 'demo-key',
        SJ_SEC_KEY: 'demo-secret',
        SJ_SIM_START: SIM_START,
      }),
      () => undefined,
    );
    try {
      const context = await running.newContext();
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${keyed.port}/`);
      await byTestId(page, 'signin').waitFor();
      await byTestId(page, 'signin-token').fill('demo-key:wrong');
      await byTestId(page, 'signin-submit').click();
      await byTestId(page, 'signin').getByText('Invalid API credentials').waitFor();
      await byTestId(page, 'signin-token').fill('demo-key:demo-secret');
      await byTestId(page, 'signin-submit').click();
      await byTestId(page, 'account-default').first().waitFor();
      await byTestId(page, 'streams-page').getByText('live').waitFor();
      assert.equal(await byTestId(page, 'signin').count(), 0);
    } finally {
      await keyed.close();
      rmSync(openHome, { recursive: true, force: true });
    }
  });

  test('the theme toggle sets .dark on <html> and the choice survives a reload', async () => {
    const { page } = await openDashboard();
    const htmlClass = () => page.locator('html').getAttribute('class');
    assert.doesNotMatch((await htmlClass()) ?? '', /\bdark\b/);
    await byTestId(page, 'theme-toggle').click();
    assert.match((await htmlClass()) ?? '', /\bdark\b/);
    assert.equal(await page.evaluate("localStorage.getItem('theme')"), 'dark');
    await page.reload({ waitUntil: 'domcontentloaded' });
    assert.match((await htmlClass()) ?? '', /\bdark\b/);
    await waitForLoadedCards(page);
    await screenshotCards(page, '-dark');
    await byTestId(page, 'theme-toggle').click();
    assert.doesNotMatch((await htmlClass()) ?? '', /\bdark\b/);
    assert.equal(await page.evaluate("localStorage.getItem('theme')"), 'light');
  });
});
