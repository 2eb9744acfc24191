// Following a server-sent event stream of the gateway as an async iterator: a connection that ends, breaks or goes
// silent is opened again after a pause (1 s doubling to 15 s, back to 1 s once an event arrives), with
// `Last-Event-ID` set to the last id seen, so the server replays what was missed and goes on from there.

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ApiError, errorBodyOf } from './errors.js';
import type { Transport } from './transport.js';

/** One message of a stream: its event name (`tick_stk`, `order_event`, `session`, ...), id and JSON text. */
export interface StreamEvent {
  event: string;
  id: string | undefined;
  data: string;
}

export interface Backoff {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 1_000, maxMs: 15_000 };
/** The gateway sends a heartbeat every 30 s; a connection silent for longer than this is taken as dead. */
export const DEFAULT_SILENCE_MS = 45_000;

export interface FollowOptions {
  /** Ends the stream (the iterator finishes without an error). */
  signal?: AbortSignal | undefined;
  /** Resume after this event from the start (the `Last-Event-ID` of the first connection). */
  lastEventId?: string | undefined;
  /** The pause before reconnecting; 1 s doubling to 15 s unless given. */
  backoff?: Backoff;
  /** A connection that brings nothing (not even a heartbeat) for this long is dropped; 0 never drops one. */
  silenceMs?: number;
  /** Called each time the server accepts the stream; `resumed` for a reconnect. */
  onOpen?: (resumed: boolean, lastEventId: string | undefined) => void;
  /** Called when the stream dropped (why) and will be opened again in `delayMs`. */
  onDrop?: (reason: Error, delayMs: number) => void;
  /** Runs before each reconnect (not the first connection), e.g. to subscribe again; may throw to end the stream. */
  beforeReconnect?: () => Promise<void>;
  /**
   * Whether to reconnect after `error` (an ApiError for an error answer, else the transport's error). By default a
   * 5xx, 429 or an unknown Last-Event-ID (started again from now) is retried, as is every failure to connect; any
   * other error answer ends the iterator with it.
   */
  shouldRetry?: (error: unknown, everConnected: boolean) => boolean;
  /** How to wait before a reconnect (tests shorten it); resolves early when the signal aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** A stream being followed: iterate it for its events; `lastEventId` is the id of the last one seen. */
export class EventSubscription implements AsyncIterable<StreamEvent> {
  #lastEventId: string | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly path: string,
    private readonly headers: () => Record<string, string>,
    private readonly options: FollowOptions = {},
  ) {
    this.#lastEventId = options.lastEventId;
  }

  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
    const { signal, backoff = DEFAULT_BACKOFF, sleep = abortableSleep } = this.options;
    const stop = new AbortController();
    const stopNow = () => stop.abort();
    signal?.addEventListener('abort', stopNow, { once: true });
    if (signal?.aborted) stop.abort();
    let delay = backoff.initialMs;
    let everConnected = false;
    let resumed = false;
    try {
      while (!stop.signal.aborted) {
        let reason: Error;
        try {
          for await (const message of this.#connection(stop.signal, resumed, () => (everConnected = true))) {
            delay = backoff.initialMs;
            yield message;
          }
          reason = new Error('the gateway closed the stream');
        } catch (error) {
          if (stop.signal.aborted) return;
          if (!(this.options.shouldRetry ?? retriedByDefault)(error, everConnected)) throw error;
          if (error instanceof ApiError && error.kind === 'UNKNOWN_EVENT_ID') this.#lastEventId = undefined;
          reason = error instanceof Error ? error : new Error(String(error));
        }
        if (stop.signal.aborted) return;
        this.options.onDrop?.(reason, delay);
        await sleep(delay, stop.signal);
        delay = Math.min(delay * 2, backoff.maxMs);
        resumed = true;
      }
    } finally {
      signal?.removeEventListener('abort', stopNow);
      stop.abort();
    }
  }

  /** One connection's events, until it ends; throws when it cannot be opened, breaks or goes silent. */
  async *#connection(stop: AbortSignal, resumed: boolean, connected: () => void): AsyncIterable<StreamEvent> {
    if (resumed) await this.options.beforeReconnect?.();
    const connection = new AbortController();
    const abort = () => connection.abort();
    stop.addEventListener('abort', abort, { once: true });
    const silence = silenceWatch(connection, this.options.silenceMs ?? DEFAULT_SILENCE_MS);
    try {
      const headers: Record<string, string> = { ...this.headers(), accept: 'text/event-stream' };
      if (this.#lastEventId !== undefined) headers['last-event-id'] = this.#lastEventId;
      const response = await this.transport({
        method: 'GET',
        path: this.path,
        headers,
        signal: connection.signal,
        streaming: true,
      });
      if (response.status >= 400)
        throw new ApiError(response.status, errorBodyOf(response.status, await response.text()));
      connected();
      this.options.onOpen?.(resumed, this.#lastEventId);
      const pending: EventSourceMessage[] = [];
      const parser = createParser({ onEvent: (message) => pending.push(message) });
      for await (const chunk of response.chunks()) {
        silence.heard();
        parser.feed(chunk);
        while (pending.length > 0) {
          const message = pending.shift() as EventSourceMessage;
          if (message.id !== undefined) this.#lastEventId = message.id;
          yield { event: message.event ?? 'message', id: message.id, data: message.data };
        }
      }
    } catch (error) {
      throw silence.fired ? new Error(`no data for ${(this.options.silenceMs ?? DEFAULT_SILENCE_MS) / 1000} s`) : error;
    } finally {
      silence.stop();
      stop.removeEventListener('abort', abort);
      connection.abort();
    }
  }
}

/** The default of FollowOptions.shouldRetry (see there). */
export function retriedByDefault(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status >= 500 || error.status === 429 || error.kind === 'UNKNOWN_EVENT_ID';
}

/** Aborts the connection when nothing was heard for `limitMs`. */
function silenceWatch(connection: AbortController, limitMs: number) {
  let lastHeard = Date.now();
  const state = { fired: false };
  const timer =
    limitMs > 0
      ? setInterval(
          () => {
            if (Date.now() - lastHeard <= limitMs) return;
            state.fired = true;
            connection.abort();
          },
          Math.min(limitMs, 5_000),
        )
      : undefined;
  return {
    get fired() {
      return state.fired;
    },
    heard: () => {
      lastHeard = Date.now();
    },
    stop: () => clearInterval(timer),
  };
}

/** Sleeps for `ms`, or less when the signal aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
