// `sjgate data scanner-watch`: subscribe to market scanner rules or states on an exchange, print their signals as
// they come on the scanner stream, and unsubscribe on Ctrl+C.

import { type Command, InvalidArgumentError, Option } from 'commander';
import { STREAM_PATHS, streamDataPath } from '../../../contract/paths.js';
import type { ScannerSubscriptionRequest } from '../../../contract/wire.js';
import {
  isScannerRule,
  isScannerState,
  SCANNER_EXCHANGES,
  SCANNER_RULES,
  SCANNER_STATES,
  type ScannerExchange,
  type ScannerId,
} from '../../../domain/scanner-rules.js';
import type { DaemonClient } from '../../client.js';
import type { Cli, CliEnv } from '../../context.js';
import { formatLine, type Row } from '../../output.js';
import { followStream, printLine, stopSignal, streamAction } from '../../stream.js';
import { gapNotice } from './quotes.js';

export interface ScannerWatchOptions {
  rule: ScannerId[];
  exchange: ScannerExchange[];
}

/** `bid-touch-limit-up` or `bid_touch_limit_up` → bid_touch_limit_up; `simtrade`, `suspend` too. */
export function scannerName(value: string): ScannerId {
  const name = value.trim().toLowerCase().replace(/-/g, '_');
  if (isScannerRule(name) || isScannerState(name)) return name;
  throw new InvalidArgumentError(`expected one of ${[...SCANNER_RULES, ...SCANNER_STATES].join(', ')}`);
}

export function scannerExchange(value: string): ScannerExchange {
  const name = value.trim().toUpperCase();
  if ((SCANNER_EXCHANGES as readonly string[]).includes(name)) return name as ScannerExchange;
  throw new InvalidArgumentError(`expected ${SCANNER_EXCHANGES.join(' or ')}`);
}

/** Commander's collector: repeated flags and comma-separated lists add up, each name once. */
const many =
  <T>(parse: (value: string) => T) =>
  (value: string, previous: T[] | undefined): T[] => {
    const all = [...(previous ?? []), ...value.split(',').filter(Boolean).map(parse)];
    return [...new Set(all)];
  };

/** The body of POST /stream/subscribe/scanner (and its unsubscribe) for one scanner on one exchange. */
export function scannerRequest(id: ScannerId, exchange: ScannerExchange): ScannerSubscriptionRequest {
  return {
    scanner: isScannerState(id) ? id : { kind: 'preset_rule', id },
    region: 'TW',
    security_type: 'STK',
    exchange,
  };
}

const WIDTHS = [15, 4, 6, 21, 8, 7];

export function formatScannerHeader(color: boolean): string {
  return formatLine(['time', 'exch', 'code', 'scanner', 'close', 'change', 'detail'], WIDTHS, { header: true, color });
}

/** One scanner event as a row: when, where, which stock and rule, its price, and what the rule saw. */
export function formatScannerEvent(data: Row): string {
  const quote = (data.quote ?? {}) as Row;
  const name =
    typeof data.scanner === 'string' ? data.scanner : ((data.scanners as string[] | undefined) ?? []).join('+');
  return formatLine(
    [
      quote.time,
      data.exchange,
      quote.code,
      name,
      quote.close,
      quote.diff_price,
      detailOf((data.extra ?? null) as Row | null),
    ],
    WIDTHS,
  );
}

function detailOf(extra: Row | null): string {
  if (extra === null) return '';
  if ('limit_price' in extra) {
    const from = extra.previous_best_price === null ? '-' : extra.previous_best_price;
    return `${from} -> ${extra.trigger_price} (limit ${extra.limit_price})`;
  }
  if ('change_percent' in extra) {
    return `${extra.change_percent}% (${extra.tick_change} ticks) in ${extra.elapsed_ms} ms from ${extra.reference_price}`;
  }
  if ('threshold' in extra) return `${extra.volume} lots at ${extra.price}: NT$${extra.amount} >= ${extra.threshold}`;
  return '';
}

