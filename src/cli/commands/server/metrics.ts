// `sjgate server metrics`: the daemon's own request metrics (GET /api/v1/monitor/metrics): totals, latency
// quantiles and the busiest endpoints of a window, of the requests clients made or the calls it made to its venue.

import { type Command, Option } from 'commander';
import { MONITOR_PATHS } from '../../../contract/paths.js';
import type { MonitorMetrics } from '../../../contract/wire.js';
import { UnreachableError } from '../../client.js';
import { action, type CliEnv, EXIT } from '../../context.js';
import { formatHeading, formatRecord, formatTable } from '../../output.js';
import { integerIn, oneOf } from '../../parsers.js';

const WINDOWS = ['5m', '15m', '1h', '6h', '24h'] as const;
const SOURCES = ['incoming', 'backend', 'gateway'] as const;
const ORIGINS = ['user', 'dashboard', 'background', 'all'] as const;
const SORTS = ['busiest', 'newest', 'slowest', 'errors'] as const;

interface MetricsOptions {
  window: (typeof WINDOWS)[number];
  source: (typeof SOURCES)[number];
  origin: (typeof ORIGINS)[number];
  category?: string;
  endpoint?: string;
  sort: (typeof SORTS)[number];
  limit: number;
}

type Micros = number | null;

/** µs as milliseconds with two decimals; '-' for none. */
const ms = (us: Micros) => (us === null ? '-' : (us / 1000).toFixed(2));

/** The query of the options: what the API takes (busiest is its default order, so not sent). */
export function metricsQuery(options: MetricsOptions): Record<string, string | number> {
  const query: Record<string, string | number> = {
    window: options.window,
    source: options.source,
    origin: options.origin,
    limit: options.limit,
  };
  if (options.sort !== 'busiest') query.sort = options.sort;
  if (options.category !== undefined) query.category = options.category;
  if (options.endpoint !== undefined) query.endpoint = options.endpoint;
  return query;
}

export function formatMetrics(answer: MonitorMetrics, color = false): string {
  const { totals, window, coverage } = answer;
  const lines = [
    formatHeading(`requests ${window.from} to ${window.to} (${window.source}, ${window.origin})`, color),
    formatRecord(
      {
        requests: totals.requests,
        errors: `${totals.errors} (${(totals.error_rate * 100).toFixed(1)}%)`,
        per_second: totals.per_second.toFixed(2),
        latency_ms: `p50 ${ms(totals.p50_us)}  p95 ${ms(totals.p95_us)}  p99 ${ms(totals.p99_us)}`,
        coverage: coverage.capturing
          ? coverage.complete
            ? 'complete'
            : `from ${new Date(coverage.from_ms).toISOString()} (the gateway holds nothing earlier)`
          : 'not capturing (capture.metrics is off)',
      },
      { indent: 2, color },
    ),
  ];
  if (answer.persistence.persistence_error) lines.push(`  warning: ${answer.persistence.persistence_error}`);
  lines.push(
    formatHeading(`endpoints (${answer.endpoints.length} of ${answer.matched})`, color),
    formatTable(
      answer.endpoints.map((row) => ({
        endpoint: `${row.method} ${row.endpoint}`,
        requests: row.requests,
        errors: row.errors,
        p50_ms: ms(row.p50_us),
        p95_ms: ms(row.p95_us),
        p99_ms: ms(row.p99_us),
      })),
      undefined,
      color,
    ),
  );
  return lines.join('\n');
}

export function registerMetrics(server: Command, env: CliEnv): void {
  server
    .command('metrics')
    .description(`the daemon's request metrics: counts, errors and latency per endpoint (GET ${MONITOR_PATHS.metrics})`)
    .addOption(
      new Option('--window <window>', 'the last 5m, 15m, 1h, 6h or 24h').argParser(oneOf(WINDOWS)).default('15m'),
    )
    .addOption(
      new Option('--source <source>', 'incoming (clients to sjgate), backend (sjgate to its venue) or gateway (both)')
        .argParser(oneOf(SOURCES))
        .default('incoming'),
    )
    .addOption(
      new Option('--origin <origin>', 'user, dashboard, background or all').argParser(oneOf(ORIGINS)).default('user'),
    )
    .option('--category <category>', 'one area: market_data, orders, portfolio, contracts, streams, ...')
    .option('--endpoint <pattern>', 'one route pattern, e.g. /api/v1/data/ticks')
    .addOption(
      new Option('--sort <order>', 'busiest, newest, slowest or errors').argParser(oneOf(SORTS)).default('busiest'),
    )
    .addOption(new Option('--limit <n>', 'endpoints shown').argParser(integerIn(1, 1000)).default(20))
    .addHelpText(
      'after',
      `
Metrics are kept in memory (the last day) and saved in the data home; docs/monitoring.md says what is measured.
Exit code 3 when no daemon is running (this command does not start one).

Examples:
  $ sjgate server metrics
  $ sjgate server metrics --window 1h --sort slowest
  $ sjgate server metrics --source backend --json totals`,
    )
    .action(
      action<MetricsOptions>(env, async (cli, options) => {
        // Not cli.call: a daemon started only to be asked would have nothing to show.
        let answer: MonitorMetrics;
        try {
          answer = await cli.client.monitor.metrics(metricsQuery(options));
        } catch (error) {
          if (!(error instanceof UnreachableError)) throw error;
          cli.printError('error: no daemon is running (sjgate server start starts one)');
          cli.io.setExitCode(EXIT.notRunning);
          return;
        }
        cli.emit(answer, formatMetrics);
      }),
    );
}
