// Which session an order meets at an instant, per clock mode, market and lot kind. In always-open mode the market
// trades continuously at any hour. In exchange mode the TWSE/TPEx and TAIFEX trading hours apply (see src/domain/sessions.ts); an order
// placed while its market is closed is a reservation (PreSubmitted) released when order entry opens.

import { nextTradingDay, tradingDayOnOrAfter } from '../../../domain/calendar.js';
import type { SessionPhase } from '../../../domain/order-rules.js';
import type { StockOrderLot } from '../../../domain/orders.js';
import { type ClockMode, type MarketKind, sessionDayAt, tradingSession } from '../../../domain/sessions.js';
import { taipeiDate, taipeiInstant } from '../../../domain/time.js';

interface Window {
  start: number;
  end: number;
  phase: SessionPhase;
}

const at = taipeiInstant;

/** The order-entry windows of a trading day for a kind of order, in time order. */
function windows(mode: ClockMode, market: MarketKind, lot: StockOrderLot | null, day: string): Window[] {
  const session = tradingSession(mode, market, day);
  if (mode === 'always-open') return session.continuous.map((i) => ({ ...i, phase: 'continuous' as const }));
  if (market === 'futures') {
    const [night, dayPart] = session.continuous;
    return [
      { start: night!.start - 600_000, end: night!.start, phase: 'pre-open' },
      { ...night!, phase: 'continuous' },
      { start: at(day, '08:30'), end: dayPart!.start, phase: 'pre-open' },
      { ...dayPart!, phase: 'continuous' },
    ];
  }
  if (lot === 'Fixing' || lot === 'Odd')
    return [{ start: at(day, '14:00'), end: at(day, '14:30'), phase: 'after-hours' }];
  if (lot === 'IntradayOdd') return [{ start: at(day, '09:00'), end: at(day, '13:30'), phase: 'continuous' }];
  return [
    { start: at(day, '08:30'), end: at(day, '09:00'), phase: 'pre-open' },
    { start: at(day, '09:00'), end: at(day, '13:25'), phase: 'continuous' },
    { start: at(day, '13:25'), end: at(day, '13:30'), phase: 'closing-auction' },
  ];
}

/** The phase an order meets now: 'closed' outside every window of its kind. */
export function phaseAt(mode: ClockMode, market: MarketKind, lot: StockOrderLot | null, epochMs: number): SessionPhase {
  const day = sessionDayAt(market, epochMs);
  for (const candidate of [day, nextTradingDay(day)]) {
    const found = windows(mode, market, lot, candidate).find((w) => epochMs >= w.start && epochMs < w.end);
    if (found) return found.phase;
  }
  return 'closed';
}

/** When a reservation placed at an instant is released: the start of the next window of its kind. */
export function nextOpening(mode: ClockMode, market: MarketKind, lot: StockOrderLot | null, epochMs: number): number {
  let day = tradingDayOnOrAfter(taipeiDate(epochMs - 86400_000));
  for (let i = 0; i < 10; i++) {
    const next = windows(mode, market, lot, day).find((w) => w.start > epochMs);
    if (next) return next.start;
    day = nextTradingDay(day);
  }
  throw new Error(`no session opens within 10 trading days of ${new Date(epochMs).toISOString()}`);
}
