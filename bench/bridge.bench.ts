// The production bridge's own cost, beside the simulator's path: the round trip of one call through the sidecar
// (ping, and place_order through the venue), and quote events per second through the sidecar with the CPU each
// costs in the daemon and in the sidecar. SinoPac is the bridge's scripted session, so what is measured is the bridge
// (spawned Python, NDJSON over pipes, the SDK models, the converters), not SinoPac's network.
//
// Needs python/.venv (see .ci/run). BENCH_BRIDGE_CALLS (2000), BENCH_BRIDGE_ORDERS (500), BENCH_DURATION (5 s).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Venue } from '../src/broker/port.js';
import { ShioajiVenue } from '../src/broker/shioaji/shioaji-venue.js';
import { Sidecar } from '../src/broker/shioaji/sidecar.js';
import { SimVenue } from '../src/broker/sim/sim-venue.js';
import { ManualClock, systemClock, taipeiInstant } from '../src/domain/time.js';

const PYTHON = resolve('python', '.venv', 'bin', 'python');
const CALLS = Number(process.env.BENCH_BRIDGE_CALLS ?? 2000);
const ORDERS = Number(process.env.BENCH_BRIDGE_ORDERS ?? 500);
const DURATION_MS = Number(process.env.BENCH_DURATION ?? 5) * 1000;
const KEYS = { apiKey: 'bench-api-key', secretKey: `3${'1'.repeat(43)}` };

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const round3 = (value: number) => Math.round(value * 1000) / 1000;
const latency = (samples: number[]) => ({
  p50_ms: round3(percentile(samples, 0.5)),
  p99_ms: round3(percentile(samples, 0.99)),
});

/** CPU seconds (user + system) a process has used, from /proc. */
function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const nodeCpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

function scenario(dir: string, quotesIntervalMs: number): Record<string, string> {
  const path = join(dir, `scenario-${quotesIntervalMs}.json`);
  // No state_path: the scripted SinoPac then keeps its orders in memory, so its own bookkeeping (a JSON file
  // rewritten per order) is not timed as the bridge's.
  writeFileSync(path, JSON.stringify({ quotes: { interval_ms: quotesIntervalMs } }));
  process.env.SJGATE_BRIDGE_SCRIPT = path;
  return { SJGATE_BRIDGE_SCRIPT: path };
}

async function openBridge(dir: string, quotesIntervalMs: number): Promise<ShioajiVenue> {
  return ShioajiVenue.open({
    python: PYTHON,
    env: scenario(dir, quotesIntervalMs),
    credentials: KEYS,
    ca: null,
    simulation: true,
    log: () => undefined,
    maintenanceAt: null,
  });
}

const restingBuy = {
  contract: { code: '2330' },
  stockOrder: {
    action: 'Buy' as const,
    price: 950,
    quantity: 1,
    price_type: 'LMT' as const,
    order_type: 'ROD' as const,
    order_lot: 'Common' as const,
    order_cond: 'Cash' as const,
  },
};

async function timePlaces(venue: Venue, order: typeof restingBuy): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < ORDERS; i++) {
    const begin = performance.now();
    await venue.orders.place(order);
    samples.push(performance.now() - begin);
  }
  return samples;
}

async function roundTrips(dir: string) {
  const sidecar = await Sidecar.start({
    python: PYTHON,
    env: scenario(dir, 1000),
    onEvent: () => undefined,
    onExit: () => undefined,
    log: () => undefined,
  });
  for (let i = 0; i < 200; i++) await sidecar.call('ping');
  const pings: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const begin = performance.now();
    await sidecar.call('ping');
    pings.push(performance.now() - begin);
  }
  await sidecar.close();

  const bridge = await openBridge(dir, 1000);
  const bridgePlaces = await timePlaces(bridge, restingBuy);
  await bridge.close();
  const sim = new SimVenue({ clock: systemClock, seed: 1, clockMode: 'always-open', apiKey: null });
  const simPlaces = await timePlaces(sim, {
    ...restingBuy,
    contract: { code: '2884' },
    stockOrder: { ...restingBuy.stockOrder, price: 10 },
  });
  await sim.close();
  return {
    name: 'bridge_round_trip',
    calls: CALLS,
    orders: ORDERS,
    sidecar_ping: latency(pings),
    place_order_bridge: latency(bridgePlaces),
    place_order_simulator: latency(simPlaces),
    note: 'ping: daemon -> sidecar -> daemon over NDJSON pipes; place_order: the venue port, scripted SinoPac vs the simulator',
  };
}

