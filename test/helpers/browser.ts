// Debian's Chromium driven by playwright-core, for the browser tests. Never `npx playwright install`: it downloads
// a browser, which fails offline.

import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

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
