// The order events in the order they happened, each with a seq that is never handed out twice.
import type { Connection } from './connection.js';
import { type EventFilter, eventFromRow, type StoredEvent, toJson } from './records.js';

export class EventLog {
  constructor(private readonly connection: Connection) {}

  /** Returns the event's seq. */
  append(event: Omit<StoredEvent, 'seq'>): number {
    const { at, kind, accountKey } = event;
    const row = { at, kind, accountKey, payload: toJson(event.payload) };
    const result = this.connection.guarded(({ appendEvent }) => appendEvent.run(row));
    return Number(result.lastInsertRowid);
  }

  /** Events with a seq above `seq`, in seq order. */
  after(seq: number, filter: EventFilter = {}): StoredEvent[] {
    const limit = filter.limit ?? -1;
    const rows = this.connection.guarded(({ eventsAfter, accountEventsAfter }) =>
      filter.accountKeys === undefined
        ? eventsAfter.all({ seq, limit })
        : accountEventsAfter.all({ seq, limit, accountKeys: JSON.stringify(filter.accountKeys) }),
    );
    return rows.map(eventFromRow);
  }

  /** The highest seq ever handed out (0 before the first event), even if that event is gone. */
  lastSeq(): number {
    return this.connection.guarded(({ lastEventSeq }) => lastEventSeq.get()) ?? 0;
  }
}
