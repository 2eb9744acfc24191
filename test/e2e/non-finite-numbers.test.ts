// Issue 14 over a real socket: JSON numbers like 1e400 (which JSON.parse reads as Infinity) are 422s naming the
// field, nothing is journaled, and the listings still answer, also after a restart. JSON.stringify cannot write such
// a number, so the bodies are sent as raw text.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { loadConfig } from '../../src/config.js';
import { type RunningGateway, startGateway } from '../../src/server/main.js';

const home = mkdtempSync(join(tmpdir(), 'sjgate-nonfinite-'));
let gateway: RunningGateway;
const start = () => startGateway(loadConfig({ SJ_HOME_PATH: home, SJ_HTTP_ADDR: '127.0.0.1:0' }), () => undefined);

before(async () => {
  gateway = await start();
});
after(async () => {
  await gateway?.close();
  rmSync(home, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Body = any;

async function send(method: 'GET' | 'POST', path: string, text?: string) {
  const response = await fetch(`http://127.0.0.1:${gateway.port}/api/v1${path}`, {
    method,
    ...(text === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: text }),
  });
  const raw = await response.text();
  return { status: response.status, body: JSON.parse(raw) as Body, bytes: raw.length };
}

/** A 422 envelope whose details name exactly these fields as not finite. */
function assertNotFinite(response: { status: number; body: Body }, ...fields: (string | number)[][]) {
  assert.equal(response.status, 422, JSON.stringify(response.body));
  assert.equal(response.body.code, 422);
  assert.equal(response.body.error, 'VALIDATION_FAILED');
  assert.match(response.body.message, /must be a finite number/);
  assert.deepEqual(
    response.body.details,
    fields.map((loc) => ({ loc: ['body', ...loc], msg: 'must be a finite number', type: 'finite' })),
  );
}

const stock = (price: string, quantity: string) =>
  `{"contract":{"code":"2330"},"stock_order":{"action":"Buy","price":${price},"quantity":${quantity},` +
  `"price_type":"LMT","order_type":"ROD"}}`;

test('orders with 1e400 are 422s, nothing is kept, and the listings answer before and after a restart', {
  timeout: 60_000,
}, async () => {
  assertNotFinite(await send('POST', '/order/place_order', stock('1e400', '1')), ['stock_order', 'price']);
  assertNotFinite(await send('POST', '/order/place_order', stock('1000', '1e400')), ['stock_order', 'quantity']);
  const futures =
    '{"contract":{"code":"TXFR1"},"futures_order":{"action":"Buy","price":-1e400,"quantity":1,' +
    '"price_type":"LMT","order_type":"ROD"}}';
  assertNotFinite(await send('POST', '/order/place_order', futures), ['futures_order', 'price']);

  const combos = (await send('GET', '/data/contracts/combo/futures?root=TXF')).body;
  const legs = JSON.stringify(combos[0].legs.map((leg: Body) => ({ security_type: 'FUT', code: leg.code })));
  for (const price of ['1e400', '-1e400']) {
    const combo =
      `{"combo_contract":{"legs":${legs}},"order":{"action":"Buy","price":${price},"quantity":1,` +
      '"price_type":"LMT","order_type":"ROD"}}';
    assertNotFinite(await send('POST', '/order/place_comboorder', combo), ['order', 'price']);
  }
  assertNotFinite(await send('POST', '/order/update_price', '{"trade_id":"a","price":1e400}'), ['price']);
  assertNotFinite(await send('POST', '/order/update_qty', '{"trade_id":"a","quantity":1e400}'), ['quantity']);
  assertNotFinite(await send('POST', '/data/contracts', '{"security_type":"STK","page":1e400}'), ['page']);
  const query = await send('GET', '/data/contracts?security_type=STK&page=1e400&page_size=-1e400');
  assert.equal(query.status, 422);
  assert.deepEqual(
    query.body.details.filter((d: Body) => d.type === 'finite').map((d: Body) => d.loc),
    [
      ['query', 'page'],
      ['query', 'page_size'],
    ],
  );

  const listings = async () => {
    for (const path of ['/order/trades', '/order/update_status', '/order/combotrades']) {
      const listed = await send('POST', path, '{}');
      assert.equal(listed.status, 200, `${path}: ${JSON.stringify(listed.body)}`);
      assert.deepEqual(listed.body, []);
    }
    assert.equal((await send('POST', '/order/cancel_order', '{"trade_id":"a"}')).status, 404);
  };
  await listings();
  await gateway.close();
  const db = new Database(join(home, 'sjgate.db'), { readonly: true });
  try {
    assert.deepEqual(db.prepare('SELECT id FROM orders').all(), []);
    assert.deepEqual(db.prepare('SELECT seq FROM events').all(), []);
  } finally {
    db.close();
  }
  gateway = await start();
  await listings();
});

test('eight 250 KB snapshots bodies of 125,000 bad items are small 422s, and /health answers meanwhile', {
  timeout: 60_000,
}, async () => {
  const text = `{"contracts":[${Array.from({ length: 125_000 }, () => '1').join(',')}]}`;
  const answers = Array.from({ length: 8 }, () => send('POST', '/data/snapshots', text));
  const health = await send('GET', '/health');
  assert.equal(health.status, 200);
  for (const answer of await Promise.all(answers)) {
    assert.equal(answer.status, 422);
    assert.deepEqual(answer.body.details, [
      { loc: ['body', 'contracts'], msg: 'must NOT have more than 500 items (it has 125000)', type: 'maxItems' },
    ]);
    assert.ok(answer.bytes < 1000, `${answer.bytes} bytes`);
  }
});
