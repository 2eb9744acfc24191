// `sjgate data stream` against fake daemons, as a process, and against the gateway.

import assert from 'node:assert/strict';
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { formatQuote, quoteStream } from '../../../../src/cli/commands/data/quotes.js';
import { quoteType, subscribeRequest } from '../../../../src/cli/commands/data/subscription.js';
import { EXIT, UsageError } from '../../../../src/cli/context.js';
import type { Subscription } from '../../../../src/contract/wire.js';
import {
  ctrlCAfter,
  type Fake,
  fakeServer,
  frame,
  json,
  jsonLinesOf,
  quoteDaemon,
  STOCK_SUBSCRIPTION,
  sjgate,
  sseHead,
  streamingGateway,
  tick,
} from '../../streaming.js';

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
        // Without --quote-type the security type decides it: Tick for all but an index.
        ['GET', '/api/v1/data/contracts/2330', null],
        ['POST', '/api/v1/stream/subscribe', { code: '2330', quote_type: 'Tick' }],
        ['GET', '/api/v1/stream/data/tick_stk', null],
        ['POST', '/api/v1/stream/unsubscribe', { code: '2330', quote_type: 'Tick' }],
      ],
    );
    assert.equal(process.listenerCount('SIGINT'), 0, 'the Ctrl+C handler is removed');
  });

  test('--format toon prints JSON lines, as the official CLI streams', async () => {
    const fake = await quoteDaemon(STOCK_SUBSCRIPTION, 'tick_stk', [frame('0-1', 'tick_stk', tick('2330', '1005'))]);
    fakes.push(fake);
    const run = await sjgate(fake.port, ['--format', 'toon', 'data', 'stream', '--code', '2330'], ctrlCAfter(1));
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(jsonLinesOf(run.stdout), [tick('2330', '1005')]);
  });

  test('--json FIELDS prints only those fields of each event; an unknown one stops the stream with exit 2', async () => {
    const fake = await quoteDaemon(STOCK_SUBSCRIPTION, 'tick_stk', [
      frame('0-1', 'tick_stk', tick('2330', '1005')),
      frame('0-2', 'tick_stk', tick('2330', '1010')),
    ]);
    fakes.push(fake);
    const run = await sjgate(fake.port, ['data', 'stream', '--code', '2330', '--json', 'close,code'], ctrlCAfter(2));
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(jsonLinesOf(run.stdout), [
      { close: '1005', code: '2330' },
      { close: '1010', code: '2330' },
    ]);
    const wrong = await sjgate(fake.port, ['data', 'stream', '--code', '2330', '--json', 'price']);
    assert.equal(wrong.code, EXIT.usage);
    assert.equal(wrong.stdout, '');
    assert.match(wrong.stderr, /^error: unknown JSON field: "price"\navailable fields:\n {2}code\n {2}date\n/);
    assert.equal(fake.requests.at(-1)?.url, '/api/v1/stream/unsubscribe', 'it unsubscribes');
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
      [
        '/api/v1/data/contracts/2330',
        '/api/v1/stream/subscribe',
        '/api/v1/stream/data/tick_stk',
        '/api/v1/stream/unsubscribe',
      ],
    );
  });

  test('bad flags are usage errors', async () => {
    const run = await sjgate(1, ['data', 'stream', '--code', '2330', '--quote-type', 'depth']);
    assert.equal(run.code, EXIT.usage);
    assert.match(run.stderr, /expected one of tick, bid_ask, quote/);
  });
});

describe('sjgate data stream as a process', () => {
  const MAIN = fileURLToPath(new URL('../../../../src/cli/main.ts', import.meta.url));
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
      cwd: fileURLToPath(new URL('../../../..', import.meta.url)),
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
          { security_type: 'FUT', region: 'TW', exchange: 'TAIFEX', code: 'TXFL6', target_code: null },
          { security_type: 'FUT', region: 'TW', exchange: 'TAIFEX', code: 'TXFA7', target_code: null },
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

describe('data stream against the gateway', () => {
  const streaming = streamingGateway();
  const { api } = streaming;

  test('data stream prints the ticks of a stock as JSON lines and unsubscribes on Ctrl+C', async () => {
    const run = await sjgate(streaming.port, ['data', 'stream', '--code', '2330'], ctrlCAfter(3));
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

  test('data stream of an index streams its quotes by default; Tick is refused naming the flag', async () => {
    // The cement index: a few members, where the weighted index would build the tapes of the whole exchange.
    const run = await sjgate(streaming.port, ['data', 'stream', '--code', 'ix0010'], ctrlCAfter(1));
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.equal(jsonLinesOf(run.stdout)[0]?.code, 'IX0010');
    const tick = await sjgate(streaming.port, ['data', 'stream', '--code', 'IX0001', '--quote-type', 'tick']);
    assert.equal(tick.code, EXIT.error);
    assert.match(tick.stderr, /^error: index contracts only support quote streaming: .*with --quote-type quote/);
    assert.equal(tick.stdout, '');
  });
});
