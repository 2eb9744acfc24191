// `sjgate data index-stream`: subscribe to an index analytics stream of IX0001 or IX0043 (index_contribution with
// --ranking, industry_contribution with --industry, index_components with --projection) and print its events until
// Ctrl+C, then unsubscribe.

import { type Command, InvalidArgumentError, Option } from 'commander';
import { STREAM_PATHS, streamDataPath } from '../../../contract/paths.js';
import type { CapabilitySubscriptionResponse } from '../../../contract/wire.js';
import { type PostMethod, postTo } from '../../client.js';
import type { Cli, CliEnv } from '../../context.js';
import { UsageError } from '../../context.js';
import type { Row } from '../../output.js';
import { oneOf, text } from '../../parsers.js';
import { followSubscription, printLine, stopSignal, streamAction } from '../../stream.js';

export const RANKINGS = ['top10', 'abs10', 'positive25', 'negative25'] as const;

export interface IndexStreamOptions {
  index: string;
  ranking?: (typeof RANKINGS)[number] | undefined;
  industry?: boolean | undefined;
  projection?: Projection | undefined;
}

export interface Projection {
  kind: 'ranking' | 'group_metric';
  target?: 'component' | 'group';
  metric: string;
  order?: string;
  limit?: number;
  group?: string;
}

/**
 * A projection as SinoPac names it: `rank/<component|group>/<metric>/<order>/<limit>[/group/<code>]` or
 * `groups/<metric>`. Whether the daemon serves it is for the daemon to say (a 400 lists what it serves).
 */
export function projection(value: string): Projection {
  const parts = value.trim().split('/');
  if (parts[0] === 'groups' && parts.length === 2 && parts[1]) return { kind: 'group_metric', metric: parts[1] };
  const [rank, target, metric, order, limit, groupWord, group] = parts;
  const count = Number(limit);
  const ranking =
    rank === 'rank' &&
    (target === 'component' || target === 'group') &&
    metric &&
    order &&
    Number.isInteger(count) &&
    count > 0 &&
    (parts.length === 5 || (parts.length === 7 && groupWord === 'group' && group));
  if (!ranking) {
    throw new InvalidArgumentError(
      'expected rank/<component|group>/<metric>/<order>/<limit>[/group/<industry>] or groups/<metric>, ' +
        'e.g. rank/component/contribution/desc/10 or groups/breadth',
    );
  }
  return { kind: 'ranking', target, metric, order, limit: count, ...(group ? { group } : {}) };
}

const FAMILY_METHODS = {
  index_contribution: [
    (client) => client.stream.subscribeIndexContribution,
    (client) => client.stream.unsubscribeIndexContribution,
  ],
  industry_contribution: [
    (client) => client.stream.subscribeIndustryContribution,
    (client) => client.stream.unsubscribeIndustryContribution,
  ],
  index_components: [
    (client) => client.stream.subscribeIndexComponents,
    (client) => client.stream.unsubscribeIndexComponents,
  ],
} as const satisfies Record<string, readonly [PostMethod, PostMethod]>;

export interface IndexStreamRequest {
  family: keyof typeof FAMILY_METHODS;
  subscribe: PostMethod;
  unsubscribe: PostMethod;
  /** What both take. */
  body: { index: { code: string }; ranking?: string; projection?: Projection };
}

/** Which stream the flags name: its family, its subscribe and unsubscribe paths and their body. */
export function indexStreamRequest(options: IndexStreamOptions): IndexStreamRequest {
  const chosen = [options.ranking, options.industry ? true : undefined, options.projection].filter(
    (flag) => flag !== undefined,
  );
  if (chosen.length !== 1) {
    throw new UsageError('name one stream: --ranking <RANKING>, --industry or --projection <PROJECTION>');
  }
  const index = { code: options.index };
  const [family, body]: [IndexStreamRequest['family'], IndexStreamRequest['body']] =
    options.ranking !== undefined
      ? ['index_contribution', { index, ranking: options.ranking }]
      : options.projection !== undefined
        ? ['index_components', { index, projection: options.projection }]
        : ['industry_contribution', { index }];
  const [subscribe, unsubscribe] = FAMILY_METHODS[family];
  return { family, subscribe, unsubscribe, body };
}

/** Whether an event is of the subscription (the stream carries every subscription of its family). */
function accepts(request: IndexStreamRequest, data: Row): boolean {
  const code = (data.code ?? (data.contract as Row | undefined)?.code) as string | undefined;
  if (code !== request.body.index.code) return false;
  if (request.body.ranking !== undefined) return data.ranking === request.body.ranking;
  const asked = request.body.projection;
  if (asked !== undefined) {
    const held = data.projection as Row | undefined;
    return (
      held?.kind === asked.kind &&
      held?.metric === asked.metric &&
      (held?.order ?? undefined) === asked.order &&
      (held?.limit ?? undefined) === asked.limit &&
      (held?.group ?? undefined) === asked.group &&
      (asked.kind === 'group_metric' || held?.target === asked.target)
    );
  }
  return true;
}