async function countQuotes(venue: Venue, codes: string[], cpu: () => number) {
  let events = 0;
  const stop = venue.quotes.onMarketEvent(() => {
    events++;
  });
  for (const code of codes) {
    for (const quoteType of ['Tick', 'BidAsk'] as const) {
      await venue.quotes.subscribe(await venue.quotes.resolve({ contract: { code }, quoteType, intradayOdd: false }));
    }
  }
  await new Promise((r) => setTimeout(r, 500));
  const startEvents = events;
  const startNode = nodeCpuSeconds();
  const startOther = cpu();
  const begin = performance.now();
  await new Promise((r) => setTimeout(r, DURATION_MS));
  const seconds = (performance.now() - begin) / 1000;
  const count = events - startEvents;
  const nodeUs = ((nodeCpuSeconds() - startNode) * 1e6) / Math.max(1, count);
  const otherUs = ((cpu() - startOther) * 1e6) / Math.max(1, count);
  stop();
  return {
    events_per_s: Math.round(count / seconds),
    daemon_cpu_us_per_event: round3(nodeUs),
    sidecar_cpu_us_per_event: round3(otherUs),
  };
}

async function quotes(dir: string) {
  const bridge = await openBridge(dir, 1);
  const pid = bridge.upstream().sidecar_pid!;
  const codes = ['2330', '2890', 'TXFL6', 'TXFA7'];
  const viaBridge = await countQuotes(bridge, codes, () => processCpuSeconds(pid));
  await bridge.close();
  const viaSim = await simulatedQuotes(['2330', '2890', '2884', 'TXFR1']);
  return {
    name: 'bridge_quotes',
    duration_s: DURATION_MS / 1000,
    bridge: viaBridge,
    simulator: viaSim,
    note:
      `bridge: the scripted session emits each of ${codes.length * 2} streams every 1 ms (its ceiling is Python's, not the pipe's); ` +
      'simulator: the same streams of its own market, its clock run ahead 100 ms a step as fast as it goes; CPU per ' +
      'event is the whole simulated market (tapes, books, payloads) per event published',
  };
}

/** The simulator's feed on a clock run ahead as fast as it goes: the events it publishes and their CPU. */
async function simulatedQuotes(codes: string[]) {
  const clock = new ManualClock(taipeiInstant('2026-11-23', '09:30'));
  const sim = new SimVenue({ clock, seed: 1, clockMode: 'exchange', apiKey: null });
  let events = 0;
  sim.quotes.onMarketEvent(() => {
    events++;
  });
  for (const code of codes) {
    for (const quoteType of ['Tick', 'BidAsk'] as const) {
      await sim.quotes.subscribe(await sim.quotes.resolve({ contract: { code }, quoteType, intradayOdd: false }));
    }
  }
  const startCpu = nodeCpuSeconds();
  const begin = performance.now();
  let steps = 0;
  while (performance.now() - begin < DURATION_MS) {
    clock.advance(100);
    sim.exchange.feed.step();
    steps++;
    if (steps % 50 === 0) await new Promise((r) => setImmediate(r));
  }
  const seconds = (performance.now() - begin) / 1000;
  const cpuUs = ((nodeCpuSeconds() - startCpu) * 1e6) / Math.max(1, events);
  await sim.close();
  return {
    events_per_s: Math.round(events / seconds),
    market_seconds_per_s: Math.round((steps * 0.1) / seconds),
    daemon_cpu_us_per_event: round3(cpuUs),
  };
}

export async function run(): Promise<object[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sjgate-bench-bridge-'));
  try {
    return [await roundTrips(dir), await quotes(dir)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
