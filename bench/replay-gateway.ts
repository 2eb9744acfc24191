// The gateway of the replay-flood benchmark, in a process of its own so that its RSS is the gateway's alone: the real
// app around a gateway over the simulator on a manual clock, with an order journal of BENCH_REPLAY_ORDERS reports (1,500 make about
// 1.1 MB) of an account with subscribe_trade, listening on 127.0.0.1.
//
// IPC: sends {type: 'listening', port, journal_bytes} once ready; answers {type: 'memory'} with
// {type: 'memory', rss_mb, heap_mb, queued_bytes, status} (the hub's own status).

import type { StockOrderInput } from '../src/domain/orders.js';
import { ManualClock, taipeiInstant } from '../src/domain/time.js';
import { buildApp } from '../src/server/app.js';
import { simGateway } from '../test/helpers/gateway.js';

const ORDERS = Number(process.env.BENCH_REPLAY_ORDERS ?? 1500);

const clock = new ManualClock(taipeiInstant('2026-11-23', '10:00'));
const { broker, gateway } = simGateway({ clock, seed: 1, clockMode: 'always-open', apiKey: null });
const app = await buildApp({
  gateway,
  bindHost: '127.0.0.1',
  rateLimits: false,
  identity: { version: 'bench', scheme: 'http', protocols: ['HTTP/1.1'], startedAt: Date.now() },
});
await app.ready();
await app.inject({ method: 'POST', url: '/api/v1/auth/subscribe_trade', payload: { account_type: 'S' } });
for (let n = 0; n < ORDERS; n++) {
  const stockOrder = { action: 'Buy', price: 500 + (n % 50), quantity: 1, price_type: 'LMT', order_type: 'ROD' };
  broker.orders.place({ contract: { code: '2330' }, stockOrder: stockOrder as StockOrderInput });
}
await gateway.durable();
const journalBytes = gateway.orderEvents
  .after(0, ORDERS * 10)
  .reduce((sum, { event }) => sum + Buffer.byteLength(JSON.stringify(event)), 0);
await app.listen({ host: '127.0.0.1', port: 0, backlog: 4096 });
const { port } = app.server.address() as { port: number };
const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

process.on('message', (message: { type: string }) => {
  if (message.type !== 'memory') return;
  const usage = process.memoryUsage();
  const status = app.streams.hub.status() as ReturnType<typeof app.streams.hub.status> & { queued_bytes?: number };
  process.send!({
    type: 'memory',
    rss_mb: mb(usage.rss),
    heap_mb: mb(usage.heapUsed),
    queued_mb: mb(status.queued_bytes ?? Number.NaN),
    status,
  });
});
process.on('disconnect', () => process.exit(0));
process.send!({ type: 'listening', port, journal_bytes: journalBytes });
