// Warrants on the most traded stocks and ETFs: a fixed issuance schedule, so the same warrant keeps its code and
// terms from listing to expiry, and the listing on any day is what was issued and has not expired.
//
// Two sets of underlyings, each with its own code space so that no code ever changes meaning: the original popular
// ones (WARRANT_UNDERLYINGS, whose codes journals may already hold) and those that follow from the whole listing
// (DERIVED_WARRANT_UNDERLYINGS, docs/listing.md).

import { nextTradingDay, previousTradingDay, tradingDayOnOrAfter } from '../../../domain/calendar.js';
import type { OptionRight, WarrantInfo } from '../../../domain/contracts.js';
import { black76 } from '../../../domain/option-pricing.js';
import { percentLimits, roundDownToTick, roundToTick, roundUpToTick, WARRANT_TICKS } from '../../../domain/ticks.js';
import { addDays, addMonths, daysBetween, yearMonthOf } from '../../../domain/time.js';
import { unitsOf } from '../random.js';
import type { ListedSecurity } from './listed-securities.js';
import type { ReferencePrices } from './references.js';
import { tickTableOf } from './stocks.js';

export const WARRANT_UNDERLYINGS = [
  '2330',
  '2317',
  '2454',
  '2303',
  '2603',
  '3231',
  '2382',
  '3711',
  '2308',
  '2881',
  '3481',
  '6488',
  '5347',
];

const ISSUERS = [
  ['元大', '元大證券'],
  ['凱基', '凱基證券'],
  ['群益', '群益金鼎證券'],
  ['統一', '統一綜合證券'],
  ['永豐', '永豐金證券'],
  ['富邦', '富邦綜合證券'],
  ['國票', '國票綜合證券'],
  ['元富', '元富證券'],
] as const;

/** How many of the most traded securities by value of each exchange, besides the original ones, carry warrants. */
export const DERIVED_WARRANT_UNDERLYINGS = { TSE: 150, OTC: 50 } as const;

const ISSUES_PER_MONTH = 3;
const MONTHS_BACK = 10;
const WARRANT_VOLATILITY = 0.4;
const LOWEST_PRICE = WARRANT_TICKS[0]!.tick;

interface Underlying {
  security: ListedSecurity;
  /** Its place in its set: the original list, or the derived ones of its exchange. */
  index: number;
  derived: boolean;
}

interface Issue {
  underlying: ListedSecurity;
  underlyingIndex: number;
  derived: boolean;
  yearMonth: string;
  sequence: number;
}

const monthNumber = (yearMonth: string) => Number(yearMonth.slice(0, 4)) * 12 + Number(yearMonth.slice(4, 6)) - 1;

/** TWSE calls 03xxxx-08xxxx, puts 0xxxxP; TPEx calls 7xxxxx, puts 7xxxxP. Unique over 100 months of issues. */
function warrantCode(issue: Issue, right: OptionRight): string {
  if (issue.derived) return derivedWarrantCode(issue, right);
  const month = monthNumber(issue.yearMonth);
  const lead = issue.underlying.exchange === 'TSE' ? '0' : '7';
  const prefix = issue.underlying.exchange === 'TSE' ? 3 + (Math.floor(month / 100) % 6) : Math.floor(month / 100) % 4;
  if (right === 'C') {
    const serial = (month % 100) * 40 + issue.underlyingIndex * ISSUES_PER_MONTH + issue.sequence;
    return `${lead}${prefix}${String(serial).padStart(4, '0')}`;
  }
  const serial = (month % 60) * 16 + issue.underlyingIndex;
  return `${lead}${prefix}${String(serial).padStart(3, '0')}P`;
}

/**
 * The derived underlyings' codes use the prefix digits the original scheme leaves free from 2017 to 2041 (it takes
 * 5, 6 and 7 on TWSE, 0, 2 and 3 on TPEx there), numbered month after month: calls stay unique over 66 months and
 * puts over 20, longer than any warrant lives.
 */
