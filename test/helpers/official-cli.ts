// Drives SinoPac's official `shioaji` 1.7.9 CLI against a real sjgate daemon and records what each command did, for
// test/e2e/official-cli.test.ts to judge. It runs only inside a private network namespace (that test starts it with
// `unshare -n`): the binary logs in to SinoPac whenever it finds no daemon, and it must never reach the network.
//
//   node --import tsx test/helpers/official-cli.ts <result.json> <data home> <shioaji binary> <sjgate cli.js>

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const FORMATS = ['toon', 'json'] as const;
export type Format = (typeof FORMATS)[number];

/** One invocation of the official CLI (or, where named so, of sjgate's). */
export interface OfficialRun {
  name: string;
  format: Format;
  args: string[];
  status: number | null;
  stdout: string;
  stderr: string;
}

/** What the driver looked up over HTTP, so the judges know what a correct answer holds. */
export interface Facts {
  stockAccount: string;
  futuresAccount: string;
  personId: string;
  otcStock: string;
  nearMonth: string;
  farMonth: string;
  /** Trade ids per format: the resting order placed, and the one placed with --no-wait while order events streamed. */
  restingOrder: Partial<Record<Format, string>>;
  noWaitOrder: Partial<Record<Format, string>>;
  watchlist: Partial<Record<Format, string>>;
  positionDetailId: number;
  profitLossDetailId: number;
}

export interface DaemonChecks {
  officialStatus: OfficialRun;
  sjgateStatus: OfficialRun;
  officialStop: OfficialRun;
  /** The daemon's pid before the stop, whether it was gone after, and what `sjgate server status` said then. */
  pid: number;
  goneAfterStop: boolean;
  pidFileAfterStop: boolean;
  sjgateStatusAfterStop: OfficialRun;
  /** The order left resting before the stop, and its status after sjgate started again on the same home. */
  keptOrder: string;
  keptOrderStatusAfterRestart: string | null;
}

/** One answer printed with --format toon by both CLIs: the official one just before and just after sjgate's. */
export interface ToonPair {
  name: string;
  official: [OfficialRun, OfficialRun];
  sjgate: OfficialRun;
}

export interface DriverResult {
  runs: OfficialRun[];
  toon: ToonPair[];
  facts: Facts;
  daemon: DaemonChecks;
  ms: number;
}

const PORT = 18080;

/**
 * The commands whose TOON both CLIs must print alike, byte for byte. Dates are given: with none, the official CLI's
 * "today" is this machine's calendar day, sjgate's the Taiwan one. The kbars end yesterday: today's last bar changes
 * with every trade, and the week's bars take each CLI long enough that one comes in between all three runs.
 */
const toonCommands = (tradingDay: string, weekAgo: string, yesterday: string, today: string) => [
  ['data', 'ticks', '--code', '2330', '--date', tradingDay],
  ['data', 'kbars', '--code', '2330', '--start', weekAgo, '--end', yesterday],
  ['data', 'regulatory', '--type', 'notice'],
  ['data', 'snapshots', '--codes', '2330,2317'],
  ['portfolio', 'profit-loss', '--begin-date', weekAgo, '--end-date', today],
  ['contracts', 'warrants', '--underlying', '2330'],
  ['contracts', 'get', '2330'],
  ['contracts', 'info', '2330'],
  ['contracts', 'futures', '--root', 'TXF'],
  ['contracts', 'list', '--type', 'IND'],
  ['portfolio', 'positions'],
  ['portfolio', 'positions', '--account-type', 'F'],
  ['order', 'list'],
  ['auth', 'accounts'],
  ['reserve', 'summary'],
  ['data', 'credit-enquire', '--codes', '2330,2317'],
];
const BASE = `http://127.0.0.1:${PORT}/api/v1`;
const COMMAND_TIMEOUT_MS = 40_000;
/** How long a streaming command may take to attach, or an order's event to arrive on it. */
const STREAM_WAIT_MS = 20_000;

