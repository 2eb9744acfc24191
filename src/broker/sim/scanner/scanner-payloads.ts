// The wire payloads of the `scanner` SSE event: a rule's signal {scanner, region, security_type, exchange, quote,
// extra} and a state's quote {scanners, region, security_type, exchange, quote}. As in the other derived streams of
// 1.7.1 (kbar, calculated_index), prices, changes and amounts are JSON numbers and `date` is YYYY/MM/DD; `quote` is
// the stock's day so far at the moment of the signal (the official server's names: amount_sum, vol_sum, diff_price).

import { CHANGE_TYPE_NUMBERS, changeTypeOf } from '../../../domain/market-data.js';
import type { BookTop, ScannerExchange, ScannerRule, ScannerState } from '../../../domain/scanner-rules.js';
import { taipeiDateTime } from '../market/history.js';
import type { DayState } from '../quotes/day-state.js';
import { rounded, slashedDate } from '../quotes/payloads.js';
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
    date: slashedDate(datetime.slice(0, 10)),
    time: datetime.slice(11),
    open: rounded(state.open),
    high: rounded(state.high),
    low: rounded(state.low),
    close: rounded(close),
    avg_price: rounded(state.averagePrice),
    amount: Math.round(state.last.amount),
    amount_sum: Math.round(state.amount),
    volume: state.last.volume,
    vol_sum: state.volume,
    tick_type: state.last.tickType,
    chg_type: traded ? CHANGE_TYPE_NUMBERS[changeTypeOf(close, stock.reference, stock.limits)] : 3,
    diff_price: rounded(change),
    diff_rate: stock.reference && traded ? rounded((change / stock.reference) * 100) : 0,
    reference: rounded(stock.reference),
    limit_up: rounded(stock.limits.up),
    limit_down: rounded(stock.limits.down),
    bid_price: rounded(top.bid),
    ask_price: rounded(top.ask),
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
        previous_best_price: extra.previous_best_price === null ? null : rounded(extra.previous_best_price),
        trigger_price: rounded(extra.trigger_price),
        limit_price: rounded(extra.limit_price),
      };
    case 'price_move':
      return {
        reference_time: wireTime(extra.reference.timeUs),
        reference_price: rounded(extra.reference.price),
        change_price: rounded(extra.change_price),
        change_percent: rounded(extra.change_percent),
        tick_change: extra.tick_change,
        elapsed_ms: extra.elapsed_ms,
      };
    case 'volume':
      return {
        amount: Math.round(extra.amount),
        volume: extra.volume,
        price: rounded(extra.price),
        threshold: extra.threshold,
      };
  }
}