function derivedWarrantCode(issue: Issue, right: OptionRight): string {
  const tse = issue.underlying.exchange === 'TSE';
  const prefixes = tse ? [3, 4, 8] : [1];
  const count = DERIVED_WARRANT_UNDERLYINGS[issue.underlying.exchange];
  const month = monthNumber(issue.yearMonth);
  const [span, digits, issues] = right === 'C' ? [10_000, 4, ISSUES_PER_MONTH] : [1000, 3, 1];
  const slot = right === 'C' ? issue.underlyingIndex * ISSUES_PER_MONTH + issue.sequence : issue.underlyingIndex;
  const serial = (month * count * issues + slot) % (span * prefixes.length);
  const code = `${tse ? '0' : '7'}${prefixes[Math.floor(serial / span)]}${String(serial % span).padStart(digits, '0')}`;
  return right === 'C' ? code : `${code}P`;
}

interface Terms {
  code: string;
  right: OptionRight;
  issuer: (typeof ISSUERS)[number];
  strike: number;
  ratio: number;
  listingDate: string;
  expiryDate: string;
  lastTradingDate: string;
  american: boolean;
  issueSize: number;
}

/** Terms do not change from day to day: each issue's are drawn once (about 640 new issues a simulated month). */
const TERMS = new Map<string, Terms>();

function termsOf(issue: Issue): Terms {
  const key = `${issue.underlying.code}|${issue.yearMonth}|${issue.sequence}`;
  const kept = TERMS.get(key);
  if (kept) return kept;
  const terms = drawTerms(issue);
  TERMS.set(key, terms);
  return terms;
}

function drawTerms(issue: Issue): Terms {
  const draw = unitsOf('warrant', issue.underlying.code, issue.yearMonth, issue.sequence);
  const right: OptionRight = issue.sequence === ISSUES_PER_MONTH - 1 ? 'P' : 'C';
  const spot = issue.underlying.close;
  const moneyness = right === 'C' ? 0.9 + 0.4 * draw('strike') : 0.7 + 0.4 * draw('strike');
  const first = `${issue.yearMonth.slice(0, 4)}-${issue.yearMonth.slice(4, 6)}-01`;
  const listingDate = tradingDayOnOrAfter(addDays(first, Math.floor(25 * draw('listing'))));
  const expiryDate = tradingDayOnOrAfter(addDays(listingDate, 120 + Math.floor(180 * draw('tenor'))));
  return {
    code: warrantCode(issue, right),
    right,
    issuer: ISSUERS[Math.floor(draw('issuer') * ISSUERS.length)]!,
    strike: roundToTick(tickTableOf(issue.underlying), spot * moneyness),
    ratio: Math.max(0.001, Math.round(((0.5 + 2.5 * draw('ratio')) / (0.1 * spot)) * 1000) / 1000),
    listingDate,
    expiryDate,
    lastTradingDate: previousTradingDay(previousTradingDay(expiryDate)),
    american: draw('style') < 0.2,
    issueSize: (5 + Math.floor(25 * draw('size'))) * 1_000_000,
  };
}

/** Warrant price limits follow the underlying's limit move times the exercise ratio. */
function warrantLimits(terms: Terms, reference: number, underlying: ListedSecurity, underlyingReference: number) {
  const { limitUp, limitDown } = percentLimits(tickTableOf(underlying), underlyingReference, 0.1);
  const upMove = (limitUp - underlyingReference) * terms.ratio;
  const downMove = (underlyingReference - limitDown) * terms.ratio;
  const [rise, fall] = terms.right === 'C' ? [upMove, downMove] : [downMove, upMove];
  return {
    limitUp: roundDownToTick(WARRANT_TICKS, reference + rise),
    limitDown: Math.max(roundUpToTick(WARRANT_TICKS, reference - fall), LOWEST_PRICE),
  };
}

