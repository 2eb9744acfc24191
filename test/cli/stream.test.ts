// The streaming commands: followStream's reconnect and resume against fake SSE servers, `data stream`,
// `order events`, `auth subscribe-trade` and `server status --streams` against fake daemons.

import assert from 'node:assert/strict';
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { after, afterEach, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { EventSourceMessage } from 'eventsource-parser';
import { ApiError, DaemonClient, UnreachableError } from '../../src/cli/client.js';
import { formatQuote, quoteStream } from '../../src/cli/commands/data/quotes.js';
import { quoteType, subscribeRequest } from '../../src/cli/commands/data/subscription.js';
import {
  accountOfEvent,
  eventMatches,
  formatOrderEvent,
  orderEventCells,
} from '../../src/cli/commands/order/reports.js';
import { formatServerStatus } from '../../src/cli/commands/server/status.js';
import { EXIT, UsageError } from '../../src/cli/context.js';
import type { Row } from '../../src/cli/output.js';
import { followStream } from '../../src/cli/stream.js';
import type { ProductSubscription, Subscription } from '../../src/contract/wire.js';
import { testApp } from '../helpers/app.js';
import { type CommandOutput, runSjgate } from '../helpers/cli.js';
import { freePort } from '../helpers/net.js';

// --- a fake SSE server ------------------------------------------------------------------------------------------

interface Request {
  method: string;
  url: string;
  lastEventId: string | undefined;
  body: unknown;
}

type Handler = (req: IncomingMessage, res: ServerResponse, request: Request) => void;

interface Fake {
  port: number;
  requests: Request[];
  close(): Promise<void>;
}

async function fakeServer(handler: Handler, port = 0): Promise<Fake> {
  const requests: Request[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const header = req.headers['last-event-id'];
      const request: Request = {
        method: req.method ?? '',
        url: req.url ?? '',
        lastEventId: typeof header === 'string' ? header : undefined,
        body: text === '' ? null : JSON.parse(text),
      };
      requests.push(request);
      handler(req, res, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const sseHead = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  res.write(': ok\n\nretry: 2000\n\n');
};

const frame = (id: string, event: string, data: unknown) =>
  `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

const json = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(value));
};

const clientOf = (fake: Fake) => new DaemonClient({ socketPath: null, host: '127.0.0.1', port: fake.port });

/** Resolves once `check` holds, polling every 5 ms; fails after `ms`. */
async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A followStream that records what it received, its notices and its pauses (which take no time). */
function follow(fake: Fake, overrides: { signal?: AbortSignal; lastEventId?: string } = {}) {
  const controller = new AbortController();
  const events: EventSourceMessage[] = [];
  const notices: string[] = [];
  const pauses: number[] = [];
  const done = followStream(clientOf(fake), '/stream', (message) => events.push(message), {
    signal: overrides.signal ?? controller.signal,
    lastEventId: overrides.lastEventId,
    notice: (text) => notices.push(text),
    sleep: async (ms) => {
      pauses.push(ms);
    },
  });
  return { controller, events, notices, pauses, done };
}

describe('followStream', () => {
  const fakes: Fake[] = [];
  afterEach(async () => {
    await Promise.all(fakes.splice(0).map((fake) => fake.close()));
  });
  const serve = async (handler: Handler, port = 0) => {
    const fake = await fakeServer(handler, port);
    fakes.push(fake);
    return fake;
  };

  test('reconnects after a drop with Last-Event-ID of the last event, and says so on stderr', async () => {
    let connections = 0;
    const fake = await serve((_req, res) => {
      connections++;
      sseHead(res);
      if (connections === 1) {
        res.write(frame('0-1', 'tick_stk', { n: 1 }));
        res.write(frame('0-2', 'tick_stk', { n: 2 }));
        setTimeout(() => res.socket?.destroy(), 20);
      } else {
        res.write(frame('0-3', 'tick_stk', { n: 3 }));
      }
    });
    const run = follow(fake);
    await until(() => run.events.length === 3, 'the third event');
    run.controller.abort();
    await run.done;
    assert.deepEqual(
      run.events.map((event) => [event.id, event.event, JSON.parse(event.data)]),
      [
        ['0-1', 'tick_stk', { n: 1 }],
        ['0-2', 'tick_stk', { n: 2 }],
        ['0-3', 'tick_stk', { n: 3 }],
      ],
    );
    assert.deepEqual(
      fake.requests.map((request) => request.lastEventId),
      [undefined, '0-2'],
    );
    assert.deepEqual(run.notices, ['stream dropped; reconnecting in 1 s', 'reconnected, resuming after event 0-2']);
  });

  test('a stream the server ends cleanly is reopened too; the first connection may resume from a given id', async () => {
    let connections = 0;
    const fake = await serve((_req, res) => {
      connections++;
      sseHead(res);
      res.end(frame(`0-${connections + 10}`, 'order_event', { n: connections }));
    });
    const run = follow(fake, { lastEventId: '0-10' });
    await until(() => run.events.length >= 3, 'three connections');
    run.controller.abort();
    await run.done;
    assert.deepEqual(
      fake.requests.slice(0, 3).map((request) => request.lastEventId),
      ['0-10', '0-11', '0-12'],
    );
    // An event arrived on every connection, so every pause is the first one.
    assert.ok(run.pauses.every((ms) => ms === 1000));
  });

  test('the pause doubles up to 15 s while nothing arrives, and starts again at 1 s after an event', async () => {
    let connections = 0;
    const fake = await serve((_req, res) => {
      connections++;
      sseHead(res);
      if (connections === 7) res.write(frame('1-1', 'heartbeat', { type: 'heartbeat' }));
      res.end();
    });
    const run = follow(fake);
    await until(() => run.pauses.length >= 8, 'eight pauses');
    run.controller.abort();
    await run.done;
    assert.deepEqual(run.pauses.slice(0, 8), [1000, 2000, 4000, 8000, 15000, 15000, 1000, 2000]);
    assert.equal(run.notices[0], 'stream dropped; reconnecting in 1 s');
    assert.ok(run.notices.includes('stream dropped; reconnecting in 15 s'));
    assert.ok(run.notices.includes('reconnected'), 'before any id, a reconnect names no event');
  });

  test('an error the client must fix ends it with that ApiError; a fault of the gateway is retried', async () => {
    let connections = 0;
    const fake = await serve((_req, res) => {
      connections++;
      if (connections === 1) {
        return json(res, 503, { code: 503, error: 'STREAM_CAPACITY', message: 'the streams are full', details: null });
      }
      if (connections === 2) {
        sseHead(res);
        return res.end(frame('0-5', 'tick_stk', {}));
      }
      json(res, 400, {
        code: 400,
        error: 'UNKNOWN_EVENT_ID',
        message: "Last-Event-ID '0-5' is not an id of this gateway's streams",
        details: null,
      });
    });
    const run = follow(fake);
    await assert.rejects(run.done, (error) => error instanceof ApiError && error.kind === 'UNKNOWN_EVENT_ID');
    assert.equal(run.events.length, 1);
    assert.deepEqual(
      fake.requests.map((request) => request.lastEventId),
      [undefined, undefined, '0-5'],
    );
  });

  test('a 5xx without a known kind is retried; a limit the client is over (429 RATE_LIMITED) ends it', async () => {
    let connections = 0;
    const fake = await serve((_req, res) => {
      connections++;
      if (connections === 1) {
        res.writeHead(502, { 'content-type': 'text/plain' });
        return res.end('bad gateway');
      }
      // What Fastify answers by itself while the daemon closes: an `error` that is no kind.
      if (connections === 2) {
        return json(res, 503, { error: 'Service Unavailable', message: 'Service Unavailable', statusCode: 503 });
      }
      json(res, 429, { code: 429, error: 'RATE_LIMITED', message: 'over the limit', details: null });
    });
    const run = follow(fake);
    await assert.rejects(run.done, (error) => error instanceof ApiError && error.kind === 'RATE_LIMITED');
    assert.equal(connections, 3);
  });

  test('when nothing answers at first, UnreachableError is left to the caller', async () => {
    const port = await freePort();
    const client = new DaemonClient({ socketPath: null, host: '127.0.0.1', port });
    const controller = new AbortController();
    await assert.rejects(
      followStream(client, '/stream', () => {}, { signal: controller.signal, notice: () => {} }),
      UnreachableError,
    );
  });

  test('once connected, a daemon that went away is waited for', async () => {
    const first = await serve((_req, res) => {
      sseHead(res);
      res.write(frame('3-7', 'order_event', {}));
    });
    const port = first.port;
    const controller = new AbortController();
    const events: EventSourceMessage[] = [];
    const notices: string[] = [];
    let second: Fake | null = null;
    const done = followStream(clientOf(first), '/stream', (message) => events.push(message), {
      signal: controller.signal,
      notice: (text) => notices.push(text),
      sleep: async () => {
        // Nothing listens during the first two pauses; the daemon is back for the third reconnect.
        if (notices.length === 3 && second === null) {
          second = await serve((_req, res) => {
            sseHead(res);
            res.write(frame('3-8', 'order_event', {}));
          }, port);
        }
      },
    });
    await until(() => events.length === 1, 'the first event');
    await first.close();
    await until(() => events.length === 2, 'the event after the restart');
    controller.abort();
    await done;
    assert.deepEqual(notices, [
      'stream dropped; reconnecting in 1 s',
      'stream dropped; reconnecting in 2 s',
      'stream dropped; reconnecting in 4 s',
      'reconnected, resuming after event 3-7',
    ]);
    assert.deepEqual(
      (second as Fake | null)?.requests.map((request) => request.lastEventId),
      ['3-7'],
    );
  });

  test('an error thrown by the handler ends the stream with it', async () => {
    const fake = await serve((_req, res) => {
      sseHead(res);
      res.write(frame('0-1', 'tick_stk', 'not an object'));
    });
    const controller = new AbortController();
    const done = followStream(
      clientOf(fake),
      '/stream',
      () => {
        throw new Error('bad event');
      },
      { signal: controller.signal, notice: () => {} },
    );
    await assert.rejects(done, /bad event/);
  });

  test('an abort ends it quietly, also during a pause', async () => {
    const fake = await serve((_req, res) => {
      sseHead(res);
      res.end();
    });
    const controller = new AbortController();
    const notices: string[] = [];
    const done = followStream(clientOf(fake), '/stream', () => {}, {
      signal: controller.signal,
      notice: (text) => notices.push(text),
      backoff: { initialMs: 60_000, maxMs: 60_000 },
    });
    await until(() => notices.length === 1, 'the first drop');
    const started = Date.now();
    controller.abort();
    await done;
    assert.ok(Date.now() - started < 1000, 'the pause ended with the abort');
    assert.deepEqual(notices, ['stream dropped; reconnecting in 60 s']);
  });
});

// --- the commands against a fake daemon ---------------------------------------------------------------------------

/** Runs sjgate in this process under a fresh data home (no socket, so TCP); see runSjgate. */
async function sjgate(port: number, args: string[], whileRunning?: (output: CommandOutput) => Promise<void>) {
  const home = mkdtempSync(join(tmpdir(), 'sjgate-stream-'));
  const savedHome = process.env.SJ_HOME_PATH;
  process.env.SJ_HOME_PATH = home;
  try {
    return await runSjgate(port, args, whileRunning);
  } finally {
    if (savedHome === undefined) delete process.env.SJ_HOME_PATH;
    else process.env.SJ_HOME_PATH = savedHome;
    rmSync(home, { recursive: true, force: true });
  }
}

/** Waits until stdout has `lines` lines, then presses Ctrl+C. */
const ctrlCAfter =
  (lines: number) =>
  async (output: { stdout: () => string }): Promise<void> => {
    await until(() => output.stdout().split('\n').length > lines, `${lines} lines of output`);
    process.emit('SIGINT', 'SIGINT');
  };

const jsonLinesOf = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const STOCK_SUBSCRIPTION: ProductSubscription = {
  security_type: 'STK',
  exchange: 'TSE',
  code: '2330',
  target_code: null,
  quote_type: 'Tick',
  intraday_odd: false,
};

const tick = (code: string, close: string, extra: Record<string, unknown> = {}) => ({
  code,
  date: '2026-11-23',
  time: '10:00:01.000123',
  open: '1000',
  close,
  price_chg: '5',
  pct_chg: '0.5',
  volume: 3,
  total_volume: 1200,
  tick_type: 1,
  simtrade: false,
  suspend: false,
  intraday_odd: false,
  ...extra,
});

/** A daemon that subscribes anything to `subscription` and streams `frames` on the stream `name`. */
async function quoteDaemon(subscription: Subscription | null, name: string, frames: string[]): Promise<Fake> {
  return fakeServer((_req, res, request) => {
    if (request.url === '/api/v1/stream/subscribe') {
      return json(res, 200, { success: true, message: 'Subscription successful', subscription });
    }
    if (request.url === '/api/v1/stream/unsubscribe') {
      return json(res, 200, { success: true, message: 'Unsubscription successful', subscription });
    }
    if (request.url === `/api/v1/stream/data/${name}`) {
      sseHead(res);
      for (const text of frames) res.write(text);
      return;
    }
    json(res, 404, { code: 404, error: 'ROUTE_NOT_FOUND', message: `no route ${request.url}`, details: null });
  });
}

describe('sjgate data stream', () => {
  const fakes: Fake[] = [];
  after(async () => {
    await Promise.all(fakes.map((fake) => fake.close()));
  });

  test('subscribes, prints the events of its code as JSON lines, and unsubscribes on Ctrl+C', async () => {
    const fake = await quoteDaemon(STOCK_SUBSCRIPTION, 'tick_stk', [
      frame('0-1', 'tick_stk', tick('2330', '1005')),
      frame('0-2', 'tick_stk', tick('2317', '210')),
      frame('0-3', 'tick_stk', tick('2330', '1', { intraday_odd: true })),
      frame('0-4', 'heartbeat', { type: 'heartbeat' }),
      frame('0-5', 'tick_stk', tick('2330', '1010')),
    ]);
    fakes.push(fake);
    const run = await sjgate(fake.port, ['data', 'stream', '--code', '2330'], ctrlCAfter(2));
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(jsonLinesOf(run.stdout), [tick('2330', '1005'), tick('2330', '1010')]);
    assert.deepEqual(
      fake.requests.map((request) => [request.method, request.url, request.body]),
      [
        ['POST', '/api/v1/stream/subscribe', { code: '2330', quote_type: 'Tick' }],
        ['GET', '/api/v1/stream/data/tick_stk', null],
        ['POST', '/api/v1/stream/unsubscribe', { code: '2330', quote_type: 'Tick' }],
      ],
    );
    assert.equal(process.listenerCount('SIGINT'), 0, 'the Ctrl+C handler is removed');
  });

  test('--format human prints a header and a row per event; a continuous code follows its month', async () => {
    const subscription = { ...STOCK_SUBSCRIPTION, security_type: 'FUT', exchange: 'TAIFEX', code: 'TXFR1' };
    const fake = await quoteDaemon({ ...subscription, target_code: 'TXFL6', quote_type: 'BidAsk' }, 'bidask_fop', [
      frame('0-1', 'bidask_fop', {
        code: 'TXFL6',
        time: '10:00:01.000123',
        bid_price: ['22000', '21999'],
        bid_volume: [4, 9],
        ask_price: ['22001', '22002'],
        ask_volume: [2, 7],
        simtrade: false,
      }),
      frame('0-2', 'bidask_fop', { code: 'TXFA7', time: '10:00:01.000200', bid_price: ['1'], ask_price: ['2'] }),
    ]);
    fakes.push(fake);
    const args = ['--format', 'human', 'data', 'stream', '--code', 'TXFR1', '--quote-type', 'bid_ask'];
    const run = await sjgate(fake.port, args, ctrlCAfter(2));
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 2, run.stdout);
    assert.match(lines[0] ?? '', /^time\s+code\s+bid\s+bid_vol\s+ask\s+ask_vol/);
    assert.match(lines[1] ?? '', /^10:00:01\.000123\s+TXFL6\s+22000\s+4\s+22001\s+2$/);
    assert.deepEqual(fake.requests[0]?.body, { code: 'TXFR1', quote_type: 'BidAsk' });
    assert.equal(fake.requests[1]?.url, '/api/v1/stream/data/bidask_fop');
  });

  test('a refused subscription is shown like any API error, and nothing is streamed', async () => {
    const fake = await fakeServer((_req, res) =>
      json(res, 400, {
        code: 400,
        error: 'INVALID_REQUEST',
        message: 'index contracts only support quote streaming',
        details: null,
      }),
    );
    fakes.push(fake);
    const run = await sjgate(fake.port, ['data', 'stream', '--code', 'IX0001', '--security-type', 'IND']);
    assert.equal(run.code, EXIT.error);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr, 'error: index contracts only support quote streaming\n');
    assert.deepEqual(
      fake.requests.map((request) => request.url),
      ['/api/v1/stream/subscribe'],
    );
  });

  test('a stream that fails still unsubscribes', async () => {
    const fake = await quoteDaemon(STOCK_SUBSCRIPTION, 'nothing', []);
    fakes.push(fake);
    const run = await sjgate(fake.port, ['data', 'stream', '--code', '2330']);
    assert.equal(run.code, EXIT.error);
    assert.equal(run.stderr, 'error: no route /api/v1/stream/data/tick_stk\n');
    assert.deepEqual(
      fake.requests.map((request) => request.url),
      ['/api/v1/stream/subscribe', '/api/v1/stream/data/tick_stk', '/api/v1/stream/unsubscribe'],
    );
  });

  test('bad flags are usage errors', async () => {
    const run = await sjgate(1, ['data', 'stream', '--code', '2330', '--quote-type', 'depth']);
    assert.equal(run.code, EXIT.usage);
    assert.match(run.stderr, /expected one of tick, bid_ask, quote/);
  });
});

describe('sjgate data stream as a process', () => {
  const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
  let fake: Fake;
  let home: string;
  let ticker: NodeJS.Timeout;
  const streams = new Set<ServerResponse>();
  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'sjgate-stream-process-'));
    let id = 0;
    fake = await fakeServer((_req, res, request) => {
      if (request.url.startsWith('/api/v1/stream/data/')) {
        sseHead(res);
        streams.add(res);
        res.on('close', () => streams.delete(res));
        return;
      }
      json(res, 200, { success: true, message: 'ok', subscription: STOCK_SUBSCRIPTION });
    });
    ticker = setInterval(() => {
      id++;
      for (const res of streams) res.write(frame(`0-${id}`, 'tick_stk', tick('2330', String(1000 + id))));
    }, 20);
  });
  after(async () => {
    clearInterval(ticker);
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  });

  /** Starts the CLI as a process, stdout piped; resolves with it once the first line arrived. */
  async function start(): Promise<ChildProcessByStdio<null, Readable, Readable>> {
    fake.requests.length = 0;
    const args = ['--import', 'tsx', MAIN, '--host', '127.0.0.1', '--port', String(fake.port), 'data', 'stream'];
    const child = spawn(process.execPath, [...args, '--code', '2330'], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { ...process.env, SJ_HOME_PATH: home, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`exited ${code} before printing`)));
    });
    return child;
  }

  const exitOf = (child: ChildProcessByStdio<null, Readable, Readable>) =>
    new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  test('SIGTERM unsubscribes and exits 0', async () => {
    const child = await start();
    const exited = exitOf(child);
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.deepEqual(fake.requests.at(-1)?.url, '/api/v1/stream/unsubscribe');
  });

  test('a reader that goes away (`| head -1`) ends it, and it unsubscribes', async () => {
    const child = await start();
    const exited = exitOf(child);
    child.stdout.destroy();
    assert.equal(await exited, 0);
    assert.deepEqual(fake.requests.at(-1)?.url, '/api/v1/stream/unsubscribe');
  });
});

describe('data stream pieces', () => {
  test('the quote type is written tick, bid_ask or quote in any case', () => {
    assert.equal(quoteType('tick'), 'Tick');
    assert.equal(quoteType('bid_ask'), 'BidAsk');
    assert.equal(quoteType('BidAsk'), 'BidAsk');
    assert.equal(quoteType('bid-ask'), 'BidAsk');
    assert.equal(quoteType('QUOTE'), 'Quote');
  });

  test('the subscribe body: flat for a product, legs for a combo; odd lots only for a product', () => {
    assert.deepEqual(subscribeRequest({ code: '2330' }), { code: '2330', quote_type: 'Tick' });
    assert.deepEqual(
      subscribeRequest({ code: '2330', quoteType: 'BidAsk', intradayOdd: true, securityType: 'STK', exchange: 'TSE' }),
      { security_type: 'STK', exchange: 'TSE', code: '2330', quote_type: 'BidAsk', intraday_odd: true },
    );
    assert.deepEqual(subscribeRequest({ code: 'TXFG6', comboWith: 'TXFH6', quoteType: 'Quote' }), {
      contract: { legs: [{ code: 'TXFG6' }, { code: 'TXFH6' }] },
      quote_type: 'Quote',
    });
    assert.throws(
      () => subscribeRequest({ code: 'TXFG6', comboWith: 'TXFH6', intradayOdd: true }),
      (error) => error instanceof UsageError && /intraday-odd/.test(error.message),
    );
  });

  test('each family has its stream; events are those of the subscribed code', () => {
    const stock = (type: string, quote: 'Tick' | 'BidAsk' | 'Quote', extra = {}) =>
      ({ ...STOCK_SUBSCRIPTION, security_type: type, quote_type: quote, ...extra }) as Subscription;
    assert.equal(quoteStream(stock('STK', 'Tick')).name, 'tick_stk');
    assert.equal(quoteStream(stock('WRT', 'BidAsk')).name, 'bidask_stk');
    assert.equal(quoteStream(stock('STK', 'Quote')).name, 'quote_stk');
    assert.equal(quoteStream(stock('FUT', 'Tick')).name, 'tick_fop');
    assert.equal(quoteStream(stock('OPT', 'Quote')).name, 'quote_fop');
    assert.equal(quoteStream(stock('IND', 'Quote', { code: 'IX0001' })).name, 'quote_idx');

    const odd = quoteStream(stock('STK', 'Tick', { intraday_odd: true }));
    assert.equal(odd.accepts({ code: '2330', intraday_odd: true }), true);
    assert.equal(odd.accepts({ code: '2330', intraday_odd: false }), false);
    assert.equal(quoteStream(stock('STK', 'Quote')).accepts({ code: '2330' }), true, 'quotes carry no odd-lot flag');

    const r1 = quoteStream(stock('FUT', 'Tick', { code: 'TXFR1', target_code: 'TXFL6' }));
    assert.equal(r1.label, 'TXFR1 (TXFL6)');
    assert.equal(r1.accepts({ code: 'TXFL6' }), true);
    assert.equal(r1.accepts({ code: 'TXFR1' }), false);

    const combo = quoteStream({
      contract: {
        legs: [
          { security_type: 'FUT', code: 'TXFL6', target_code: null },
          { security_type: 'FUT', code: 'TXFA7', target_code: null },
        ],
        combo_type: 'TimeSpread',
      },
      quote_type: 'BidAsk',
      intraday_odd: false,
    });
    assert.equal(combo.name, 'bidask_fop');
    assert.equal(combo.label, 'TXFL6/TXFA7');
    assert.equal(combo.accepts({ code: 'TXFL6/A7' }), true);
    assert.equal(combo.accepts({ code: 'TXFL6' }), false, "the first leg's own book is not the combo's");
    assert.equal(combo.accepts({ code: 'TXFA7' }), false);
  });

  test('rows: a tick shows time, code, close, change, volumes and side; an index its change from the reference', () => {
    assert.equal(
      formatQuote('tick', tick('2330', '1005', { intraday_odd: true })),
      '10:00:01.000123  2330        1005        +5        +0.5%    3        1200       buy   odd',
    );
    const index = formatQuote('index', {
      code: 'IX0001',
      Time: '10:00:05.000000',
      Close: '23100.50',
      Reference: '23000.00',
      Open: '23010.00',
      High: '23120.00',
      Low: '22990.00',
    });
    assert.match(
      index,
      /^10:00:05\.000000\s+IX0001\s+23100\.50\s+\+100\.50\s+\+0\.44%\s+23010\.00\s+23120\.00\s+22990\.00$/,
    );
  });
});

// --- order events -------------------------------------------------------------------------------------------------

const STOCK_ACCOUNT = {
  account_type: 'S',
  person_id: 'A123456789',
  broker_id: '9A95',
  account_id: '6880831',
  signed: true,
  username: 'sjgate',
};

const stockOrderEvent = (accountId: string, opCode = '00', opMsg = '') => ({
  state: 'StockOrder',
  data: {
    StockOrder: {
      operation: { op_type: 'New', op_code: opCode, op_msg: opMsg },
      order: {
        id: 'c604f33c',
        seqno: '100001',
        ordno: 'A0001',
        account: { ...STOCK_ACCOUNT, account_id: accountId },
        action: 'Buy',
        price: 1000,
        quantity: 2,
        order_type: 'ROD',
        price_type: 'LMT',
        order_cond: 'Cash',
        order_lot: 'Common',
        custom_field: '',
      },
      // 2026-11-23 10:00:01 in Taiwan
      status: {
        id: 'c604f33c',
        exchange_ts: 1795399201.5,
        modified_price: 0,
        cancel_quantity: 0,
        order_quantity: 2,
        web_id: '',
      },
      contract: {
        security_type: 'STK',
        exchange: 'TSE',
        code: '2330',
        symbol: 'TSE2330',
        name: '台積電',
        currency: 'TWD',
      },
    },
  },
});

const futuresDealEvent = {
  state: 'FuturesDeal',
  data: {
    FuturesDeal: {
      trade_id: 'f00d',
      seqno: '200001',
      ordno: 'B0001001',
      exchange_seq: '1',
      broker_id: 'F002000',
      account_id: '5234661',
      action: 'Sell',
      code: 'TXF',
      full_code: 'TXFL6',
      price: 22000,
      quantity: 1,
      subaccount: '',
      security_type: 'FUT',
      delivery_month: '202612',
      strike_price: 0,
      option_right: 'Future',
      market_type: 'Day',
      combo: false,
      ts: 1795399202,
    },
  },
};

describe('sjgate order events', () => {
  const fakes: Fake[] = [];
  after(async () => {
    await Promise.all(fakes.map((fake) => fake.close()));
  });

  test('prints each order_event as a JSON line, skips heartbeats and sessions, resumes after a drop', async () => {
    let connections = 0;
    const fake = await fakeServer((_req, res, request) => {
      if (request.url !== '/api/v1/stream/data/order_event')
        return json(res, 404, { code: 404, error: 'ROUTE_NOT_FOUND', message: 'no' });
      connections++;
      sseHead(res);
      if (connections === 1) {
        res.write(frame('1-10', 'session', { resp_code: 200 }));
        res.write(frame('1-11', 'order_event', stockOrderEvent('6880831')));
        res.write(frame('1-12', 'heartbeat', { type: 'heartbeat' }));
        setTimeout(() => res.socket?.destroy(), 20);
      } else {
        res.write(frame('2-13', 'order_event', futuresDealEvent));
      }
    });
    fakes.push(fake);
    const run = await sjgate(fake.port, ['order', 'events'], ctrlCAfter(2));
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(jsonLinesOf(run.stdout), [stockOrderEvent('6880831'), futuresDealEvent]);
    assert.deepEqual(
      fake.requests.map((request) => request.lastEventId),
      [undefined, '1-12'],
    );
    assert.equal(run.stderr, 'stream dropped; reconnecting in 1 s\nreconnected, resuming after event 1-12\n');
  });

  test('--account keeps the reports of one account; --format human prints rows', async () => {
    const fake = await fakeServer((_req, res) => {
      sseHead(res);
      res.write(frame('1-1', 'order_event', stockOrderEvent('1111111')));
      res.write(frame('1-2', 'order_event', stockOrderEvent('6880831', '88', '價格超過漲停')));
      res.write(frame('1-3', 'order_event', futuresDealEvent));
    });
    fakes.push(fake);
    const args = ['--format', 'human', 'order', 'events', '--account', '9A95-6880831'];
    const run = await sjgate(fake.port, args, ctrlCAfter(2));
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 2, run.stdout);
    assert.match(lines[0] ?? '', /^time\s+state\s+op_type\s+code\s+action\s+price\s+quantity\s+ordno\s+status$/);
    assert.match(lines[1] ?? '', /^10:00:01\s+StockOrder\s+New\s+2330\s+Buy\s+1000\s+2\s+A0001\s+88 價格超過漲停$/);
  });

  test('rows and accounts of each kind of report', () => {
    assert.deepEqual(accountOfEvent(stockOrderEvent('6880831')), { broker_id: '9A95', account_id: '6880831' });
    assert.deepEqual(accountOfEvent(futuresDealEvent), { broker_id: 'F002000', account_id: '5234661' });
    assert.equal(eventMatches(futuresDealEvent, { broker_id: 'F002000', account_id: '5234661' }), true);
    assert.equal(eventMatches(futuresDealEvent, { broker_id: '9A95', account_id: '5234661' }), false);
    assert.equal(eventMatches(futuresDealEvent, undefined), true);
    assert.deepEqual(orderEventCells(futuresDealEvent), [
      '10:00:02',
      'FuturesDeal',
      'Deal',
      'TXFL6',
      'Sell',
      22000,
      1,
      'B0001001',
      'filled',
    ]);
    assert.match(formatOrderEvent(stockOrderEvent('6880831')), /\s+A0001\s+ok$/);
  });
});

// --- auth subscribe-trade and server status --streams -------------------------------------------------------------

describe('sjgate auth subscribe-trade / unsubscribe-trade', () => {
  let fake: Fake;
  before(async () => {
    fake = await fakeServer((_req, res, request) => {
      const body = request.body as Record<string, string>;
      json(res, 200, {
        account: { ...STOCK_ACCOUNT, account_type: body.account_type, ...(body.broker_id ? body : {}) },
        subscribe_trade: request.url.endsWith('/subscribe_trade'),
        ts: '20261123100001',
      });
    });
  });
  after(() => fake.close());

  test('subscribes the default stock account and prints account, subscribe_trade and ts', async () => {
    const run = await sjgate(fake.port, ['auth', 'subscribe-trade']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(fake.requests.at(-1), {
      method: 'POST',
      url: '/api/v1/auth/subscribe_trade',
      lastEventId: undefined,
      body: { account_type: 'S' },
    });
    assert.equal(
      run.stdout,
      'account          S 9A95-6880831 (sjgate)\nsubscribe_trade  true\nts               2026-11-23 10:00:01\n',
    );
  });

  test('--account and --account-type go in the body; --format json prints the answer as it is', async () => {
    const args = [
      '--format',
      'json',
      'auth',
      'unsubscribe-trade',
      '--account-type',
      'F',
      '--account',
      'F002000-5234661',
    ];
    const run = await sjgate(fake.port, args);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(fake.requests.at(-1)?.body, { account_type: 'F', broker_id: 'F002000', account_id: '5234661' });
    const answer = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.equal(answer.subscribe_trade, false);
    assert.equal(answer.ts, '20261123100001');
  });

  test('a bad --account is a usage error', async () => {
    const run = await sjgate(fake.port, ['auth', 'subscribe-trade', '--account', '9A95']);
    assert.equal(run.code, EXIT.usage);
    assert.match(run.stderr, /BROKER-ACCOUNT/);
  });
});

test('server status --streams shows the clients of each stream, busiest first', () => {
  const text = formatServerStatus({
    running: true,
    pid: 42,
    port: 8080,
    socket_path: '/tmp/s.sock',
    healthy: true,
    simulation: true,
    stream_receivers: 'Market data receivers are available',
    stream_status: {
      active_connections: 3,
      timestamp: '2026-11-23T02:00:00.000Z',
      status: 'healthy',
      streams: { data: 1, tick_stk: 0, order_event: 2 },
    },
  });
  const lines = text.split('\n');
  assert.ok(lines.includes('stream status'), text);
  assert.ok(lines.includes('  active_connections  3'), text);
  const perStream = lines.slice(lines.indexOf('clients per stream') + 1);
  assert.deepEqual(perStream, ['  order_event  2', '  data         1', '  tick_stk     0']);
  assert.ok(!text.includes('stream_status.'), 'no dotted keys');
});

// --- against the real app -----------------------------------------------------------------------------------------

describe('the streaming commands against the gateway', () => {
  let gateway: Awaited<ReturnType<typeof testApp>>;
  let port: number;
  let market: NodeJS.Timeout;

  before(async () => {
    gateway = await testApp();
    await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.app.server.address() as AddressInfo).port;
    // The simulated market runs a minute every 20 ms, so ticks come at once.
    market = setInterval(() => {
      gateway.clock.advance(60_000);
      gateway.broker.feed.step();
    }, 20);
  });
  after(async () => {
    clearInterval(market);
    await gateway.app.close();
    await gateway.broker.close();
  });

  const api = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
    const response = await gateway.app.inject({ method, url, ...(payload === undefined ? {} : { payload }) });
    return response.json() as Record<string, unknown>;
  };

  test('data stream prints the ticks of a stock as JSON lines and unsubscribes on Ctrl+C', async () => {
    const run = await sjgate(port, ['data', 'stream', '--code', '2330'], ctrlCAfter(3));
    assert.equal(run.code, 0, run.stderr);
    const ticks = jsonLinesOf(run.stdout);
    assert.ok(ticks.length >= 3, run.stdout);
    for (const tick of ticks) {
      assert.equal(tick.code, '2330');
      assert.equal(tick.intraday_odd, false);
      assert.equal(typeof tick.close, 'string');
      assert.equal(typeof tick.volume, 'number');
    }
    assert.deepEqual(await api('GET', '/api/v1/stream/subscriptions').then((list) => list.subscriptions), []);
  });

  test('data stream of an index asks for quotes; Tick is refused with the reason', async () => {
    const run = await sjgate(port, ['data', 'stream', '--code', 'IX0001']);
    assert.equal(run.code, EXIT.error);
    assert.match(run.stderr, /^error: .*quote/i);
    assert.equal(run.stdout, '');
  });

  test('auth subscribe-trade registers the default stock account', async () => {
    const run = await sjgate(port, ['auth', 'subscribe-trade']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^account\s+S \S+-\S+/m);
    assert.match(run.stdout, /^subscribe_trade\s+true$/m);
    assert.match(run.stdout, /^ts\s+2026-11-23 \d\d:\d\d:\d\d$/m);
    const json = await sjgate(port, ['--format', 'json', 'auth', 'subscribe-trade']);
    assert.equal((JSON.parse(json.stdout) as { subscribe_trade: boolean }).subscribe_trade, true);
  });

  test('order events shows an order placed through the API', async () => {
    await api('POST', '/api/v1/auth/subscribe_trade', { account_type: 'S' });
    const run = await sjgate(port, ['order', 'events'], async (output) => {
      // Place once the stream is open: the daemon counts the client.
      await until(() => gateway.app.streams.hub.status().streams.order_event === 1, 'the order_event client');
      const placed = await api('POST', '/api/v1/order/place_order', {
        contract: { code: '2330' },
        stock_order: { action: 'Buy', price: 10, price_type: 'LMT', order_type: 'ROD', quantity: 1 },
      });
      assert.ok(placed.order, JSON.stringify(placed));
      await ctrlCAfter(1)(output);
    });
    assert.equal(run.code, 0, run.stderr);
    const [first] = jsonLinesOf(run.stdout) as { state: string; data: Record<string, Record<string, Row>> }[];
    assert.equal(first?.state, 'StockOrder');
    const body = first?.data.StockOrder;
    assert.equal(body?.contract?.code, '2330');
    assert.equal(body?.order?.price, 10);
    assert.equal(body?.operation?.op_type, 'New');
  });
});
