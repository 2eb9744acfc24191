// How `data stream` reads a subscription: which stream carries its events, which events are its own, and how an
// event reads as a row.

import type { ComboSubscription, QuoteType, Subscription } from '../../../contract/wire.js';
import { formatLine, type Row } from '../../output.js';

export type QuoteKind = 'tick' | 'bidask' | 'quote' | 'index';

/** Where a subscription's events arrive and which of them are its own. */
export interface QuoteStream {
  /** The dedicated stream, also the SSE event name: tick_stk, bidask_fop, quote_idx, ... */
  name: string;
  kind: QuoteKind;
  /** What the user sees: `2330`, `TXFR1 (TXFL6)`, `TXFR1/TXFR2`. */
  label: string;
  /** Whether an event of the stream belongs to this subscription. */
  accepts(data: Row): boolean;
}

const isCombo = (subscription: Subscription): subscription is ComboSubscription => 'contract' in subscription;

const KIND_OF: Partial<Record<QuoteType, 'tick' | 'bidask' | 'quote'>> = {
  Tick: 'tick',
  BidAsk: 'bidask',
  Quote: 'quote',
};

/**
 * The stream of a subscription, from what the daemon answered. STK and WRT: tick_stk, bidask_stk, quote_stk; IND:
 * quote_idx; FUT, OPT and combos: tick_fop, bidask_fop, quote_fop. A product's events carry its real code
 * (target_code for R1/R2), and stock ticks and bid/asks say whether they are odd lots. A combo's events carry the
 * combo's own code (`TXFR1/H6`), which the subscription does not name: any code that starts with the first leg's and
 * is not the leg's own (the leg's own events belong to a subscription of the leg).
 */
export function quoteStream(subscription: Subscription): QuoteStream {
  const kind = KIND_OF[subscription.quote_type] ?? 'tick';
  if (isCombo(subscription)) {
    const legs = subscription.contract.legs.map((leg) => leg.target_code ?? leg.code);
    const first = legs[0] ?? '';
    return {
      name: `${kind}_fop`,
      kind,
      label: legs.join('/'),
      accepts: (data) => typeof data.code === 'string' && data.code.startsWith(first) && data.code !== first,
    };
  }
  const real = subscription.target_code ?? subscription.code;
  const label = real === subscription.code ? real : `${subscription.code} (${real})`;
  const ofCode = (data: Row) => data.code === real;
  if (subscription.security_type === 'IND') return { name: 'quote_idx', kind: 'index', label, accepts: ofCode };
  const family = subscription.security_type === 'FUT' || subscription.security_type === 'OPT' ? 'fop' : 'stk';
  const odd = subscription.intraday_odd === true;
  return {
    name: `${kind}_${family}`,
    kind,
    label,
    accepts: (data) => ofCode(data) && (typeof data.intraday_odd !== 'boolean' || data.intraday_odd === odd),
  };
}

const first = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);

/** A change with its sign: `+5.0`, `-0.5`, `0`. */
function signed(value: unknown): unknown {
  if (value === null || value === undefined || value === '') return value;
  const text = String(value);
  return Number(text) > 0 && !text.startsWith('+') ? `+${text}` : text;
}

/** A percentage change with its sign and unit: `+0.48%`. */
function percent(value: unknown): unknown {
  const change = signed(value);
  return change === null || change === undefined || change === '' ? change : `${change}%`;
}

/** tick_type: 1 the buyer paid the ask (外盤), 2 the seller hit the bid (內盤). */
const SIDES: Record<string, string> = { 1: 'buy', 2: 'sell' };

function flags(data: Row): string {
  const marks = [
    data.intraday_odd === true ? 'odd' : '',
    data.simtrade === true ? 'simtrade' : '',
    data.suspend === true ? 'suspend' : '',
  ];
  return marks.filter((mark) => mark !== '').join(',');
}

/** The change of an index from its reference, and in percent, with two decimals. */
function indexChange(close: unknown, reference: unknown): [string | null, string | null] {
  const c = Number(close);
  const r = Number(reference);
  if (close === undefined || reference === undefined || !Number.isFinite(c) || !Number.isFinite(r) || r === 0) {
    return [null, null];
  }
  const change = c - r;
  return [signed(change.toFixed(2)) as string, `${signed(((change / r) * 100).toFixed(2))}%`];
}

const QUOTE_COLUMNS: Record<QuoteKind, { head: string[]; widths: number[]; cells: (data: Row) => unknown[] }> = {
  tick: {
    head: ['time', 'code', 'close', 'chg', 'pct', 'volume', 'total', 'side', ''],
    widths: [15, 10, 10, 8, 7, 7, 9, 4, 0],
    cells: (d) => [
      d.time,
      d.code,
      d.close,
      signed(d.price_chg),
      percent(d.pct_chg),
      d.volume,
      d.total_volume,
      SIDES[String(d.tick_type)] ?? '-',
      flags(d),
    ],
  },
  bidask: {
    head: ['time', 'code', 'bid', 'bid_vol', 'ask', 'ask_vol', ''],
    widths: [15, 10, 10, 7, 10, 7, 0],
    cells: (d) => [
      d.time,
      d.code,
      first(d.bid_price),
      first(d.bid_volume),
      first(d.ask_price),
      first(d.ask_volume),
      flags(d),
    ],
  },
  quote: {
    head: ['time', 'code', 'close', 'chg', 'volume', 'total', 'bid', 'bid_vol', 'ask', 'ask_vol', ''],
    widths: [15, 10, 10, 8, 7, 9, 10, 7, 10, 7, 0],
    cells: (d) => [
      d.time,
      d.code,
      d.close,
      signed(d.price_chg),
      d.volume,
      d.total_volume,
      first(d.bid_price),
      first(d.bid_volume),
      first(d.ask_price),
      first(d.ask_volume),
      flags(d),
    ],
  },
  index: {
    head: ['time', 'code', 'close', 'chg', 'pct', 'open', 'high', 'low'],
    widths: [15, 8, 10, 8, 7, 10, 10, 10],
    cells: (d) => {
      const close = d.Close ?? d.close;
      return [
        d.Time ?? d.time,
        d.code,
        close,
        ...indexChange(close, d.Reference ?? d.reference),
        d.Open ?? d.open,
        d.High ?? d.high,
        d.Low ?? d.low,
      ];
    },
  },
};

/** The header line of the readable rows of a kind of quote. */
export function formatQuoteHeader(kind: QuoteKind, color = false): string {
  const { head, widths } = QUOTE_COLUMNS[kind];
  return formatLine(head, widths, { header: true, color });
}

/** One quote event as a readable row: time, code, then what the kind of quote carries. */
export function formatQuote(kind: QuoteKind, data: Row): string {
  const { cells, widths } = QUOTE_COLUMNS[kind];
  return formatLine(cells(data), widths);
}

/** A `<name>_gap` event: the server dropped events this client was too slow to read. */
export function gapNotice(data: unknown): string {
  const dropped = (data as { dropped?: unknown } | null)?.dropped;
  return `warning: the daemon dropped ${typeof dropped === 'number' ? `${dropped} ` : ''}events this client was too slow to read`;
}
