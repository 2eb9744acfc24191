// Runs the simulated market live over the whole catalog in this process and prints what it cost as JSON:
// every stock, ETF, warrant, index, futures and option contract watched (board lots, plus odd lots and trial
// matches for stocks), each trade turned into a tick payload, on a clock that moves at real speed.

import { SimBroker } from '../src/broker/sim/sim-broker.js';
import type { SecurityType } from '../src/domain/contracts.js';
import { clockStartingAt, taipeiInstant } from '../src/domain/time.js';

const [mode, day, time, seconds] = process.argv.slice(2) as ['exchange' | 'always-open', string, string, string];
const broker = new SimBroker({
  clock: clockStartingAt(taipeiInstant(day, time)),
  seed: 1,
  clockMode: mode,
  apiKey: null,
});
const types: SecurityType[] = ['STK', 'IND', 'FUT', 'OPT', 'WRT'];
const contracts = types.flatMap((type) => broker.contracts.list(type));
let trades = 0;
let bytes = 0;
broker.feed.onUpdate((update) => {
  for (let k = update.from; k < update.to; k++) {
    const payload = JSON.stringify({
      code: update.info.code,
      time: update.tape.times[k],
      close: String(update.tape.prices[k]),
      volume: update.tape.volumes[k],
      tick_type: update.tape.tickTypes[k],
      simtrade: update.kind === 'trial',
      intraday_odd: update.kind === 'odd',
    });
    bytes += payload.length;
    trades++;
  }
});

const warmStart = performance.now();
for (const contract of contracts) {
  broker.feed.watch(contract.code, 'board');
  if (contract.security_type === 'STK') {
    broker.feed.watch(contract.code, 'odd');
    broker.feed.watch(contract.code, 'trial');
  }
}
const warmupMs = performance.now() - warmStart;
broker.start();
const cpuBefore = process.cpuUsage();
const wallBefore = performance.now();
await new Promise((resolve) => setTimeout(resolve, Number(seconds) * 1000));
const cpu = process.cpuUsage(cpuBefore);
const wall = performance.now() - wallBefore;
await broker.close();
console.log(
  JSON.stringify({
    watched: broker.feed.size,
    contracts: contracts.length,
    warmup_ms: Math.round(warmupMs),
    trades_per_s: Math.round((trades / wall) * 1000 * 10) / 10,
    payload_bytes_per_s: Math.round((bytes / wall) * 1000),
    cpu_share_of_one_core: Math.round(((cpu.user + cpu.system) / 1000 / wall) * 1000) / 1000,
    rss_mb: Math.round(process.memoryUsage().rss / 1048576),
  }),
);