async function main(): Promise<void> {
  const [resultFile, home, binary, cli] = process.argv.slice(2) as [string, string, string, string];
  // The namespace has only loopback: refuse to run the binary anywhere else.
  const interfaces = readFileSync('/proc/self/net/dev', 'utf8')
    .split('\n')
    .slice(2)
    .map((line) => line.split(':')[0]?.trim())
    .filter((name) => name !== undefined && name !== '');
  if (interfaces.some((name) => name !== 'lo')) {
    throw new Error(`refusing to run the official binary outside a private network namespace (${interfaces})`);
  }
  const started = Date.now();
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const env = {
    ...process.env,
    HOME: home,
    SJ_HOME_PATH: home,
    SJ_HTTP_ADDR: `127.0.0.1:${PORT}`,
    SJ_API_KEY: 'sjgate-test-api-key',
    SJ_SEC_KEY: 'sjgate-test-secret-key',
    NO_COLOR: '1',
    // The official CLI fills in today's date where a command takes one (ticks, profit-loss): a Taiwan user's date,
    // which is the simulator's trading day on trading days, whatever the test machine's zone.
    TZ: 'Asia/Taipei',
  };
  const runs: OfficialRun[] = [];
  const invoke = (name: string, format: Format, args: string[]): OfficialRun => {
    const done = spawnSync(binary, ['-f', format, ...args], {
      env,
      encoding: 'utf8',
      timeout: COMMAND_TIMEOUT_MS,
      killSignal: 'SIGINT',
      // every futures contract as JSON is over spawnSync's default 1 MB, past which the child is killed
      maxBuffer: 64 * 1024 * 1024,
    });
    return { name, format, args, status: done.status, stdout: done.stdout, stderr: done.stderr };
  };
  const official = (name: string, format: Format, args: string[]): OfficialRun => {
    const run = invoke(name, format, args);
    runs.push(run);
    return run;
  };
  const sjgate = (args: string[]): OfficialRun => {
    const done = spawnSync(process.execPath, [cli, ...args], {
      env,
      encoding: 'utf8',
      timeout: COMMAND_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { name: 'sjgate', format: 'json', args, status: done.status, stdout: done.stdout, stderr: done.stderr };
  };
  /**
   * A streaming command: once the daemon counts its stream and its stderr says `ready`, runs `during` and waits until
   * `done` holds of its stdout; then gets Ctrl+C, as a user stops it. The daemon has let go of it before this returns.
   */
  const stream = async (
    name: string,
    format: Format,
    args: string[],
    ready: RegExp,
    during?: { run: () => Promise<void>; done: (stdout: string) => boolean },
  ) => {
    const child = spawn(binary, ['-f', format, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = collect(child);
    await waitUntil(async () => (await streamsAttached()) > 0 && ready.test(out.stderr()), STREAM_WAIT_MS);
    if (during) {
      await during.run();
      await waitUntil(async () => during.done(out.stdout()), STREAM_WAIT_MS);
    }
    child.kill('SIGINT');
    const { status, stdout, stderr } = await out.closed;
    runs.push({ name, format, args, status, stdout, stderr });
    await waitUntil(async () => (await streamsAttached()) === 0, STREAM_WAIT_MS);
  };

  const start = sjgate(['server', 'start']);
  if (start.status !== 0) throw new Error(`sjgate did not start: ${start.stdout}${start.stderr}`);

  const accounts = (await get('/auth/accounts')) as {
    account_type: string;
    broker_id: string;
    account_id: string;
    person_id: string;
  }[];
  const accountOf = (type: string) => accounts.find((a) => a.account_type === type)!;
  const stock = await get('/data/contracts/2330/info');
  const futures = (await get('/data/contracts/futures?root=TXF')) as { code: string; target_code: string | null }[];
  const months = futures.filter((f) => f.target_code === null).map((f) => f.code);
  const listed = (await get('/data/contracts?security_type=STK')) as {
    contracts: { code: string; exchange: string }[];
  };
  const facts: Facts = {
    stockAccount: `${accountOf('S').broker_id}-${accountOf('S').account_id}`,
    futuresAccount: `${accountOf('F').broker_id}-${accountOf('F').account_id}`,
    personId: accountOf('S').person_id,
    otcStock: listed.contracts.find((c) => c.exchange === 'OTC')!.code,
    nearMonth: months[0]!,
    farMonth: months[1]!,
    restingOrder: {},
    noWaitOrder: {},
    watchlist: {},
    positionDetailId: -1,
    profitLossDetailId: -1,
  };
  // A stock position, part of it sold again (realized P&L), so the detail commands have ids to show.
  const { limit_up: limitUp, limit_down: limitDown } = stock as { limit_up: number; limit_down: number };
  for (const [action, price, quantity] of [
    ['Buy', limitUp, 3],
    ['Sell', limitDown, 1],
  ] as const) {
    await post('/order/place_order', {
      contract: { code: '2330' },
      stock_order: { action, price, quantity, price_type: 'LMT', order_type: 'ROD' },
    });
  }
  const positions = (await post('/portfolio/position_unit', {})) as { id: number }[];
  facts.positionDetailId = positions[0]?.id ?? -1;
  // The sale's trading day is not always the Taiwan calendar day (on a weekend or holiday always-open stocks trade
  // as part of the trading day before): the last week holds it whatever the day.
  const taiwanDay = (days: number) =>
    new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
  const realized = (await post('/portfolio/profit_loss', { begin_date: taiwanDay(-7), end_date: taiwanDay(0) })) as {
    id: number;
    date: string;
  }[];
  const tradingDay = realized[0]?.date ?? taiwanDay(0);
  facts.profitLossDetailId = realized[0]?.id ?? -1;

  const app = join(home, 'app');
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'index.html'), '<!doctype html><title>demo</title>');
  const combo = ['--code', facts.nearMonth, '--combo-with', facts.farMonth];

  for (const f of FORMATS) {
    official('server check', f, ['server', 'check']);
    official('server status', f, ['server', 'status']);
    official('auth accounts', f, ['auth', 'accounts']);
    official('auth usage', f, ['auth', 'usage']);
    official('auth ca-expiretime', f, ['auth', 'ca-expiretime', '--person-id', facts.personId]);
    official('auth subscribe-trade', f, ['auth', 'subscribe-trade']);
    official('auth subscribe-trade F', f, [
      'auth',
      'subscribe-trade',
      '--account-type',
      'F',
      '--account',
      facts.futuresAccount,
    ]);
    official('auth unsubscribe-trade', f, ['auth', 'unsubscribe-trade']);
    official('apps upload', f, ['apps', 'upload', '--name', `demo-${f}`, '--file', join(app, 'index.html')]);
    official('apps list', f, ['apps', 'list']);
    official('apps delete', f, ['apps', 'delete', '--name', `demo-${f}`]);

    official('data ticks', f, ['data', 'ticks', '--code', '2330']);
    // A moderately busy stock: 2330's whole always-open day (some 70,000 ticks) takes the binary too long to print.
    official('data ticks all', f, ['data', 'ticks', '--code', '1101', '--all']);
    official('data ticks combo', f, ['data', 'ticks', ...combo]);
    official('data kbars', f, ['data', 'kbars', '--code', '2330']);
    official('data kbars combo', f, ['data', 'kbars', ...combo]);
    official('data scanner', f, ['data', 'scanner', '--scanner-type', 'volume-rank', '--count', '5']);
    official('data snapshots', f, ['data', 'snapshots', '--codes', '2330,2317']);
    official('data snapshots combo', f, ['data', 'snapshots', '--codes', `${facts.nearMonth}+${facts.farMonth}`]);
    official('data daily-quotes', f, ['data', 'daily-quotes']);
    official('data credit-enquire', f, ['data', 'credit-enquire', '--codes', '2330,2317']);
    official('data short-stock-sources', f, ['data', 'short-stock-sources', '--codes', '2330']);
    official('data regulatory', f, ['data', 'regulatory']);
    official('data regulatory notice', f, ['data', 'regulatory', '--type', 'notice']);
    await stream('data stream', f, ['data', 'stream', '--code', '2330'], /Subscribed to/);
    await stream('data stream combo', f, ['data', 'stream', ...combo], /Subscribed to/);

    official('contracts list', f, ['contracts', 'list', '--type', 'IND']);
    official('contracts list page', f, ['contracts', 'list', '--type', 'STK', '--page', '1', '--page-size', '5']);
    official('contracts get', f, ['contracts', 'get', '2330']);
    official('contracts get OTC', f, ['contracts', 'get', facts.otcStock, '--exchange', 'OTC']);
    official('contracts get wrong exchange', f, ['contracts', 'get', '2330', '--exchange', 'OTC']);
    official('contracts info', f, ['contracts', 'info', '2330']);
    official('contracts info futures', f, ['contracts', 'info', 'TXFR1']);
    official('contracts futures', f, ['contracts', 'futures']);
    official('contracts futures root', f, ['contracts', 'futures', '--root', 'TXF']);
    official('contracts options', f, ['contracts', 'options', '--root', 'TXO', '--right', 'C']);
    official('contracts warrants', f, ['contracts', 'warrants', '--underlying', '2330']);
    official('contracts futures-roots', f, ['contracts', 'futures-roots']);
    official('contracts option-roots', f, ['contracts', 'option-roots']);
    official('contracts warrant-underlyings', f, ['contracts', 'warrant-underlyings', '--include-name']);
    official('contracts tick-bands', f, ['contracts', 'tick-bands', '--type', 'OPT', 'TXO']);
    await stream('contracts watch', f, ['contracts', 'watch'], /^/);

    // A resting order (bought at the limit-down price), changed and cancelled, each waiting for its events.
    const place = ['order', 'place', '--code', '2330', '--action', 'buy', '--price', String(limitDown)];
    official('order place', f, [...place, '--quantity', '2']);
    const id = await lastTradeId();
    facts.restingOrder[f] = id;
    official('order update-price', f, ['order', 'update-price', '--id', id, '--price', String(limitDown + 5)]);
    official('order update-qty', f, ['order', 'update-qty', '--id', id, '--quantity', '1']);
    official('order cancel', f, ['order', 'cancel', '--id', id]);
    official('order place futures', f, [
      ...['order', 'place', '--code', 'TXFR1', '--action', 'buy', '--price-type', 'mkt', '--tif', 'ioc'],
      ...['--quantity', '1', '--account', facts.futuresAccount],
    ]);
    await stream('order events', f, ['order', 'events'], /Streaming order events/, {
      run: async () => {
        official('order place no-wait', f, [...place, '--quantity', '1', '--no-wait', '--account', facts.stockAccount]);
        facts.noWaitOrder[f] = await lastTradeId();
      },
      done: (stdout) => stdout.includes(`"id":"${facts.noWaitOrder[f]}"`),
    });
    official('order list', f, ['order', 'list']);
    official('order list account', f, ['order', 'list', '--account', facts.stockAccount]);

    official('portfolio balance', f, ['portfolio', 'balance']);
    official('portfolio positions', f, ['portfolio', 'positions']);
    official('portfolio positions futures', f, ['portfolio', 'positions', '--account-type', 'F']);
    official('portfolio margin', f, ['portfolio', 'margin']);
    official('portfolio position-detail', f, [
      ...['portfolio', 'position-detail', '--detail-id', String(facts.positionDetailId)],
    ]);
    official('portfolio profit-loss', f, ['portfolio', 'profit-loss']);
    official('portfolio profit-loss-detail', f, [
      ...['portfolio', 'profit-loss-detail', '--detail-id', String(facts.profitLossDetailId)],
    ]);
    official('portfolio profit-loss-summary', f, ['portfolio', 'profit-loss-summary']);
    official('portfolio trading-limits', f, ['portfolio', 'trading-limits']);
    official('portfolio settlements', f, ['portfolio', 'settlements', '--account', facts.stockAccount]);

    official('reserve summary', f, ['reserve', 'summary']);
    official('reserve stock', f, ['reserve', 'stock', '--code', '2890', '--share', '1000']);
    official('reserve detail', f, ['reserve', 'detail']);
    official('reserve earmarking', f, ['reserve', 'earmarking', '--code', '2890', '--share', '1000', '--price', '20']);
    official('reserve earmarking-detail', f, ['reserve', 'earmarking-detail']);

    official('watchlist create', f, ['watchlist', 'create', '--name', `mine-${f}`, '--codes', '2330,2317']);
    const lists = (await get('/watchlist')) as { id: string; name: string }[];
    const list = lists.find((w) => w.name === `mine-${f}`)?.id ?? 'missing';
    facts.watchlist[f] = list;
    official('watchlist list', f, ['watchlist', 'list']);
    official('watchlist show', f, ['watchlist', 'show', '--id', list]);
    official('watchlist add', f, ['watchlist', 'add', '--id', list, '--codes', '2454']);
    official('watchlist remove', f, ['watchlist', 'remove', '--id', list, '--codes', '2317']);
    official('watchlist sync', f, ['watchlist', 'sync', '--id', list, '--codes', '2330,2603']);
    official('watchlist delete', f, ['watchlist', 'delete', '--id', list]);
  }

  // The same answers in TOON from both CLIs; prices move, so the official CLI prints before and after sjgate.
  const toon: ToonPair[] = [];
  for (const args of toonCommands(tradingDay, taiwanDay(-7), taiwanDay(-1), taiwanDay(0))) {
    const before = invoke(args.join(' '), 'toon', args);
    const ours = { ...sjgate(['--format', 'toon', ...args]), format: 'toon' as const };
    toon.push({ name: args.join(' '), official: [before, invoke(args.join(' '), 'toon', args)], sjgate: ours });
  }

  // Both CLIs on one data home: the same daemon, running and healthy; the official stop stops sjgate, nothing lost.
  const officialStatus = official('server status both', 'json', ['server', 'status']);
  const sjgateStatus = sjgate(['server', 'status', '--format', 'json']);
  const pid = Number(readFileSync(join(home, `server-${PORT}.pid`), 'utf8').trim());
  await post('/order/place_order', {
    contract: { code: '2330' },
    stock_order: { action: 'Buy', price: limitDown, quantity: 1, price_type: 'LMT', order_type: 'ROD' },
  });
  const keptOrder = await lastTradeId();
  const officialStop = official('server stop', 'json', ['server', 'stop']);
  const goneAfterStop = await waitGone(pid, 10_000);
  const pidFileAfterStop = existsSync(join(home, `server-${PORT}.pid`));
  const sjgateStatusAfterStop = sjgate(['server', 'status', '--format', 'json']);
  const restart = sjgate(['server', 'start']);
  if (restart.status !== 0) throw new Error(`sjgate did not start again: ${restart.stdout}${restart.stderr}`);
  const after = (await post('/order/trades', {})) as { order: { id: string }; status: { status: string } }[];
  const keptOrderStatusAfterRestart = after.find((t) => t.order.id === keptOrder)?.status.status ?? null;
  sjgate(['server', 'stop']);

  const result: DriverResult = {
    runs,
    toon,
    facts,
    daemon: {
      officialStatus,
      sjgateStatus,
      officialStop,
      pid,
      goneAfterStop,
      pidFileAfterStop,
      sjgateStatusAfterStop,
      keptOrder,
      keptOrderStatusAfterRestart,
    },
    ms: Date.now() - started,
  };
  writeFileSync(resultFile, JSON.stringify(result));
}

async function lastTradeId(): Promise<string> {
  const trades = (await post('/order/trades', { account_type: 'S' })) as { order: { id: string } }[];
  return trades.at(-1)?.order.id ?? 'missing';
}

/** fetch, once more on a fresh connection if a kept-alive one was closed (the daemon restarts in between). */
async function request(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), connection: 'close' } });
  }
}

async function get(path: string): Promise<unknown> {
  const response = await request(`${BASE}${path}`);
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function post(path: string, body: unknown): Promise<unknown> {
  const response = await request(`${BASE}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** What a child printed so far, and all of it with its status once it closed. */
function collect(child: ChildProcess) {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    closed: new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
      child.on('close', (status) => resolve({ status, stdout, stderr })),
    ),
  };
}

/** Clients attached to the daemon's SSE streams. */
async function streamsAttached(): Promise<number> {
  return ((await get('/stream/status')) as { active_connections: number }).active_connections;
}

/** Polls `check` until it holds or `ms` pass; the judges say what went wrong when it never held. */
async function waitUntil(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await sleep(50);
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await sleep(50);
  }
  return false;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
