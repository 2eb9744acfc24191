import { rateBins } from '../../src/broker/sim/market/activity.js';
import type { ForwardDay } from '../../src/broker/sim/market/forward-tape.js';
import { STOCK_TICKS } from '../../src/domain/ticks.js';

const HOUR = 3_600_000;

/**
 * A four-hour always-open style day from epoch 0, trading evenly around a flat 100 on the stock tick grid, far from
 * its limits: some 130 trades per 200 lots.
 */
export function flatForwardDay(changes: Partial<ForwardDay> = {}): ForwardDay {
  return {
    code: 'X',
    day: '2026-11-20',
    keys: ['flat'],
    volume: 200,
    meanTrade: 1.5,
    bins: rateBins([{ start: 0, end: 4 * HOUR }], () => 1),
    closeAtMs: 4 * HOUR,
    closingVolume: 1,
    closePrice: 100,
    shareAt: (ms) => ms / (4 * HOUR),
    trendAt: () => Math.log(100),
    volatility: 0.02,
    rules: { ticks: STOCK_TICKS, limitUp: 110, limitDown: 90 },
    amountUnit: 1000,
    quoteShape: () => ({ spreadChanceAt: () => 0, bestDepthScale: 1 }),
    ...changes,
  };
}
