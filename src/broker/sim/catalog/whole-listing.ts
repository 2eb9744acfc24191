// The rest of the TWSE and TPEx listing: every stock, ETF, ETN and TDR the hand-picked catalog leaves out, read from
// the generated table data/listing.psv (names, industry codes and real closes; docs/listing.md names the
// sources). What the exchanges do not publish there — beta, volatility, day-trade and margin eligibility — follows the
// simple rules below, so that a strategy on any ticker finds it, and trades it plausibly.

import { readFileSync } from 'node:fs';
import type { ListedSecurity } from './listed-securities.js';

/** Daily volatility of a stock the catalog did not hand-pick: TPEx names, smaller on average, move more. */
export const DERIVED_STOCK_VOLATILITY = { TSE: 0.014, OTC: 0.017 } as const;

interface Row {
  code: string;
  name: string;
  exchange: 'TSE' | 'OTC';
  kind: 'stock' | 'etf';
  category: string;
  close: number;
  lots: number;
  flags: ReadonlySet<string>;
}

// Data, not code: `npm run build` copies it beside the compiled module (scripts/copy-data-files.mjs).
const LISTING_TABLE = new URL('./data/listing.psv', import.meta.url);

function parseRows(): Row[] {
  return readFileSync(LISTING_TABLE, 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [code, name, exchange, kind, category, close, lots, flags] = line.split('|') as [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      return {
        code,
        name,
        exchange: exchange === 'T' ? 'TSE' : 'OTC',
        kind: kind === 'e' ? 'etf' : 'stock',
        category,
        close: Number(close),
        lots: Number(lots),
        flags: new Set(flags.split(',')),
      };
    });
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * The beta of a stock nobody hand-picked: the mean beta of the hand-picked stocks of its industry on its exchange,
 * else of its industry on either exchange, else 1.
 */
function industryBetas(curated: readonly ListedSecurity[]): (exchange: string, category: string) => number {
  const sums = new Map<string, { sum: number; count: number }>();
  const add = (key: string, beta: number) => {
    const entry = sums.get(key) ?? { sum: 0, count: 0 };
    entry.sum += beta;
    entry.count += 1;
    sums.set(key, entry);
  };
  for (const security of curated) {
    if (security.kind !== 'stock') continue;
    add(`${security.exchange}:${security.category}`, security.beta);
    add(`*:${security.category}`, security.beta);
  }
  const mean = (key: string) => {
    const entry = sums.get(key);
    return entry === undefined ? undefined : round1(entry.sum / entry.count);
  };
  return (exchange, category) => mean(`${exchange}:${category}`) ?? mean(`*:${category}`) ?? 1;
}

/** An ETF's beta by what it holds: its leverage, bonds 0.1, foreign components 0.5, dividend themes 0.8, else 1. */
function etfBeta(row: Row, leverage: number | undefined): number {
  if (leverage !== undefined) return leverage;
  if (row.flags.has('B')) return 0.1;
  if (row.flags.has('F')) return 0.5;
  return /息|股利/.test(row.name) ? 0.8 : 1;
}

function derive(row: Row, betaOf: (exchange: string, category: string) => number): ListedSecurity {
  const leverage = row.flags.has('L2') ? 2 : row.flags.has('R1') ? -1 : undefined;
  const bond = row.flags.has('B');
  const stock = row.kind === 'stock';
  const tdr = row.category === '91';
  return {
    code: row.code,
    name: row.name,
    exchange: row.exchange,
    kind: row.kind,
    category: row.category,
    close: row.close,
    avgVolumeLots: Math.max(1, row.lots),
    dayTrade: bond ? 'No' : 'Yes',
    // A simulator assumption: stocks of some size and turnover, and equity ETFs, can be bought on margin.
    marginable: stock ? !tdr && row.close >= 10 && row.lots >= 50 : !bond,
    etfConstituent: false,
    beta: stock ? betaOf(row.exchange, row.category) : etfBeta(row, leverage),
    ...(stock ? { volatility: DERIVED_STOCK_VOLATILITY[row.exchange] } : {}),
    ...(leverage === undefined ? {} : { leverage }),
    ...(row.flags.has('F') ? { foreignComponents: true } : {}),
    ...(bond ? { bondEtf: true } : {}),
  };
}

/** Every listed security the hand-picked list does not carry, with derived trading characteristics. */
export function wholeListing(curated: readonly ListedSecurity[]): ListedSecurity[] {
  const picked = new Set(curated.map((security) => security.code));
  const betaOf = industryBetas(curated);
  return parseRows()
    .filter((row) => !picked.has(row.code))
    .map((row) => derive(row, betaOf));
}
