// Debian's Chromium driven by playwright-core, for the browser tests. Never `npx playwright install`: it downloads
// a browser, which fails offline.

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { loadConfig } from '../../src/config.js';
import { type RunningGateway, startGateway } from '../../src/server/main.js';
import { packageRoot } from '../../src/server/routes/dashboard.js';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or null when they can. */
export function chromiumMissing(): string | null {
  if (existsSync(chromiumPath)) return null;
  return (
    `Chromium is not at ${chromiumPath}: install it (apt-get install chromium) or point CHROMIUM_PATH at a ` +
    'Chromium or Chrome binary'
  );
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Collects what the page reports as errors: console errors (failed requests among them) and uncaught exceptions. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

/** Where the browser tests put their screenshots. */
export const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

export interface BrowserGateway {
  gateway: RunningGateway;
  browser: Browser;
  /** `http://127.0.0.1:<port>` of the gateway. */
  base: string;
  close(): Promise<void>;
}

/**
 * A real gateway (the simulator's always-open clock from `simStart`, in a fresh data home) and Chromium, for a file
 * of browser tests; `env` adds settings. Fails when the dashboard is not built.
 */
export async function startBrowserGateway(simStart: string, env: Record<string, string> = {}): Promise<BrowserGateway> {
  if (!existsSync(join(packageRoot(), 'dist', 'web', 'index.html'))) {
    throw new Error('the dashboard is not built: run `npm run build` (npm test does) before the browser tests');
  }
  const home = mkdtempSync(join(tmpdir(), 'sjgate-browser-'));
  const config = loadConfig({
    SJ_HOME_PATH: home,
    SJ_HTTP_ADDR: '127.0.0.1:0',
    SJ_SIM_CLOCK: 'always-open',
    SJ_SIM_START: simStart,
    ...env,
  });
  const [gateway, browser] = await Promise.all([startGateway(config, () => undefined), launchChromium()]);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    gateway,
    browser,
    base: `http://127.0.0.1:${gateway.port}`,
    async close() {
      await browser.close();
      await gateway.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Polls `check` until it holds. Not page.waitForFunction: the dashboard's CSP (rightly) forbids its eval. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