const pad = (value: unknown, width: number) => String(value ?? '').padEnd(width);

/** An event as a block: a line naming it, then a line per entry or group. */
export function formatIndexEvent(family: string, data: Row): string {
  const time = String(data.time ?? '');
  if (family === 'industry_contribution') {
    const head = `${time}  ${data.code}  industries  close ${data.index_close}  change ${data.index_price_chg}`;
    const rows = (data.entries as Row[]).map((e) => `  ${pad(e.category, 6)}${e.points}`);
    return [head, ...rows].join('\n');
  }
  if (family === 'index_contribution') {
    const head = `${time}  ${data.code}  ${data.ranking}`;
    const rows = (data.entries as Row[]).map(
      (e) => `  ${pad(e.code, 8)}${pad(e.price, 10)}${pad(e.price_chg, 8)}${pad(`${e.pct_chg}%`, 8)}${e.points}`,
    );
    return [head, ...rows].join('\n');
  }
  const view = data.projection as Row;
  const name = view.kind === 'group_metric' ? `groups/${view.metric}` : `${view.target} ${view.metric} ${view.order}`;
  const head = `${time}  ${(data.contract as Row).code}  ${name}${data.unit ? ` (${data.unit})` : ''}`;
  const rows = data.groups
    ? (data.groups as Row[]).map((g) => `  ${pad(g.category, 4)}${pad(g.name, 14)}${pad(g.item_count, 5)}${g.value}`)
    : (data.entries as Row[]).map((e) => `  ${pad(e.code, 8)}${pad(e.category, 4)}${pad(e.price, 10)}${e.value}`);
  return [head, ...rows].join('\n');
}

async function streamIndex(cli: Cli, options: IndexStreamOptions, json: boolean, signal: AbortSignal): Promise<void> {
  const request = indexStreamRequest(options);
  const answer = await cli.call((client) =>
    postTo<CapabilitySubscriptionResponse>(client, request.subscribe, request.body),
  );
  if (answer.success === false) throw new Error(answer.message || 'the subscription was refused');
  if (cli.io.stderr.isTTY) cli.printError(`${answer.message} (Ctrl+C to stop)`);
  await followSubscription(
    cli,
    streamDataPath(request.family),
    (message) => {
      if (message.event === `${request.family}_gap`) return cli.printError(`missed events: ${message.data}`);
      if (message.event !== request.family) return;
      const data = JSON.parse(message.data) as Row;
      if (!accepts(request, data)) return;
      printLine(cli.io.stdout, json ? cli.toJson(data, false) : formatIndexEvent(request.family, data));
    },
    {
      signal,
      subscribe: () => postTo(cli.client, request.subscribe, request.body),
      unsubscribe: () => postTo(cli.client, request.unsubscribe, request.body),
    },
  );
}

export function registerIndexStream(data: Command, env: CliEnv): void {
  data
    .command('index-stream')
    .description("stream an index's contribution ranking, industry points or components projection until Ctrl+C")
    .addOption(new Option('--index <CODE>', 'IX0001 (TAIEX) or IX0043 (TPEx)').argParser(text).default('IX0001'))
    .addOption(
      new Option('--ranking <RANKING>', 'index_contribution: top10, abs10, positive25 or negative25').argParser(
        oneOf(RANKINGS),
      ),
    )
    .option('--industry', "industry_contribution: each industry's points")
    .addOption(
      new Option('--projection <PROJECTION>', 'index_components: e.g. rank/component/contribution/desc/10').argParser(
        projection,
      ),
    )
    .addHelpText(
      'after',
      `
Subscribes (POST ${STREAM_PATHS.subscribeIndexContribution}, .../industry_contribution or
.../index_components), prints each event of that subscription, and unsubscribes on Ctrl+C or SIGTERM.
Each event is a full replacement, sent at each update of the index.

Projections, as SinoPac names them: rank/component/<contribution|pct_chg>/<desc|abs_desc>/10,
rank/component/<contribution|pct_chg>/<positive_desc|negative_asc>/25, rank/component/<weight|amount>/desc/10,
rank/component/contribution/abs_desc/10/group/<industry>, rank/component/amount/desc/10/group/<industry>,
rank/group/<contribution|equal_weight_performance|weighted_performance|breadth>/abs_desc/10,
rank/group/<weight|amount>/desc/10, groups/<any group metric>.

Output: one JSON object per line with --format json or into a pipe; otherwise a line naming the event
and a line per component or industry.

Examples:
  $ sjgate data index-stream --ranking top10
  $ sjgate data index-stream --index IX0043 --industry
  $ sjgate data index-stream --projection groups/breadth
  $ sjgate data index-stream --projection rank/component/amount/desc/10/group/24 --format json`,
    )
    .action(
      streamAction<IndexStreamOptions>(env, async (cli, options, json) => {
        const { signal, dispose } = stopSignal(cli.io);
        try {
          await streamIndex(cli, options, json, signal);
        } finally {
          dispose();
        }
      }),
    );
}
