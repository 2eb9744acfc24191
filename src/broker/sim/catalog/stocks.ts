// StockInfo for listed stocks and ETFs on a contract day.

import type { StockInfo } from '../../../domain/contracts.js';
import { ETF_TICKS, percentLimits, STOCK_TICKS, UNLIMITED } from '../../../domain/ticks.js';
import { unitOf } from '../random.js';
import type { ListedSecurity } from './listed-securities.js';

/** Daily regulatory state of a stock: attention and disposition, drawn per seed and day. */
export interface RegulatoryState {
  attention: boolean;
  dispositionLevel: 0 | 1 | 2;
}

export function regulatoryState(seed: number, security: ListedSecurity, contractDay: string): RegulatoryState {
  if (security.kind === 'etf') return { attention: false, dispositionLevel: 0 };
  // Disposition lasts 10 business days; draw it per two-week block so it persists like the real measure.
  const block = Math.floor(Date.parse(contractDay) / (14 * 86400_000));
  const disposition = unitOf(seed, 'disposition', security.code, block);
  const dispositionLevel = disposition < 0.01 ? 2 : disposition < 0.03 ? 1 : 0;
  const attention = dispositionLevel > 0 || unitOf(seed, 'attention', security.code, contractDay) < 0.04;
  return { attention, dispositionLevel };
}

export function tickTableOf(security: Pick<ListedSecurity, 'kind'>) {
  return security.kind === 'etf' ? ETF_TICKS : STOCK_TICKS;
}

function limitsOf(security: ListedSecurity, reference: number) {
  if (security.foreignComponents) return UNLIMITED;
  return percentLimits(tickTableOf(security), reference, 0.1 * Math.abs(security.leverage ?? 1));
}

const DISPOSITION_TERMS = {
  1: { interval: 5, singleLots: 10, totalLots: 30, prepay: 1 },
  2: { interval: 20, singleLots: 5, totalLots: 10, prepay: 1 },
} as const;

export function stockInfo(security: ListedSecurity, reference: number, contractDay: string, seed: number): StockInfo {
  const { limitUp, limitDown } = limitsOf(security, reference);
  const regulatory = regulatoryState(seed, security, contractDay);
  const terms = regulatory.dispositionLevel === 0 ? null : DISPOSITION_TERMS[regulatory.dispositionLevel];
  const marginable = security.marginable && regulatory.dispositionLevel < 2 && !security.bondEtf;
  const draw = (what: string) => unitOf(seed, what, security.code, contractDay);
  const quotaLots = Math.round(security.avgVolumeLots * (2 + 6 * unitOf(seed, 'quota', security.code)));
  return {
    security_type: 'STK',
    region: 'TW',
    exchange: security.exchange,
    code: security.code,
    target_code: null,
    name: security.name,
    category: security.category,
    currency: 'TWD',
    unit: 1000,
    day_trade: regulatory.dispositionLevel === 2 ? 'No' : security.dayTrade,
    reference,
    limit_up: limitUp,
    limit_down: limitDown,
    margin_trading_balance: marginable ? Math.round(quotaLots * (0.1 + 0.5 * draw('margin-balance'))) : 0,
    short_selling_balance: marginable ? Math.round(quotaLots * 0.08 * draw('short-balance')) : 0,
    trading_suspended: false,
    margin_loan_ratio: marginable ? (security.exchange === 'TSE' ? 60 : 50) : 0,
    margin_quota_lots: marginable ? quotaLots : 0,
    short_margin_ratio: marginable ? 90 : 0,
    short_quota_lots: marginable ? quotaLots : 0,
    margin_shortable: marginable,
    sbl_shortable: security.etfConstituent || security.kind === 'etf' || security.avgVolumeLots >= 20_000,
    below_ref_shortable: security.etfConstituent || security.kind === 'etf',
    disposition_level: regulatory.dispositionLevel,
    attention_flag: regulatory.attention,
    etf_constituent: security.etfConstituent,
    settlement_type: terms ? 'Prepaid' : 'T+2',
    disposition_match_interval_min: terms?.interval ?? null,
    disposition_max_lots_single_order: terms?.singleLots ?? null,
    disposition_max_lots_total_orders: terms?.totalLots ?? null,
    disposition_prepay_ratio: terms?.prepay ?? null,
    update_date: contractDay,
  };
}