/** Whether a stream event belongs to one of the watched (scanner, exchange) pairs. */
export function watches(options: ScannerWatchOptions, data: Row): boolean {
  if (!options.exchange.includes(data.exchange as ScannerExchange)) return false;
  if (typeof data.scanner === 'string') return options.rule.includes(data.scanner as ScannerId);
  const states = (data.scanners as string[] | undefined) ?? [];
  return states.some((state) => options.rule.includes(state as ScannerId));
}

async function watchScanners(
  cli: Cli,
  options: ScannerWatchOptions,
  json: boolean,
  signal: AbortSignal,
): Promise<void> {
  const bodies = options.rule.flatMap((id) => options.exchange.map((exchange) => scannerRequest(id, exchange)));
  const client: DaemonClient = cli.client;
  const subscribeAll = async () => {
    for (const body of bodies) {
      const answer = await client.stream.subscribeScanner(body);
      if (answer.success === false) throw new Error(answer.message || 'the subscription was refused');
    }
  };
  let failure: { error: unknown } | null = null;
  try {
    await cli.call(() => subscribeAll());
    if (cli.io.stderr.isTTY) {
      cli.printError(`Watching ${options.rule.join(', ')} on ${options.exchange.join(', ')} (Ctrl+C to stop)`);
    }
    if (!json) printLine(cli.io.stdout, formatScannerHeader(cli.io.color));
    await followStream(
      client,
      streamDataPath('scanner'),
      (message) => {
        if (message.event === 'scanner_gap') return cli.printError(gapNotice(JSON.parse(message.data)));
        if (message.event !== 'scanner') return;
        const data = JSON.parse(message.data) as Row;
        if (!watches(options, data)) return;
        printLine(cli.io.stdout, json ? cli.toJson(data, false) : formatScannerEvent(data));
      },
      { signal, notice: cli.printError, beforeReconnect: subscribeAll },
    );
  } catch (error) {
    failure = { error };
  }
  for (const body of bodies) {
    try {
      await client.stream.unsubscribeScanner(body);
    } catch (error) {
      if (failure === null) failure = { error };
      else cli.printError(`warning: could not unsubscribe: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (failure !== null) throw failure.error;
}

export function registerScannerWatch(data: Command, env: CliEnv): void {
  data
    .command('scanner-watch')
    .description("watch the market scanner's signals (limit-up, price moves, volume bursts) until Ctrl+C")
    .addOption(
      new Option('--rule <RULE>', `repeatable or comma-separated: ${[...SCANNER_RULES, ...SCANNER_STATES].join(', ')}`)
        .argParser(many(scannerName))
        .makeOptionMandatory(),
    )
    .addOption(
      new Option('--exchange <EXCHANGE>', 'TSE or OTC, repeatable (default TSE)')
        .argParser(many(scannerExchange))
        .default(['TSE'], 'TSE'),
    )
    .addHelpText(
      'after',
      `
Subscribes each rule on each exchange (POST ${STREAM_PATHS.subscribeScanner}), prints the
events of those subscriptions from the scanner stream, and unsubscribes them on Ctrl+C or SIGTERM.
A dropped connection is reopened and subscribes again.

Output: one JSON object per line, each event as the stream sends it, with --format json or when
stdout is not a terminal; otherwise a row per event: time, exchange, code, rule, close, change and
what the rule saw (the limit approached, the move and its window, the trade against the threshold).

Examples:
  $ sjgate data scanner-watch --rule volume_burst --exchange TSE
  $ sjgate data scanner-watch --rule bid-touch-limit-up,limit-up-unlocked --exchange TSE --exchange OTC
  $ sjgate data scanner-watch --rule simtrade | jq -r .quote.code`,
    )
    .action(
      streamAction<ScannerWatchOptions>(env, async (cli, options, json) => {
        const { signal, dispose } = stopSignal(cli.io);
        try {
          await watchScanners(cli, options, json, signal);
        } finally {
          dispose();
        }
      }),
    );
}
