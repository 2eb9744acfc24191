// What a newcomer noticed in the dashboard, each checked in Chromium on the exchange clock in the futures night
// session: the chart's history reaches the night session (the futures trading day is the next one since 15:00), the
// market watch's names and the add box's hint are not cut off, the theme follows the system until the user picks one,
// the order blotter names a contract once, and the API docs lead back to the dashboard.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  type BrowserGateway,
  chromiumMissing,
  collectErrors,
  SCREENSHOTS,
  startBrowserGateway,
  until,
} from '../helpers/browser.js';

/** A Monday in the night session: the futures trading day is Tuesday, the quotes' calendar date Monday. */
const SIM_START = '2026-11-23T15:44:00+08:00';

describe('dashboard details in Chromium', { skip: chromiumMissing() ?? false }, () => {
  let running: BrowserGateway;

  before(async () => {
    running = await startBrowserGateway(SIM_START, { SJ_SIM_CLOCK: 'exchange', SJ_SIM_LIMITS: 'off' });
  });

  afterEach(() => running.closeContexts());

  after(async () => {
    await running?.close();
  });

  async function open(
    colorScheme: 'light' | 'dark' = 'light',
    width = 1280,
  ): Promise<{ page: Page; errors: string[] }> {
    const context = await running.newContext({ viewport: { width, height: 1000 }, colorScheme });
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${running.base}/`);
    return { page, errors };
  }

  test("the chart's history holds the night session so far, with no jump to the live bar", async () => {
    const { page, errors } = await open();
    const frame = page.getByTestId('chart-frame');
    // Until TXFR1's first quote tells the chart the futures trading day, it may load the history of the calendar day
    // (ending with the day session at 13:45); the quote comes at once and the history is loaded again.
    // Bars are labelled by the end of their minute: the last one loaded is 15:44 (or 15:45 if a trade just came).
    let end = '';
    await until('the night session in the chart history', async () => {
      end = (await frame.getAttribute('data-history-end')) ?? '';
      return end >= '2026-11-23T15:40';
    }).catch(() => undefined);
    assert.ok(end >= '2026-11-23T15:40' && end <= '2026-11-23T15:46', `the history ends at ${end}`);
    assert.deepEqual(errors, []);
  });

  test("the market watch's names and the add box's hint are shown whole", async () => {
    const { page } = await open();
    await until('the names', async () => {
      const names = await page.locator('[data-testid^="watch-name-"]').allInnerTexts();
      return names.length > 0 && names.every((name) => name.trim() !== '');
    });
    const cut = await page
      .locator('[data-testid^="watch-name-"]')
      .evaluateAll((names) =>
        names
          .filter((name) => name.scrollHeight > name.clientHeight || name.scrollWidth > name.clientWidth)
          .map(
            (name) =>
              `${name.getAttribute('data-testid')} ${name.scrollWidth}x${name.scrollHeight} in ${name.clientWidth}x${name.clientHeight}`,
          ),
      );
    assert.deepEqual(cut, []);
    const hintFits = await page.getByTestId('watch-add-input').evaluate((input) => {
      if (!('placeholder' in input)) return false;
      input.value = input.placeholder;
      const fits = input.scrollWidth <= input.clientWidth;
      input.value = '';
      return fits;
    });
    assert.ok(hintFits, 'the placeholder of the add box is cut off');
  });

  test('the theme follows a change of the system setting until the user picks one', async () => {
    const { page } = await open('light');
    const isDark = async () => /\bdark\b/.test((await page.locator('html').getAttribute('class')) ?? '');
    assert.equal(await isDark(), false);
    await page.emulateMedia({ colorScheme: 'dark' });
    await until('the dark theme', isDark);
    await page.emulateMedia({ colorScheme: 'light' });
    await until('the light theme', async () => !(await isDark()));
    // Once picked, the user's choice wins over the system's: the page has seen the system turn dark and light again
    // (its own listener, registered at load, runs before the test's) and stays dark.
    await page.getByTestId('theme-toggle').click();
    assert.equal(await isDark(), true);
    for (const colorScheme of ['dark', 'light'] as const) {
      // Kept on window: a media query list nothing refers to may be collected with its listener. The expression ends
      // in undefined, or evaluate would wait for the promise.
      await page.evaluate(`window.schemeQuery = matchMedia('(prefers-color-scheme: dark)');
        window.schemeChanged = new Promise((resolve) => schemeQuery.addEventListener('change', resolve, { once: true }));
        undefined`);
      await page.emulateMedia({ colorScheme });
      await page.evaluate('window.schemeChanged');
    }
    assert.equal(await isDark(), true);
  });

  test('the order blotter names a futures contract once, not as "TXFL6 (TXFL6)"', async () => {
    const info = (await (await fetch(`${running.base}/api/v1/data/contracts/TXFR1/info`)).json()) as {
      limit_down: number;
    };
    const body = {
      contract: { security_type: 'FUT', exchange: 'TAIFEX', code: 'TXFR1' },
      futures_order: {
        action: 'Buy',
        price: info.limit_down,
        quantity: 1,
        price_type: 'LMT',
        order_type: 'ROD',
        octype: 'Auto',
      },
    };
    const placed = await fetch(`${running.base}/api/v1/order/place_order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const trade = (await placed.json()) as { order: { id: string }; contract: { code: string } };
    assert.equal(placed.status, 200, JSON.stringify(trade));
    const { page } = await open();
    const row = page.getByTestId(`order-${trade.order.id}`);
    await row.waitFor();
    const code = (await row.locator('td.mono', { hasText: /^TXF/ }).innerText()).trim();
    assert.ok(code.startsWith('TXF'), code);
    assert.doesNotMatch(code, /^(\w+) \(\1\)$/);
  });

  for (const width of [1280, 1920]) {
    test(`at ${width} px wide no card's content spills out of it (a screenshot of each)`, async () => {
      const { page, errors } = await open('light', width);
      const cards = page.locator('[data-testid^="card-"]');
      await until('the cards', async () => (await cards.count()) >= 9);
      await page.getByTestId('chart-status').waitFor({ state: 'detached' });
      const spilled = await cards.evaluateAll((all) =>
        all
          .filter((card) => card.scrollWidth > card.clientWidth + 1)
          .map((card) => `${card.getAttribute('data-testid')} ${card.scrollWidth} > ${card.clientWidth}`),
      );
      for (const id of await cards.evaluateAll((all) => all.map((card) => card.getAttribute('data-testid')))) {
        await page.getByTestId(id!).screenshot({ path: join(SCREENSHOTS, `${id}-${width}.png`) });
      }
      assert.deepEqual(spilled, []);
      assert.deepEqual(errors, []);
    });
  }

  test('the API docs link back to the dashboard', async () => {
    const { page } = await open();
    await page.goto(`${running.base}/docs`);
    const back = page.getByRole('link', { name: /Back to the dashboard/ });
    await back.waitFor();
    assert.equal(await back.getAttribute('href'), '/');
    assert.equal(await page.title(), 'sjgate API');
  });
});
