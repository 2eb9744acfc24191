// `sjgate data stream`: subscribe to the live ticks, bid/ask or quotes of a code and print them until Ctrl+C.

import { type Command, Option } from 'commander';
import { STREAM_PATHS, streamDataPath } from '../../../contract/paths.js';
import { EXCHANGES } from '../../../domain/contracts.js';
import type { DaemonClient } from '../../client.js';
import type { Cli, CliEnv } from '../../context.js';
import type { Row } from '../../output.js';
import { text } from '../../parsers.js';
import { followSubscription, printLine, stopSignal, streamAction } from '../../stream.js';
import { exchangeOption, securityTypeOption, withComboLegs } from './flags.js';
import { formatQuote, formatQuoteHeader, gapNotice, quoteStream } from './quotes.js';
import {
  quoteType,
  STREAM_SECURITY_TYPES,
  type StreamOptions,
  type StreamQuoteType,
  subscribeRequest,
} from './subscription.js';

/**
 * Subscribes, prints the events of the subscription until the signal aborts (Ctrl+C), then unsubscribes. The
 * stream reconnects by itself; each reconnect subscribes again (a no-op when the daemon still has it).
 */
async function streamQuotes(cli: Cli, given: StreamOptions, json: boolean, signal: AbortSignal): Promise<void> {
  // Codes are upper case; the events of a subscription carry the code as listed.
  const upper = { ...given, code: given.code.toUpperCase(), comboWith: given.comboWith?.toUpperCase() };
  const options = await withComboLegs(cli, upper);
  const body = subscribeRequest({ ...options, quoteType: await defaultQuoteType(cli, options) });
  const answer = await cli.call((client) => client.stream.subscribe(body));
  if (answer.success === false) throw new Error(answer.message || 'the subscription was refused');
  if (answer.subscription === null || answer.subscription === undefined) {
    throw new Error('the daemon did not say what it subscribed');
  }
  const subscription = answer.subscription;
  const stream = quoteStream(subscription);
  const client: DaemonClient = cli.client;
  if (cli.io.stderr.isTTY) {
    const odd = subscription.intraday_odd === true ? ' (odd lot)' : '';
    cli.printError(`Subscribed to ${stream.label} ${subscription.quote_type}${odd} (Ctrl+C to stop)`);
  }
  if (!json) printLine(cli.io.stdout, formatQuoteHeader(stream.kind, cli.io.color));
  await followSubscription(
    cli,
    streamDataPath(stream.name),
    (message) => {
      if (message.event === `${stream.name}_gap`) return cli.printError(gapNotice(JSON.parse(message.data)));
      if (message.event !== stream.name) return;
      const data = JSON.parse(message.data) as Row;
      if (!stream.accepts(data)) return;
      printLine(cli.io.stdout, json ? cli.toJson(data, false) : formatQuote(stream.kind, data));
    },
    {
      signal,
      subscribe: () => client.stream.subscribe(body),
      unsubscribe: () => client.stream.unsubscribe(body),
    },
  );
}

/** The quote type asked for; unset, Quote for an index (it has no other stream) and Tick for anything else. */
async function defaultQuoteType(cli: Cli, options: StreamOptions): Promise<StreamQuoteType> {
  if (options.quoteType !== undefined) return options.quoteType;
  if (options.comboWith !== undefined) return 'Tick';
  const type = options.securityType ?? (await cli.call((client) => client.contracts.get(options.code))).security_type;
  return type === 'IND' ? 'Quote' : 'Tick';
}

export function registerStream(data: Command, env: CliEnv): void {
  data
    .command('stream')
    .description('subscribe to live ticks, bid/ask or quotes of a code and print them until Ctrl+C')
    .requiredOption('--code <CODE>', 'product code, e.g. 2330, TXFR1, IX0001', text)
    .addOption(
      new Option(
        '--quote-type <TYPE>',
        'tick, bid_ask or quote (default: quote for an index, tick otherwise)',
      ).argParser(quoteType),
    )
    .option('--intraday-odd', "a stock's odd-lot (intraday) ticks or bid/ask")
    .addOption(securityTypeOption(STREAM_SECURITY_TYPES))
    .addOption(exchangeOption(EXCHANGES))
    .addOption(
      new Option('--combo-with <CODE>', "the second leg: stream the combo of --code and this code's book").argParser(
        text,
      ),
    )
    .addHelpText(
      'after',
      `
Subscribes (POST ${STREAM_PATHS.subscribe}), prints the events of that subscription from its
stream (tick_stk, bidask_fop, quote_idx, ...), and unsubscribes on Ctrl+C or SIGTERM. A dropped
connection is reopened (1 s, doubling up to 15 s) and resumes after the last event seen.

Output: one JSON object per line, each event's data as the stream sends it, with --format json or
when stdout is not a terminal (and --format is not given); otherwise a row per event under a header
(time, code, close, change, volume, ... for ticks; best bid and ask with their sizes for bid_ask).
A continuous code (TXFR1) shows the events of the month it stands for; a combo's events carry the
combo's own code, which starts with the first leg's code.

Examples:
  $ sjgate data stream --code 2330
  $ sjgate data stream --code 2330 --quote-type bid_ask --intraday-odd
  $ sjgate data stream --code TXFR1 --quote-type quote
  $ sjgate data stream --code IX0001
  $ sjgate data stream --code TXFR1 --combo-with TXFR2 --quote-type bid_ask
  $ sjgate data stream --code 2330 | jq -r .close`,
    )
    .action(
      streamAction<StreamOptions>(env, async (cli, options, json) => {
        const { signal, dispose } = stopSignal(cli.io);
        try {
          await streamQuotes(cli, options, json, signal);
        } finally {
          dispose();
        }
      }),
    );
}
