// Fakes for the streaming commands: an HTTP server that answers what a test says (SSE streams included), the CLI run
// in this process against it, and the events and subscriptions the streams carry.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { DaemonClient } from '../../src/cli/client.js';
import type { ProductSubscription, Subscription } from '../../src/contract/wire.js';
import { testApp } from '../helpers/app.js';
import { type RunningOutput, runSjgate } from '../helpers/cli.js';

// --- a fake SSE server ------------------------------------------------------------------------------------------

export interface Request {
  method: string;
  url: string;
  lastEventId: string | undefined;
  body: unknown;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, request: Request) => void;

export interface Fake {
  port: number;
  requests: Request[];
  close(): Promise<void>;
}

export async function fakeServer(handler: Handler, port = 0): Promise<Fake> {
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

export const sseHead = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  res.write(': ok\n\nretry: 2000\n\n');
};

export const frame = (id: string, event: string, data: unknown) =>
  `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export const json = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(value));
};

export const clientOf = (fake: Fake) => new DaemonClient({ socketPath: null, host: '127.0.0.1', port: fake.port });

/** Resolves once `check` holds, polling every 5 ms; fails after `ms` (generous: a loaded machine is slow, not wrong). */
export async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A followStream that records what it received, its notices and its pauses (which take no time). */
// --- the commands against a fake daemon ---------------------------------------------------------------------------

/** Runs sjgate in this process under a fresh data home (no socket, so TCP); see runSjgate. */
export async function sjgate(port: number, args: string[], whileRunning?: (output: RunningOutput) => Promise<void>) {
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

/**
 * Waits until stdout has `lines` lines, then presses Ctrl+C; fails once the command ends short of them. It waits on
 * the output, not on the wall clock: a loaded machine only makes it wait longer (the test's time limit bounds it).
 */
export const ctrlCAfter =
  (lines: number) =>
  async (output: RunningOutput): Promise<void> => {
    const printed = () => output.stdout().split('\n').length - 1;
    await until(() => printed() >= lines || output.ended(), `${lines} lines of output`, Number.POSITIVE_INFINITY);
    if (printed() < lines) assert.fail(`the command ended after ${printed()} of ${lines} lines: ${output.stderr()}`);
    process.emit('SIGINT', 'SIGINT');
  };

export const jsonLinesOf = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

export const STOCK_SUBSCRIPTION: ProductSubscription = {
  security_type: 'STK',
  exchange: 'TSE',
  code: '2330',
  target_code: null,
  quote_type: 'Tick',
  intraday_odd: false,
};

export const tick = (code: string, close: string, extra: Record<string, unknown> = {}) => ({
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
export async function quoteDaemon(subscription: Subscription | null, name: string, frames: string[]): Promise<Fake> {
  return fakeServer((_req, res, request) => {
    if (request.url === '/api/v1/stream/subscribe') {
      return json(res, 200, { success: true, message: 'Subscription successful', subscription });
    }
    if (request.url === '/api/v1/stream/unsubscribe') {
      return json(res, 200, { success: true, message: 'Unsubscription successful', subscription });
    }
    const looked = /^\/api\/v1\/data\/contracts\/([^/?]+)$/.exec(request.url)?.[1];
    if (looked !== undefined) {
      const type = subscription !== null && 'security_type' in subscription ? subscription.security_type : 'FUT';
      return json(res, 200, { security_type: type, code: looked });
    }
    if (request.url === `/api/v1/stream/data/${name}`) {
      sseHead(res);
      for (const text of frames) res.write(text);
      return;
    }
    json(res, 404, { code: 404, error: 'ROUTE_NOT_FOUND', message: `no route ${request.url}`, details: null });
  });
}

export const STOCK_ACCOUNT = {
  account_type: 'S',
  person_id: 'A123456789',
  broker_id: '9A95',
  account_id: '6880831',
  signed: true,
  username: 'sjgate',
};

export const stockOrderEvent = (accountId: string, opCode = '00', opMsg = '') => ({
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

export const futuresDealEvent = {
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

export interface StreamingGateway {
  /** The app under test, once started. */
  readonly gateway: Awaited<ReturnType<typeof testApp>>;
  readonly port: number;
  /** A request to the app, without the CLI; its JSON answer. */
  api(method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** Simulated time the market moves on by in a step: enough for several ticks of a busy code or quotes of an index. */
const MARKET_STEP_MS = 10_000;

/**
 * The gateway on a free port, started in `before` and closed in `after` of the file that calls it. The simulated
 * market moves only while a client streams, MARKET_STEP_MS every 20 ms: a loaded machine steps less often but never
 * finds the market closed (from 10:00 the close is 1260 steps of streaming away), and ticks still come at once.
 */
export function streamingGateway(): StreamingGateway {
  let gateway: Awaited<ReturnType<typeof testApp>>;
  let port = 0;
  let market: NodeJS.Timeout;
  before(async () => {
    gateway = await testApp();
    await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.app.server.address() as AddressInfo).port;
    market = setInterval(() => {
      if (gateway.app.streams.hub.status().active_connections === 0) return;
      gateway.clock.advance(MARKET_STEP_MS);
      gateway.broker.feed.step();
    }, 20);
  });
  after(async () => {
    clearInterval(market);
    await gateway.app.close();
    await gateway.broker.close();
  });
  return {
    get gateway() {
      return gateway;
    },
    get port() {
      return port;
    },
    async api(method, url, payload) {
      const response = await gateway.app.inject({ method, url, ...(payload === undefined ? {} : { payload }) });
      return response.json() as Record<string, unknown>;
    },
  };
}

/** A daemon that answers subscribe_trade and unsubscribe_trade for the account of the body (default: the stock one). */
export function tradeSubscriptionDaemon(): Promise<Fake> {
  return fakeServer((_req, res, request) => {
    if (request.url === '/api/v1/auth/accounts') {
      return json(res, 200, [
        STOCK_ACCOUNT,
        { ...STOCK_ACCOUNT, account_type: 'F', broker_id: 'F002000', account_id: '1' },
      ]);
    }
    const body = request.body as Record<string, string>;
    json(res, 200, {
      account: { ...STOCK_ACCOUNT, account_type: body.account_type, ...(body.broker_id ? body : {}) },
      subscribe_trade: request.url.endsWith('/subscribe_trade'),
      ts: '20261123100001',
    });
  });
}
