// How long `sjgate server start` takes until the daemon answers healthy (target < 1.5 s), and how long a CLI
// command takes end to end against a running daemon (target < 300 ms, and < 2x a bare `node -e ''` timed between its
// rounds).

import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { daemonEnv } from './daemon.js';

const execNode = promisify(execFile);

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (ms: number) => Math.round(ms);

export async function run() {
  const starts: number[] = [];
  const commands: number[] = [];
  const bareNode: number[] = [];
  for (let i = 0; i < Math.min(ROUNDS, 5); i++) {
    const daemon = await daemonEnv();
    const begin = performance.now();
    await daemon.cli('server', 'start');
    const health = await fetch(`${daemon.baseUrl}/api/v1/health`);
    if (!health.ok) throw new Error(`daemon not healthy after start: ${health.status}`);
    starts.push(performance.now() - begin);
    if (i === 0) {
      for (let j = 0; j < ROUNDS; j++) {
        const t = performance.now();
        await daemon.cli('contracts', 'get', '2330', '--format', 'json');
        commands.push(performance.now() - t);
        const bare = performance.now();
        await execNode(process.execPath, ['-e', '']);
        bareNode.push(performance.now() - bare);
      }
    }
    await daemon.cli('server', 'stop');
  }
  return [
    {
      benchmark: 'daemon-start-to-healthy',
      rounds: starts.length,
      median_ms: round(median(starts)),
      max_ms: round(Math.max(...starts)),
      target_ms: 1500,
    },
    {
      benchmark: 'cli-round-trip',
      command: 'sjgate contracts get 2330 --format json',
      rounds: commands.length,
      median_ms: round(median(commands)),
      max_ms: round(Math.max(...commands)),
      target_ms: 300,
      bare_node_median_ms: round(median(bareNode)),
      times_bare_node: Math.round((median(commands) / median(bareNode)) * 100) / 100,
      target_times_bare_node: 2,
    },
  ];
}
