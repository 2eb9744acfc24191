// followStream's reconnect and resume against fake SSE servers.

import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import type { EventSourceMessage } from 'eventsource-parser';
import { ApiError, DaemonClient, UnreachableError } from '../../src/cli/client.js';
import { followStream } from '../../src/cli/stream.js';
import { freePort } from '../helpers/net.js';
import { clientOf, type Fake, fakeServer, frame, type Handler, json, sseHead, until } from './streaming.js';

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
