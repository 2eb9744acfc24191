// `sjgate data index-stream` against fake daemons and the gateway: each flag subscribes its family, prints only the
// events of that subscription, and unsubscribes on Ctrl+C; projections are read as SinoPac names them.

import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { formatIndexEvent, indexStreamRequest, projection } from '../../../../src/cli/commands/data/index-stream.js';
import { EXIT, UsageError } from '../../../../src/cli/context.js';
import { testApp } from '../../../helpers/app.js';
import { ctrlCAfter, type Fake, fakeServer, frame, json, jsonLinesOf, sjgate, sseHead } from '../../streaming.js';

const contribution = (ranking: string, code = 'IX0001') => ({
  ranking,
  code,
  date: '2026-11-23',
  time: '10:00:05.000000',
  entries: [{ code: '2330', price: '1005', reference: '1000', price_chg: '5', pct_chg: '0.5', points: '12.5' }],
  simtrade: false,
});

/** Answers every subscribe and unsubscribe; streams the frames on the family's dedicated stream. */
function analyticsDaemon(family: string, frames: string[]): Promise<Fake> {
  return fakeServer((_req, res, request) => {
    if (request.url.startsWith('/api/v1/stream/subscribe/')) return json(res, 200, { success: true, message: 'ok' });
    if (request.url.startsWith('/api/v1/stream/unsubscribe/')) return json(res, 200, { success: true, message: 'ok' });
    if (request.url === `/api/v1/stream/data/${family}`) {
      sseHead(res);
      for (const text of frames) res.write(text);
      return;
    }
    json(res, 404, { code: 404, error: 'ROUTE_NOT_FOUND', message: `no route ${request.url}`, details: null });
  });
}

describe('index-stream flags', () => {
  test('a projection as SinoPac names it; anything else is refused with the forms', () => {
    assert.deepEqual(projection('groups/breadth'), { kind: 'group_metric', metric: 'breadth' });
    assert.deepEqual(projection('rank/component/amount/desc/10/group/24'), {
      kind: 'ranking',
      target: 'component',
      metric: 'amount',
      order: 'desc',
      limit: 10,
      group: '24',
    });
    for (const bad of ['rank/component/amount', 'groups', 'rank/x/contribution/desc/10', 'rank/group/a/desc/ten']) {
      assert.throws(() => projection(bad), /expected rank\/<component\|group>/);
    }
  });

  test('exactly one stream is named', () => {
    assert.deepEqual(indexStreamRequest({ index: 'IX0043', industry: true }).body, { index: { code: 'IX0043' } });
    assert.throws(() => indexStreamRequest({ index: 'IX0001' }), UsageError);
    assert.throws(() => indexStreamRequest({ index: 'IX0001', ranking: 'top10', industry: true }), UsageError);
  });

  test('the human block names the event, then a line per entry', () => {
    const block = formatIndexEvent('index_contribution', contribution('top10'));
    assert.deepEqual(block.split('\n'), ['10:00:05.000000  IX0001  top10', '  2330    1005      5       0.5%    12.5']);
  });
});

describe('sjgate data index-stream', () => {
  const fakes: Fake[] = [];
  after(async () => {
    await Promise.all(fakes.map((fake) => fake.close()));
  });

  test('--ranking subscribes index_contribution and prints only its ranking of its index', async () => {
    const fake = await analyticsDaemon('index_contribution', [
      frame('0-1', 'index_contribution', contribution('abs10')),
      frame('0-2', 'index_contribution', contribution('top10')),
      frame('0-3', 'index_contribution', contribution('top10', 'IX0043')),
      frame('0-4', 'index_contribution', contribution('top10')),
    ]);
    fakes.push(fake);
    const run = await sjgate(fake.port, ['data', 'index-stream', '--ranking', 'top10'], ctrlCAfter(2));
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(jsonLinesOf(run.stdout), [contribution('top10'), contribution('top10')]);
    assert.deepEqual(
      fake.requests.map((request) => [request.method, request.url, request.body]),
      [
        ['POST', '/api/v1/stream/subscribe/index_contribution', { index: { code: 'IX0001' }, ranking: 'top10' }],
        ['GET', '/api/v1/stream/data/index_contribution', null],
        ['POST', '/api/v1/stream/unsubscribe/index_contribution', { index: { code: 'IX0001' }, ranking: 'top10' }],
      ],
    );
  });

  test('bad flags are usage errors and send nothing', async () => {
    const ranking = await sjgate(1, ['data', 'index-stream', '--ranking', 'top5']);
    assert.equal(ranking.code, EXIT.usage);
    assert.match(ranking.stderr, /top10/);
    const none = await sjgate(1, ['data', 'index-stream']);
    assert.equal(none.code, EXIT.usage);
    assert.match(none.stderr, /name one stream/);
  });
});

describe('sjgate data index-stream against the gateway', () => {
  test('a projection streams its events and unsubscribes; one not served is the daemon’s 400', async () => {
    const { app, clock, broker } = await testApp();
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const held = async () => (await app.inject('/api/v1/stream/subscriptions')).json().count as number;
    try {
      const args = ['data', 'index-stream', '--projection', 'groups/contribution'];
      const run = await sjgate(port, args, async (output) => {
        // The market moves only when the test says: an index update each time once the CLI's stream is attached,
        // until it has printed one (however long a loaded machine takes: the test's limit bounds the wait).
        while (!output.stdout().includes('\n') && !output.ended()) {
          if (broker.quotes.size > 0 && app.streams.hub.status().active_connections > 0) {
            clock.advance(5_000);
            broker.feed.step();
          }
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        process.emit('SIGINT', 'SIGINT');
      });
      assert.equal(run.code, 0, run.stderr);
      const [event] = jsonLinesOf(run.stdout) as { unit: string; groups: unknown[] }[];
      assert.equal(event!.unit, 'points');
      assert.ok(event!.groups.length > 5);
      assert.equal(await held(), 0, 'unsubscribed on Ctrl+C');
      const refused = await sjgate(port, ['data', 'index-stream', '--projection', 'rank/group/weight/asc/10']);
      assert.equal(refused.code, EXIT.error);
      assert.match(refused.stderr, /unsupported index_components projection/);
    } finally {
      await app.close();
    }
  });
});
