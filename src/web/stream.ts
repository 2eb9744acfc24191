// The page's one connection to the aggregate SSE stream (/api/v1/stream/data), shared by every card: browsers allow
// only six HTTP/1.1 connections per origin. The client's event subscription (fetch, not EventSource, so the sign-in
// token can be sent) reconnects with backoff and Last-Event-ID, and the gateway replays what was missed;
// subscriptions live in the gateway, so nothing has to be subscribed again.

import { SSE_PATHS } from '../contract/paths.js';
import { ApiError, client, isKind } from './api';

export type StreamListener = (data: unknown) => void;
export type StreamState = 'connecting' | 'live' | 'retrying' | 'stopped';

export class EventStream {
  state: StreamState = 'stopped';
  /** Why the last attempt failed, for the status line. */
  problem: string | null = null;
  private readonly listeners = new Map<string, Set<StreamListener>>();
  private readonly stateListeners = new Set<() => void>();
  private lastEventId: string | undefined;
  private connection: AbortController | null = null;

  constructor(private readonly path: string) {}

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
    if (this.connection !== null) return;
    const connection = new AbortController();
    this.connection = connection;
    void this.follow(connection);
  }

  stop(): void {
    this.connection?.abort();
    this.connection = null;
    this.setState('stopped');
  }

  private async follow(connection: AbortController): Promise<void> {
    this.setState('connecting');
    const stream = client.events.follow(this.path, {
      signal: connection.signal,
      lastEventId: this.lastEventId,
      onOpen: () => {
        this.problem = null;
        this.setState('live');
      },
      onDrop: (reason) => {
        this.problem = reason.message;
        this.setState('retrying');
      },
      // Only a refused sign-in stops it (the client has asked for sign-in by then); a gateway that restarted and
      // does not know the last id is followed again from now.
      shouldRetry: (error) => !(error instanceof ApiError && isKind(error, 'UNAUTHORIZED')),
    });
    try {
      for await (const message of stream) {
        this.lastEventId = message.id ?? this.lastEventId;
        this.dispatch(message.event, message.data);
      }
    } catch (error) {
      this.problem = error instanceof Error ? error.message : String(error);
    }
    // A stopped (or restarted) stream has moved on to another connection, or to none.
    if (this.connection !== connection) return;
    this.connection = null;
    this.setState('stopped');
  }

  private dispatch(event: string, text: string): void {
    const listeners = this.listeners.get(event);
    if (!listeners || listeners.size === 0) return;
    let data: unknown;
    try {
      data = JSON.parse(text);
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
