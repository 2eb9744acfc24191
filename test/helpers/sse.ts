// A test SSE client over node:http: collects named events with their ids, waits for them, and can stall (stop
// reading) to play a slow client; and a raw client that never reads at all.

import { type ClientRequest, type IncomingMessage, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseClient {
  status: number;
  events: EventSourceMessage[];
  /** Resolves when `count` events pass the filter (all events when omitted); rejects after timeoutMs. */
  waitFor(
    count: number,
    filter?: (event: EventSourceMessage) => boolean,
    timeoutMs?: number,
  ): Promise<EventSourceMessage[]>;
  /** Stops reading: the server's writes pile up in its buffers. */
  stall(): void;
  readonly closed: Promise<void>;
  close(): void;
  /** The response body when the server answered with an error status. */
  errorBody(): Promise<string>;
}

export function connectSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    let req: ClientRequest;
    const events: EventSourceMessage[] = [];
    const waiters = new Set<() => void>();
    req = request(
      url,
      { headers: { accept: 'text/event-stream', ...headers }, agent: false },
      (res: IncomingMessage) => {
        let closedResolve: () => void;
        const closed = new Promise<void>((r) => {
          closedResolve = r;
        });
        res.on('close', () => closedResolve());
        res.on('error', () => closedResolve());
        const isError = (res.statusCode ?? 0) >= 400;
        const body: Buffer[] = [];
        const parser = createParser({
          onEvent: (event) => {
            events.push(event);
            for (const waiter of waiters) waiter();
          },
        });
        res.on('data', (chunk: Buffer) => (isError ? body.push(chunk) : parser.feed(chunk.toString('utf8'))));
        resolve({
          status: res.statusCode ?? 0,
          events,
          closed,
          waitFor(count, filter = () => true, timeoutMs = 30_000) {
            return new Promise((done, fail) => {
              const check = () => {
                const matching = events.filter(filter);
                if (matching.length >= count) {
                  waiters.delete(check);
                  clearTimeout(timer);
                  done(matching);
                }
              };
              const timer = setTimeout(() => {
                waiters.delete(check);
                fail(new Error(`waited ${timeoutMs} ms for ${count} events, got ${events.filter(filter).length}`));
              }, timeoutMs);
              waiters.add(check);
              check();
            });
          },
          stall() {
            res.pause();
            res.socket.pause();
          },
          close() {
            req.destroy();
          },
          errorBody: async () => {
            await closed;
            return Buffer.concat(body).toString('utf8');
          },
        });
      },
    );
    req.on('error', (error) => {
      if (!('code' in error && error.code === 'ECONNRESET')) reject(error);
    });
    req.end();
  });
}

/**
 * A raw socket that asks for an SSE stream and never reads a byte, so the kernel's buffers fill and the server's
 * writes pile up on its side: the client an attacker or a hung program plays. Resolves once the request is sent.
 */
export function connectNeverReading(port: number, path: string, lastEventId?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.pause();
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      socket.on('error', () => {});
      const resume = lastEventId === undefined ? '' : `last-event-id: ${lastEventId}\r\n`;
      socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\naccept: text/event-stream\r\n${resume}\r\n`);
      resolve(socket);
    });
  });
}