function warrantInfo(
  issue: Issue,
  terms: Terms,
  contractDay: string,
  underlyingReference: number,
  prices: ReferencePrices,
): WarrantInfo {
  const years = (daysBetween(contractDay, terms.expiryDate) + 1) / 365;
  const theoretical =
    black76({
      underlying: underlyingReference,
      strike: terms.strike,
      years,
      volatility: WARRANT_VOLATILITY,
      right: terms.right,
    }) * terms.ratio;
  const theoreticalReference = Math.max(roundToTick(WARRANT_TICKS, theoretical), LOWEST_PRICE);
  const limitsAround = (reference: number) => {
    const { limitUp, limitDown } = warrantLimits(terms, reference, issue.underlying, underlyingReference);
    return { limit_up: limitUp, limit_down: limitDown };
  };
  const rocYear = Number(issue.yearMonth.slice(0, 4)) - 1911;
  const month = Number(issue.yearMonth.slice(4, 6)).toString(16).toUpperCase();
  const info: WarrantInfo = {
    security_type: 'WRT',
    region: 'TW',
    exchange: issue.underlying.exchange,
    code: terms.code,
    target_code: null,
    name: `${issue.underlying.name.replace(/[*-].*$/, '').slice(0, 3)}${terms.issuer[0]}${rocYear % 10}${month}${terms.right === 'C' ? '購' : '售'}${String(issue.sequence + 1).padStart(2, '0')}`,
    underlying_code: issue.underlying.code,
    underlying_type: 'STK',
    call_put: terms.right,
    financial: terms.issuer[1],
    strike_price: terms.strike,
    expiry_date: terms.expiryDate,
    last_trading_date: terms.lastTradingDate,
    exercise_ratio: terms.ratio,
    exercise_style: terms.american ? 'American' : 'European',
    listing_date: terms.listingDate,
    delisting_date: nextTradingDay(terms.lastTradingDate),
    exercise_start_date: terms.american ? terms.listingDate : terms.expiryDate,
    exercise_end_date: terms.expiryDate,
    barrier_upper: null,
    barrier_lower: null,
    residual_value: null,
    settlement_method: 'Cash',
    investor_restriction: 'None',
    issue_size: terms.issueSize,
    reference: theoreticalReference,
    ...limitsAround(theoreticalReference),
    update_date: contractDay,
  };
  const reference = Math.max(prices.settlementOf?.(info) ?? theoreticalReference, LOWEST_PRICE);
  return { ...info, reference, ...limitsAround(reference) };
}

/** Securities of the whole listing a warrant may be written on: not bond, leveraged, inverse or foreign ETFs. */
const warrantable = (security: ListedSecurity) =>
  !security.bondEtf && !security.foreignComponents && security.leverage === undefined;

/** The original underlyings, then the most traded by value of each exchange (docs/listing.md). */
function underlyingsOf(securities: ReadonlyMap<string, ListedSecurity>): Underlying[] {
  const original = WARRANT_UNDERLYINGS.flatMap((code, index) => {
    const security = securities.get(code);
    return security ? [{ security, index, derived: false }] : [];
  });
  const taken = new Set<string>(WARRANT_UNDERLYINGS);
  const derived = (['TSE', 'OTC'] as const).flatMap((exchange) =>
    [...securities.values()]
      .filter((security) => security.exchange === exchange && !taken.has(security.code) && warrantable(security))
      .sort((a, b) => b.close * b.avgVolumeLots - a.close * a.avgVolumeLots || a.code.localeCompare(b.code))
      .slice(0, DERIVED_WARRANT_UNDERLYINGS[exchange])
      .map((security, index) => ({ security, index, derived: true })),
  );
  return [...original, ...derived];
}

const UNDERLYINGS = new WeakMap<ReadonlyMap<string, ListedSecurity>, Underlying[]>();

/** Warrants trading on a day: issued on or before it, last trading day on or after it. */
export function listWarrants(
  securities: ReadonlyMap<string, ListedSecurity>,
  contractDay: string,
  prices: ReferencePrices,
): WarrantInfo[] {
  const current = yearMonthOf(contractDay);
  const underlyings = UNDERLYINGS.get(securities) ?? underlyingsOf(securities);
  UNDERLYINGS.set(securities, underlyings);
  return underlyings.flatMap(({ security: underlying, index: underlyingIndex, derived }) => {
    const underlyingReference = prices.referenceOf(underlying.code);
    const warrants: WarrantInfo[] = [];
    for (let back = MONTHS_BACK; back >= 0; back--) {
      const yearMonth = addMonths(current, -back);
      for (let sequence = 0; sequence < ISSUES_PER_MONTH; sequence++) {
        const issue = { underlying, underlyingIndex, derived, yearMonth, sequence };
        const terms = termsOf(issue);
        if (terms.listingDate > contractDay || terms.lastTradingDate < contractDay) continue;
        warrants.push(warrantInfo(issue, terms, contractDay, underlyingReference, prices));
      }
    }
    return warrants;
  });
}
