// `sjgate data scanner-watch` against a fake daemon: it subscribes each rule on each exchange, prints the events of
// those subscriptions only (JSON lines or rows), and unsubscribes them on Ctrl+C; names are checked before any call.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import {
  formatScannerEvent,
  scannerName,
  scannerRequest,
  watches,
} from '../../../../src/cli/commands/data/scanner-watch.js';
import { EXIT } from '../../../../src/cli/context.js';
import { ctrlCAfter, type Fake, fakeServer, frame, json, jsonLinesOf, sjgate, sseHead } from '../../streaming.js';

const quote = (code: string) => ({ code, date: '2026-11-23', time: '10:00:01.000123', close: '55', diff_price: '5' });
const signal = (scanner: string, exchange: string, code: string, extra: object) => ({
  scanner,
  region: 'TW',
  security_type: 'STK',
  exchange,
  quote: quote(code),
  extra,
});
const LIMIT = { previous_best_price: '54.9', trigger_price: '55', limit_price: '55' };
const BURST = { amount: 27_500_000, volume: 500, price: '55', threshold: 20_000_000 };

function scannerDaemon(frames: string[]): Promise<Fake> {
  return fakeServer((_req, res, request) => {
    if (request.url.startsWith('/api/v1/stream/subscribe/scanner')) {
      return json(res, 200, { success: true, message: 'Subscribed' });
    }
    if (request.url.startsWith('/api/v1/stream/unsubscribe/scanner')) {
      return json(res, 200, { success: true, message: 'Unsubscribed' });
    }
    if (request.url === '/api/v1/stream/data/scanner') {
      sseHead(res);
      for (const text of frames) res.write(text);
      return;
    }
    json(res, 404, { code: 404, error: 'ROUTE_NOT_FOUND', message: `no route ${request.url}`, details: null });
  });
}

describe('sjgate data scanner-watch', () => {
  const fakes: Fake[] = [];
  after(async () => {
    await Promise.all(fakes.map((fake) => fake.close()));
  });

  test('subscribes each rule on each exchange, prints their events as JSON lines, unsubscribes on Ctrl+C', async () => {
    const frames = [
      frame('0-1', 'scanner', signal('bid_touch_limit_up', 'TSE', '2369', LIMIT)),
      frame('0-2', 'scanner', signal('volume_burst', 'TSE', '2330', BURST)),
      frame('0-3', 'scanner', signal('bid_touch_limit_up', 'OTC', '6488', LIMIT)),
      frame('0-4', 'heartbeat', { type: 'heartbeat' }),
      frame('0-5', 'scanner', {
        scanners: ['simtrade'],
        region: 'TW',
        security_type: 'STK',
        exchange: 'TSE',
        quote: quote('2317'),
      }),
      frame('0-6', 'scanner', signal('limit_up_unlocked', 'TSE', '2369', { ...LIMIT, previous_best_price: null })),
    ];
    const fake = await scannerDaemon(frames);
    fakes.push(fake);
    const args = ['data', 'scanner-watch', '--rule', 'bid-touch-limit-up,limit_up_unlocked', '--exchange', 'TSE'];
    const run = await sjgate(fake.port, args, ctrlCAfter(2));
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      jsonLinesOf(run.stdout).map((event) => [event.scanner, (event.quote as { code: string }).code]),
      [
        ['bid_touch_limit_up', '2369'],
        ['limit_up_unlocked', '2369'],
      ],
    );
    const touch = {
      scanner: { kind: 'preset_rule', id: 'bid_touch_limit_up' },
      region: 'TW',
      security_type: 'STK',
      exchange: 'TSE',
    };
    const unlocked = { ...touch, scanner: { kind: 'preset_rule', id: 'limit_up_unlocked' } };
    assert.deepEqual(
      fake.requests.map((request) => [request.url, request.body]),
      [
        ['/api/v1/stream/subscribe/scanner', touch],
        ['/api/v1/stream/subscribe/scanner', unlocked],
        ['/api/v1/stream/data/scanner', null],
        ['/api/v1/stream/unsubscribe/scanner', touch],
        ['/api/v1/stream/unsubscribe/scanner', unlocked],
      ],
    );
    assert.equal(process.listenerCount('SIGINT'), 0);
  });

  test('--format human prints a header and a readable row per event', async () => {
    const fake = await scannerDaemon([
      frame('0-1', 'scanner', signal('volume_burst', 'OTC', '6488', BURST)),
      frame('0-2', 'scanner', signal('volume_burst', 'OTC', '6488', BURST)),
    ]);
    fakes.push(fake);
    const args = ['data', 'scanner-watch', '--rule', 'volume_burst', '--exchange', 'otc', '--format', 'human'];
    const run = await sjgate(fake.port, args, ctrlCAfter(2));
    assert.equal(run.code, 0, run.stderr);
    const [header, row] = run.stdout.split('\n');
    assert.match(header!, /^time\s+exch\s+code\s+scanner\s+close\s+change\s+detail$/);
    assert.match(
      row!,
      /^10:00:01\.000123\s+OTC\s+6488\s+volume_burst\s+55\s+5\s+500 lots at 55: NT\$27500000 >= 20000000$/,
    );
  });

  test('an unknown rule or exchange is a usage error before any request', async () => {
    const fake = await scannerDaemon([]);
    fakes.push(fake);
    const rule = await sjgate(fake.port, ['data', 'scanner-watch', '--rule', 'limit_up']);
    assert.equal(rule.code, EXIT.usage);
    assert.match(rule.stderr, /expected one of bid_near_limit_up, .*volume_burst, simtrade, suspend/);
    const exchange = await sjgate(fake.port, ['data', 'scanner-watch', '--rule', 'simtrade', '--exchange', 'TAIFEX']);
    assert.equal(exchange.code, EXIT.usage);
    assert.match(exchange.stderr, /expected TSE or OTC/);
    const none = await sjgate(fake.port, ['data', 'scanner-watch']);
    assert.equal(none.code, EXIT.usage);
    assert.deepEqual(fake.requests, []);
  });

  test('names, bodies, filters and rows', () => {
    assert.equal(scannerName('Ask-Touch-Limit-Down'), 'ask_touch_limit_down');
    assert.deepEqual(scannerRequest('suspend', 'OTC'), {
      scanner: 'suspend',
      region: 'TW',
      security_type: 'STK',
      exchange: 'OTC',
    });
    const options = { rule: ['simtrade' as const], exchange: ['TSE' as const] };
    assert.equal(watches(options, { scanners: ['simtrade', 'suspend'], exchange: 'TSE' }), true);
    assert.equal(watches(options, { scanners: ['suspend'], exchange: 'TSE' }), false);
    assert.equal(watches(options, { scanners: ['simtrade'], exchange: 'OTC' }), false);
    const move = {
      reference_time: '10:00:00.6',
      reference_price: '50',
      change_price: '0.6',
      change_percent: '1.2',
      tick_change: 6,
      elapsed_ms: 400,
    };
    assert.match(
      formatScannerEvent(signal('trade_price_surge', 'TSE', '2330', move)),
      /1\.2% \(6 ticks\) in 400 ms from 50$/,
    );
    assert.match(
      formatScannerEvent(signal('limit_up_unlocked', 'TSE', '2330', { ...LIMIT, previous_best_price: null })),
      /- -> 55 \(limit 55\)$/,
    );
  });
});
