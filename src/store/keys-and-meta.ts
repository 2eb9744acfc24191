// The two small tables of the gateway's own bookkeeping: the clients' idempotency keys and named values.
import type { Connection } from './connection.js';

export class IdempotencyKeys {
  constructor(private readonly connection: Connection) {}

  /**
   * Maps a client's idempotency key to the order it placed and the request that placed it (compared with a retry's;
   * null when unknown); the first order remembered for a key stays.
   */
  remember(key: string, orderId: string, at: number, request: string | null = null): void {
    this.connection.guarded(({ rememberIdempotencyKey }) => rememberIdempotencyKey.run({ key, orderId, at, request }));
  }

  orderFor(key: string): { orderId: string; request: string | null } | undefined {
    return this.connection.guarded(({ orderForIdempotencyKey }) => orderForIdempotencyKey.get(key));
  }
}

/** Values kept by name, such as a venue's own state. */
export class MetaValues {
  constructor(private readonly connection: Connection) {}

  get(name: string): string | undefined {
    return this.connection.guarded(({ getMeta }) => getMeta.get(name));
  }

  set(name: string, value: string): void {
    this.connection.guarded(({ setMeta }) => setMeta.run({ name, value }));
  }
}
