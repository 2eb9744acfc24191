// How long the human format takes for a long result: `sjgate data kbars --code TXFR1` over a week (about 10,000
// one-minute bars) as a table against the same as JSON, end to end, and the table drawing alone for 10,000 rows.
// Target: the table under 1 s end to end.

import { performance } from 'node:perf_hooks';
import { formatTable } from '../src/cli/output.js';
import { startDaemon } from './daemon.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The calendar day in Taiwan `daysAgo` days before now. */
const taipeiDay = (daysAgo: number) =>
  new Date(Date.now() + 8 * 3_600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);

function drawingAlone(): number {
  const rows = Array.from({ length: 10_000 }, (_, index) => ({
    datetime: `2026-11-20T${String(index % 24).padStart(2, '0')}:00:00`,
    Open: 22_000 + index,
    High: 22_010 + index,
    Low: 21_990 + index,
    Close: 22_005 + index,
    Volume: index % 97,
    Amount: index * 1_000,
  }));
  const times = Array.from({ length: ROUNDS }, () => {
    const begin = performance.now();
    formatTable(rows);
    return performance.now() - begin;
  });
  return median(times);
}

export async function run() {
  const daemon = await startDaemon();
  try {
    const args = ['data', 'kbars', '--code', 'TXFR1', '--start', taipeiDay(6), '--end', taipeiDay(0)];
    const timed = async (format: string) => {
      const times: number[] = [];
      let lines = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const begin = performance.now();
        const { stdout } = await daemon.cli(...args, '--format', format);
        times.push(performance.now() - begin);
        lines = stdout.split('\n').length;
      }
      return { median_ms: Math.round(median(times)), lines };
    };
    const human = await timed('human');
    const json = await timed('json');
    return [
      { benchmark: 'cli-kbars-week-human', command: `sjgate ${args.join(' ')}`, ...human, target_ms: 1000 },
      { benchmark: 'cli-kbars-week-json', command: `sjgate ${args.join(' ')} --format json`, ...json },
      { benchmark: 'cli-table-10000-rows', median_ms: Math.round(drawingAlone()) },
    ];
  } finally {
    await daemon.stop();
  }
}
