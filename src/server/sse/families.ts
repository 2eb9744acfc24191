// The event families of the SSE streams, and which families each stream path carries.

import { MARKET_EVENT_NAMES, type MarketEventName } from '../../domain/quotes.js';

export const STREAM_FAMILIES = [...MARKET_EVENT_NAMES, 'order_event', 'session', 'contract_event'] as const;
export type StreamFamily = (typeof STREAM_FAMILIES)[number];

/** The dedicated streams under /api/v1/stream/data/<name> that the hub serves (contract_event has its own route). */
export const DEDICATED_STREAMS = [...MARKET_EVENT_NAMES, 'order_event'] as const;
export type DedicatedStream = (typeof DEDICATED_STREAMS)[number];

/** Every stream name /api/v1/stream/status counts: `data` is the aggregate. */
export const STREAM_NAMES = ['data', ...DEDICATED_STREAMS, 'contract_event'] as const;
export type StreamName = (typeof STREAM_NAMES)[number];

export const isMarketFamily = (family: StreamFamily): family is MarketEventName =>
  (MARKET_EVENT_NAMES as readonly string[]).includes(family);

const FAMILIES_OF = new Map<'data' | DedicatedStream, ReadonlySet<StreamFamily>>();

/**
 * A dedicated market stream also carries the session events (subscribe acks), as the SDK's on_event does. One set per
 * stream, the same object for all its clients (the fan-out shares a turn's bytes among the clients of a set).
 */
export function familiesOf(stream: 'data' | DedicatedStream): ReadonlySet<StreamFamily> {
  let families = FAMILIES_OF.get(stream);
  if (!families) {
    const members: StreamFamily[] =
      stream === 'data' ? [...STREAM_FAMILIES] : stream === 'order_event' ? ['order_event'] : [stream, 'session'];
    families = new Set(members);
    FAMILIES_OF.set(stream, families);
  }
  return families;
}
