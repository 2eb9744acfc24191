// The real daemon with the whole TWSE + TPEx listing live (some 2,300 stocks, ETFs and ETNs): its memory (RSS) and CPU
// after each whole-market read, and how long each one takes: listing every stock, snapshots of every stock (in
// requests of 500), the scanner ranking, the daily quotes, the index components, and the first scanner subscription
// on each exchange. Run with the rest: `npm run bench -- whole-listing`.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDaemon } from './daemon.js';

const CLOCK_TICKS_PER_S = 100;

/** Resident memory (MB) and CPU seconds (user + system) of a process, from /proc. */
function usageOf(pid: number): { rss_mb: number; cpu_s: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { rss_mb: Math.round(rssKb / 1024), cpu_s: Number((ticks / CLOCK_TICKS_PER_S).toFixed(2)) };
}

export async function run() {
  const daemon = await startDaemon();
  const pid = Number(readFileSync(join(daemon.home, `server-${daemon.port}.pid`), 'utf8'));
  const api = `${daemon.baseUrl}/api/v1`;
  const post = (path: string, body: unknown) =>
    fetch(`${api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const steps: Record<string, unknown>[] = [];
  const step = async (name: string, action: () => Promise<unknown>) => {
    const begin = performance.now();
    const detail = await action();
    steps.push({ step: name, ms: Math.round(performance.now() - begin), ...usageOf(pid), ...(detail ?? {}) });
  };
  try {
    steps.push({ step: 'started', ms: 0, ...usageOf(pid) });
    let codes: string[] = [];
    await step('GET /data/contracts?security_type=STK', async () => {
      const body = (await (await fetch(`${api}/data/contracts?security_type=STK`)).json()) as {
        contracts: { code: string }[];
      };
      codes = body.contracts.map((c) => c.code);
      return { stocks: codes.length };
    });
    await step('GET /data/contracts?security_type=STK again', async () => {
      await (await fetch(`${api}/data/contracts?security_type=STK`)).arrayBuffer();
    });
    await step('GET /data/contracts/9910 (a stock outside the hand-picked list)', async () => {
      const response = await fetch(`${api}/data/contracts/9910`);
      if (!response.ok) throw new Error(`9910: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    });
    await step('POST /data/snapshots of every stock (500 a request)', async () => {
      for (let i = 0; i < codes.length; i += 500) {
        const contracts = codes.slice(i, i + 500).map((code) => ({ security_type: 'STK', code }));
        const response = await post('/data/snapshots', { contracts });
        if (!response.ok) throw new Error(`snapshots: ${response.status} ${await response.text()}`);
        await response.arrayBuffer();
      }
    });
    await step('POST /data/snapshots of every stock again', async () => {
      for (let i = 0; i < codes.length; i += 500) {
        const contracts = codes.slice(i, i + 500).map((code) => ({ security_type: 'STK', code }));
        await (await post('/data/snapshots', { contracts })).arrayBuffer();
      }
    });
    await step('POST /data/scanner (volume ranking)', async () => {
      await (await post('/data/scanner', { scanner_type: 'VolumeRank' })).arrayBuffer();
    });
    await step('POST /data/index_components IX0001', async () => {
      await (await post('/data/index_components', { contract: { code: 'IX0001' } })).arrayBuffer();
    });
    await step('POST /stream/subscribe/scanner on TSE and OTC', async () => {
      for (const exchange of ['TSE', 'OTC']) {
        const body = { scanner: 'volume_burst', region: 'TW', security_type: 'STK', exchange };
        const response = await post('/stream/subscribe/scanner', body);
        if (!response.ok) throw new Error(`scanner: ${response.status} ${await response.text()}`);
      }
    });
    await step('idle 10 s with the scanners live', () => new Promise((resolve) => setTimeout(resolve, 10_000)));
    return steps.map((s) => ({ benchmark: 'whole-listing-daemon', ...s }));
  } finally {
    await daemon.stop();
  }
}
