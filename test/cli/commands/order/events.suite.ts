// `sjgate order events` against fake daemons and against the gateway.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Row } from '../../../../src/cli/output.js';
import {
  ctrlCAfter,
  type Fake,
  fakeServer,
  frame,
  futuresDealEvent,
  json,
  jsonLinesOf,
  sjgate,
  sseHead,
  stockOrderEvent,
  streamingGateway,
  until,
} from '../../streaming.js';

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
});

describe('order events against the gateway', () => {
  const streaming = streamingGateway();
  const { api } = streaming;

  test('order events shows an order placed through the API', async () => {
    await api('POST', '/api/v1/auth/subscribe_trade', { account_type: 'S' });
    const run = await sjgate(streaming.port, ['order', 'events'], async (output) => {
      // Place once the stream is open: the daemon counts the client.
      await until(() => streaming.gateway.app.streams.hub.status().streams.order_event === 1, 'the order_event client');
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
