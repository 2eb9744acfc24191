// The page's one connection to the aggregate SSE stream (/api/v1/stream/data), shared by every card: browsers allow
// only six HTTP/1.1 connections per origin. fetch (not EventSource) so the sign-in token can be sent. After a drop it
// reconnects with backoff and Last-Event-ID, and the gateway replays what was missed; subscriptions live in the
// gateway, so nothing has to be subscribed again.

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { SSE_PATHS } from '../contract/paths.js';
import { auth, errorOf, isKind, requestHeaders } from './api';

export type StreamListener = (data: unknown) => void;
export type StreamState = 'connecting' | 'live' | 'retrying' | 'stopped';

const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 15_000;
/** The gateway sends a heartbeat every 30 s; a connection silent for longer than this is dead. */
const SILENCE_LIMIT_MS = 45_000;

export class EventStream {
  state: StreamState = 'stopped';
  /** Why the last attempt failed, for the status line. */
  problem: string | null = null;
  private readonly listeners = new Map<string, Set<StreamListener>>();
  private readonly stateListeners = new Set<() => void>();
  private lastEventId: string | null = null;
  private running = false;
  private connection: AbortController | null = null;
  private retryMs = FIRST_RETRY_MS;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly url: string) {}

  on(event: string, listener: StreamListener): () => void {
    const set = this.listeners.get(event) ?? new Set();
    this.listeners.set(event, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  /** An arrow function so that React's useSyncExternalStore gets the same function on every render. */
  onStateChange = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.connect();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.retryTimer);
    this.connection?.abort();
    this.connection = null;
    this.setState('stopped');
  }

  private async connect(): Promise<void> {
    const connection = new AbortController();
    this.connection = connection;
    this.setState('connecting');
    let lastHeard = Date.now();
    const watchdog = setInterval(() => {
      if (Date.now() - lastHeard > SILENCE_LIMIT_MS) connection.abort();
    }, 5_000);
    try {
      const headers = { ...requestHeaders(), Accept: 'text/event-stream' };
      if (this.lastEventId) Object.assign(headers, { 'Last-Event-ID': this.lastEventId });
      const response = await fetch(this.url, { headers, signal: connection.signal, cache: 'no-store' });
      if (!response.ok || !response.body) {
        if (this.connection === connection) await this.refused(response);
        return;
      }
      this.problem = null;
      this.setState('live');
      const parser = createParser({ onEvent: (message) => this.dispatch(message) });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        lastHeard = Date.now();
        this.retryMs = FIRST_RETRY_MS;
        parser.feed(value);
      }
      this.problem = 'the gateway closed the stream';
    } catch (error) {
      if (!connection.signal.aborted) this.problem = error instanceof Error ? error.message : String(error);
      else if (this.running) this.problem = 'no heartbeat for 45 s';
    } finally {
      clearInterval(watchdog);
    }
    // A stopped (or restarted) stream has moved on to another connection, or to none.
    if (this.connection === connection) this.retryLater();
  }

  private async refused(response: Response): Promise<void> {
    const answer = errorOf(response.status, await response.text());
    const { message } = answer;
    if (isKind(answer, 'UNAUTHORIZED')) {
      auth.refused();
      this.problem = message;
      this.running = false;
      this.setState('stopped');
      return;
    }
    // A gateway that restarted does not know the old id: start again from now.
    if (isKind(answer, 'UNKNOWN_EVENT_ID')) this.lastEventId = null;
    this.problem = message;
    this.retryLater();
  }

  private retryLater(): void {
    if (!this.running) return;
    this.setState('retrying');
    this.retryTimer = setTimeout(() => void this.connect(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
  }

  private dispatch(message: EventSourceMessage): void {
    if (message.id) this.lastEventId = message.id;
    const listeners = this.listeners.get(message.event ?? 'message');
    if (!listeners || listeners.size === 0) return;
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch {
      return;
    }
    for (const listener of listeners) listener(data);
  }

  private setState(state: StreamState): void {
    if (this.state === state) return;
    this.state = state;
    for (const listener of this.stateListeners) listener();
  }
}

export const marketStream = new EventStream(SSE_PATHS.data);
