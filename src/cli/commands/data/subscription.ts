// What `data stream` subscribes: the quote types, the body of POST /stream/subscribe, and the subscription the
// daemon answers with.

import { InvalidArgumentError } from 'commander';
import type { SubscriptionRequest } from '../../../contract/wire.js';
import { UsageError } from '../../context.js';
import { type ContractOptions, contractRef } from './flags.js';

/** What `data stream` subscribes to: the quote types of POST /stream/subscribe. */
export type StreamQuoteType = SubscriptionRequest['quote_type'];

export const QUOTE_TYPES = ['Tick', 'BidAsk', 'Quote'] as const satisfies readonly StreamQuoteType[];
export const STREAM_SECURITY_TYPES = ['STK', 'IND', 'FUT', 'OPT', 'WRT'] as const;

/** `tick`, `bid_ask` (also `bidask`, `bid-ask`, `BidAsk`) or `quote` → the API's spelling. */
export function quoteType(value: string): StreamQuoteType {
  const key = value.trim().toLowerCase().replace(/[-_]/g, '');
  const found = QUOTE_TYPES.find((type) => type.toLowerCase() === key);
  if (found === undefined) throw new InvalidArgumentError('expected one of tick, bid_ask, quote');
  return found;
}

export interface StreamOptions {
  code: string;
  quoteType?: StreamQuoteType | undefined;
  intradayOdd?: boolean | undefined;
  securityType?: (typeof STREAM_SECURITY_TYPES)[number] | undefined;
  exchange?: string | undefined;
  comboWith?: string | undefined;
}

/** The body of POST /stream/subscribe: the flat form for a product, `{contract: {legs}}` for a combo. */
export function subscribeRequest(options: StreamOptions): SubscriptionRequest {
  const quote_type = options.quoteType ?? 'Tick';
  const contract = { securityType: options.securityType, exchange: options.exchange } as ContractOptions;
  if (options.comboWith !== undefined) {
    if (options.intradayOdd === true) throw new UsageError('--intraday-odd is for stocks; a combo has no odd lots');
    return {
      contract: { legs: [contractRef(options.code, contract), contractRef(options.comboWith, contract)] },
      quote_type,
    };
  }
  return {
    ...contractRef(options.code, contract),
    quote_type,
    ...(options.intradayOdd === true ? { intraday_odd: true } : {}),
  };
}
