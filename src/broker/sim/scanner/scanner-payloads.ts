// The wire payloads of the `scanner` SSE event: a rule's signal {scanner, region, security_type, exchange, quote,
// extra} and a state's quote {scanners, region, security_type, exchange, quote}. Prices and amounts are decimal
// strings, volumes and counts numbers, as in the other quote families; `quote` is the stock's day so far at the
// moment of the signal (the official server's names: amount_sum, vol_sum, diff_price, ...).

import { CHANGE_TYPE_NUMBERS, changeTypeOf } from '../../../domain/market-data.js';
import type { BookTop, ScannerExchange, ScannerRule, ScannerState } from '../../../domain/scanner-rules.js';
import { taipeiDateTime } from '../market/history.js';
import type { DayState } from '../quotes/day-state.js';
import { decimal, money } from '../quotes/payloads.js';
import type { ScanSignal } from './stock-scan.js';

type Payload = Record<string, unknown>;

export interface ScannedStock {
  code: string;
  reference: number;
  limits: { up: number; down: number };
  suspend: boolean;
}

const wireTime = (epochUs: number) => taipeiDateTime(epochUs).slice(11);

/** The stock's quote at `timeUs`: the day so far (state), the book top, and whether it is a trial match. */
export function scannerQuote(
  stock: ScannedStock,
  state: DayState,
  top: BookTop,
  timeUs: number,
  simtrade: boolean,
): Payload {
  const datetime = taipeiDateTime(timeUs);
  const traded = state.count > 0;
  const close = traded ? state.close : 0;
  const change = traded ? close - stock.reference : 0;
  return {
    code: stock.code,
    date: datetime.slice(0, 10),
    time: datetime.slice(11),
    open: decimal(state.open),
    high: decimal(state.high),
    low: decimal(state.low),
    close: decimal(close),
    avg_price: decimal(state.averagePrice, 2),
    amount: money(state.last.amount),
    amount_sum: money(state.amount),
    volume: state.last.volume,
    vol_sum: state.volume,
    tick_type: state.last.tickType,
    chg_type: traded ? CHANGE_TYPE_NUMBERS[changeTypeOf(close, stock.reference, stock.limits)] : 3,
    diff_price: decimal(change),
    diff_rate: stock.reference && traded ? decimal((change / stock.reference) * 100, 2) : '0',
    reference: decimal(stock.reference),
    limit_up: decimal(stock.limits.up),
    limit_down: decimal(stock.limits.down),
    bid_price: decimal(top.bid),
    ask_price: decimal(top.ask),
    suspend: stock.suspend,
    simtrade,
  };
}

const scope = (exchange: ScannerExchange) => ({ region: 'TW', security_type: 'STK', exchange });

export function signalPayload(exchange: ScannerExchange, quote: Payload, signal: ScanSignal): Payload {
  return { scanner: signal.rule satisfies ScannerRule, ...scope(exchange), quote, extra: extraOf(signal) };
}

export function statePayload(exchange: ScannerExchange, scanners: ScannerState[], quote: Payload): Payload {
  return { scanners, ...scope(exchange), quote };
}

function extraOf({ extra }: ScanSignal): Payload {
  switch (extra.family) {
    case 'limit':
      return {
        previous_best_price: extra.previous_best_price === null ? null : decimal(extra.previous_best_price),
        trigger_price: decimal(extra.trigger_price),
        limit_price: decimal(extra.limit_price),
      };
    case 'price_move':
      return {
        reference_time: wireTime(extra.reference.timeUs),
        reference_price: decimal(extra.reference.price),
        change_price: decimal(extra.change_price),
        change_percent: decimal(extra.change_percent, 2),
        tick_change: extra.tick_change,
        elapsed_ms: extra.elapsed_ms,
      };
    case 'volume':
      return {
        amount: Math.round(extra.amount),
        volume: extra.volume,
        price: decimal(extra.price),
        threshold: extra.threshold,
      };
  }
}
