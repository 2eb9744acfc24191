// The whole catalog live (targets: under 25% of one core, under 300 MB RSS), in a process of its own so its
// memory is the market's alone: at the busiest time of the exchange day and in always-open mode.

import { spawnSync } from 'node:child_process';

const SECONDS = process.env.BENCH_LIVE_SECONDS ?? '20';

function live(mode: string, day: string, time: string) {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', `${import.meta.dirname}/live-market-worker.ts`, mode, day, time, SECONDS],
    { encoding: 'utf8' },
  );
  if (child.status !== 0) throw new Error(`live market worker failed: ${child.stderr}`);
  const result = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as object;
  return {
    benchmark: 'market-live-whole-catalog',
    mode,
    start: `${day}T${time}`,
    seconds: Number(SECONDS),
    ...result,
    target_cpu_share: 0.25,
    target_rss_mb: 300,
  };
}

export async function run() {
  return [live('exchange', '2026-11-23', '09:00'), live('always-open', '2026-11-23', '10:00')];
}
