// Which stocks and ETFs have stock futures in the simulator, and their product codes (docs/listing.md, "Stock
// futures"). TAIFEX lists stock futures on some 290 stocks and two dozen ETFs: listed companies large and active
// enough (market value, turnover, a wide shareholder base). The simulator takes the listing's most traded names by
// value as that set. A product's code is TAIFEX's three letters where known; otherwise four letters spelled from the
// underlying's code, which no TAIFEX product code (always three characters) can equal.

import type { ListedSecurity } from './listed-securities.js';

/** Stocks with stock futures: the most traded by value, as TAIFEX's list holds some 290 stock futures products. */
export const STOCK_FUTURES_STOCKS = 180;
/** Domestic equity ETFs with ETF futures: TAIFEX lists about two dozen. */
export const ETF_FUTURES_ETFS = 20;

/**
 * TAIFEX's code letters of standard stock futures, by underlying: those found in public copies of TAIFEX's stock
 * futures margin table (股票期貨契約保證金一覽表) and list of underlyings (股票期貨及選擇權交易標的).
 */
export const KNOWN_STOCK_FUTURES_ROOTS: ReadonlyMap<string, string> = new Map([
  ['0050', 'NYF'],
  ['1101', 'DFF'],
  ['1102', 'DYF'],
  ['1301', 'CFF'],
  ['1303', 'CAF'],
  ['1402', 'CRF'],
  ['1802', 'KUF'],
  ['2059', 'FGF'],
  ['2303', 'CCF'],
  ['2308', 'FRF'],
  ['2317', 'DHF'],
  ['2327', 'LXF'],
  ['2330', 'CDF'],
  ['2337', 'DIF'],
  ['2344', 'FZF'],
  ['2367', 'VBF'],
  ['2383', 'PJF'],
  ['2408', 'CYF'],
  ['2454', 'DVF'],
  ['2603', 'CZF'],
  ['3037', 'IRF'],
  ['3081', 'OTF'],
  ['3105', 'NAF'],
  ['3189', 'IXF'],
  ['3231', 'DXF'],
  ['3443', 'JBF'],
  ['3481', 'DQF'],
  ['3653', 'JMF'],
  ['3665', 'VEF'],
  ['3673', 'JNF'],
  ['3711', 'OZF'],
  ['4958', 'LUF'],
  ['6147', 'NSF'],
  ['6213', 'KBF'],
  ['6223', 'UVF'],
  ['6239', 'KCF'],
  ['6274', 'OVF'],
  ['6510', 'OXF'],
  ['6669', 'PVF'],
  ['6770', 'QZF'],
  ['8046', 'LYF'],
  ['8358', 'PQF'],
]);

/** NT$ traded on a typical day, in thousands: what the selection ranks by. */
const turnover = (security: ListedSecurity): number => security.close * security.avgVolumeLots;

/** An ETF that can have ETF futures: domestic equity, not leveraged or inverse, a code of digits only. */
function futuresEligibleEtf(security: ListedSecurity): boolean {
  return (
    security.kind === 'etf' &&
    /^\d+$/.test(security.code) &&
    !security.leverage &&
    !security.foreignComponents &&
    !security.bondEtf
  );
}

/** A common stock (four-digit code; depositary receipts and preferred shares have longer ones). */
const futuresEligibleStock = (security: ListedSecurity): boolean =>
  security.kind === 'stock' && /^\d{4}$/.test(security.code);

/**
 * The underlyings of stock futures, in code order: the STOCK_FUTURES_STOCKS stocks and ETF_FUTURES_ETFS ETFs with
 * the largest turnover, and every listed underlying whose TAIFEX code is known.
 */
export function stockFuturesUnderlyings(securities: readonly ListedSecurity[]): ListedSecurity[] {
  const top = (eligible: (s: ListedSecurity) => boolean, count: number) =>
    securities
      .filter(eligible)
      .sort((a, b) => turnover(b) - turnover(a) || a.code.localeCompare(b.code))
      .slice(0, count);
  const chosen = new Map<string, ListedSecurity>();
  for (const security of [
    ...top(futuresEligibleStock, STOCK_FUTURES_STOCKS),
    ...top(futuresEligibleEtf, ETF_FUTURES_ETFS),
    ...securities.filter((s) => KNOWN_STOCK_FUTURES_ROOTS.has(s.code)),
  ]) {
    chosen.set(security.code, security);
  }
  return [...chosen.values()].sort((a, b) => a.code.localeCompare(b.code));
}

/** Contracts a day of the busiest stock futures (TSMC's): the others trade fewer, by their underlying's turnover. */
const BUSIEST_STOCK_FUTURES_VOLUME = 4_000;
const BUSIEST_TURNOVER_CODE = '2330';

/**
 * The typical daily contracts of a stock future: BUSIEST_STOCK_FUTURES_VOLUME times the square root of its
 * underlying's turnover over TSMC's, so a stock trading a hundredth of TSMC's value has futures trading a tenth.
 */
export function typicalStockFuturesVolume(underlying: ListedSecurity, securities: ReadonlyMap<string, ListedSecurity>) {
  const busiest = securities.get(BUSIEST_TURNOVER_CODE);
  const share = busiest ? Math.min(1, turnover(underlying) / turnover(busiest)) : 1;
  return Math.max(1, Math.round(BUSIEST_STOCK_FUTURES_VOLUME * Math.sqrt(share)));
}

/** Digit d as the d-th letter: 0 is A, 9 is J. */
const lettersOf = (digits: string): string =>
  Array.from(digits, (digit) => String.fromCharCode(65 + Number(digit))).join('');

/**
 * The product code of an underlying's stock futures: TAIFEX's where known; else four letters, a stock's code spelled
 * digit by digit (2881 is CIIB) and an ETF's Z and its last three digits (00878 is ZIHI).
 */
export function stockFuturesRoot(security: ListedSecurity): string {
  const known = KNOWN_STOCK_FUTURES_ROOTS.get(security.code);
  if (known) return known;
  return security.kind === 'etf' ? `Z${lettersOf(security.code.slice(-3))}` : lettersOf(security.code);
}
