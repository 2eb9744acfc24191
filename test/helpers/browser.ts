// Debian's Chromium driven by playwright-core, for the browser tests. Never `npx playwright install`: it downloads
// a browser, which fails offline. The browser suites run in one process (test/browser/browser.test.ts) and share one
// Chromium, launched on first use; each suite starts its own gateway and each test opens its own context or page.

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { loadConfig } from '../../src/config.js';
import type { Clock } from '../../src/domain/time.js';
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

let shared: Promise<Browser> | null = null;

/** The process's one Chromium, launched on first use. */
export function sharedChromium(): Promise<Browser> {
  shared ??= launchChromium();
  return shared;
}

export async function closeSharedChromium(): Promise<void> {
  const browser = shared;
  shared = null;
  await (await browser)?.close();
}

function launchChromium(): Promise<Browser> {
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
  /** The shared Chromium: closing it is not the suite's business. */
  browser: Browser;
  /** `http://127.0.0.1:<port>` of the gateway. */
  base: string;
  /** A fresh context (own storage) in the shared Chromium, closed by closeContexts(). */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /**
   * Closes the contexts opened so far: a dashboard left open keeps drawing the live market and would take the CPU of
   * the tests after it.
   */
  closeContexts(): Promise<void>;
  /** Closes its contexts, stops the gateway and removes its data home. */
  close(): Promise<void>;
}

/** A clock that runs with the wall clock from `startMs` and can be moved ahead, so a test need not wait for the market. */
export class SkippingClock implements Clock {
  private offset: number;
  constructor(startMs: number) {
    this.offset = startMs - Date.now();
  }
  now(): number {
    return Date.now() + this.offset;
  }
  /** Moves the clock to `ms` when that is ahead of it. */
  skipTo(ms: number): void {
    this.offset += Math.max(0, ms - this.now());
  }
}

/**
 * A real gateway (the simulator's always-open clock from `simStart`, in a fresh data home, or on `clock`) and the
 * shared Chromium, for a suite of browser tests; `env` adds settings. Fails when the dashboard is not built.
 */
export async function startBrowserGateway(
  simStart: string,
  env: Record<string, string> = {},
  clock?: Clock,
): Promise<BrowserGateway> {
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
  const [gateway, browser] = await Promise.all([startGateway(config, () => undefined, { clock }), sharedChromium()]);
  mkdirSync(SCREENSHOTS, { recursive: true });
  const contexts = new Set<BrowserContext>();
  const closeContexts = async () => {
    const open = [...contexts];
    contexts.clear();
    await Promise.all(open.map((context) => context.close()));
  };
  return {
    gateway,
    browser,
    base: `http://127.0.0.1:${gateway.port}`,
    async newContext(options) {
      const context = await browser.newContext(options);
      contexts.add(context);
      return context;
    },
    closeContexts,
    async close() {
      await closeContexts();
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
