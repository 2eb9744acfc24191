// The Shioaji venue against the venue port's conformance suite: a ShioajiVenue driving the real bridge sidecar and the
// real SDK models, with SinoPac's side scripted (python/README.md). Each test gets a fresh scenario and a fresh
// SinoPac state in a temporary directory, removed when the venue closes.
//
// A live venue has no virtual clock: `advance(ms)` waits in real time. It waits at most ADVANCE_CAP_MS, because the
// suite lets minutes of market time pass (the quote feed group) and the scripted market is fast: it streams a quote
// every QUOTE_INTERVAL_MS, so a capped wait still holds several ticks of every subscribed code.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import { ShioajiVenue } from '../../src/broker/shioaji/shioaji-venue.js';
import { BRIDGE_PYTHON, KEYS, productionSkip } from '../helpers/production.js';
import { describeVenueConformance } from './conformance.js';

const QUOTE_INTERVAL_MS = 20;
const ADVANCE_MIN_MS = 5;
const ADVANCE_CAP_MS = 150;

const skip = productionSkip();

async function openScriptedVenue(): Promise<ShioajiVenue> {
  const home = mkdtempSync(join(tmpdir(), 'sjgate-conformance-'));
  const scenarioPath = join(home, 'scenario.json');
  writeFileSync(
    scenarioPath,
    JSON.stringify({ state_path: join(home, 'sinopac.json'), quotes: { interval_ms: QUOTE_INTERVAL_MS } }),
  );
  // The sidecar inherits this process's environment, at every restart too.
  process.env.SJGATE_BRIDGE_SCRIPT = scenarioPath;
  const log: string[] = [];
  try {
    const venue = await ShioajiVenue.open({
      python: BRIDGE_PYTHON,
      credentials: { apiKey: KEYS.SJ_API_KEY, secretKey: KEYS.SJ_SEC_KEY },
      ca: null,
      simulation: true,
      log: (line) => log.push(line),
    });
    const close = venue.close.bind(venue);
    venue.close = async () => {
      try {
        await close();
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    };
    return venue;
  } catch (error) {
    rmSync(home, { recursive: true, force: true });
    throw new Error(`the scripted venue did not open: ${String(error)}\n${log.join('\n')}`);
  }
}

if (skip) {
  describe('venue port conformance: shioaji (scripted SinoPac)', { skip }, () => undefined);
} else {
  describeVenueConformance('shioaji (scripted SinoPac)', async () => {
    const venue = await openScriptedVenue();
    return {
      venue,
      async advance(ms) {
        const wait = Math.min(Math.max(ms, ADVANCE_MIN_MS), ADVANCE_CAP_MS);
        await new Promise((resolve) => setTimeout(resolve, wait));
      },
    };
  });
}
