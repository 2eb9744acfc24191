// The contracts port's queries (get, info, the lists by root or underlying, combos, tick-band rules) over the
// contracts a venue lists. The simulator answers from its catalog; a venue that receives a plain list of records
// builds a directory with contractDirectoryOf.

import { buildCombo, type ComboLeg } from './combos.js';
import {
  type ComboContract,
  type ComboType,
  type Contract,
  type ContractInfo,
  contractOf,
  type FuturesInfo,
  isContinuousCode,
  type OptionInfo,
  type OptionRight,
  type Region,
  type RootName,
  type SecurityType,
  type TickBandRule,
  type WarrantInfo,
  type WarrantUnderlying,
} from './contracts.js';
import { InvalidRequestError, NotFoundError } from './errors.js';
import { ContractList, type ListedContracts, type ProductTable, productTableOf } from './listed-contracts.js';
import { nearCodes } from './near-codes.js';
import { TICK_BAND_RULES } from './ticks.js';

// The queries of the contracts port: defined here, since the domain imports nothing outside itself, and exported
// again by src/broker/port.ts.

export interface ContractQuery {
  securityType?: SecurityType | undefined;
  region?: Region | undefined;
  /** Only a contract listed on this exchange is found (1.7.9 `--exchange`): 2330 asked on OTC is not found. */
  exchange?: string | undefined;
}

export interface FuturesQuery {
  root?: string | undefined;
  underlyingCode?: string | undefined;
  deliveryMonth?: string | undefined;
  region?: Region | undefined;
}

export interface OptionsQuery {
  root: string;
  deliveryMonth?: string | undefined;
  optionRight?: OptionRight | undefined;
  strikeMin?: number | undefined;
  strikeMax?: number | undefined;
  expiryWeekday?: string | undefined;
  region?: Region | undefined;
}

export interface WarrantsQuery {
  underlyingCode: string;
  code?: string | undefined;
  callPut?: OptionRight | undefined;
  strikeMin?: number | undefined;
  strikeMax?: number | undefined;
  expiryFrom?: string | undefined;
  expiryTo?: string | undefined;
  region?: Region | undefined;
}

export interface ComboLegRequest {
  security_type: SecurityType;
  exchange?: string | undefined;
  code: string;
  action?: unknown;
}

const isTaiwan = (region: Region | undefined) => region === undefined || region === 'TW';

export class ContractDirectory {
  /** `listed` is asked on every query, so a venue whose listing rolls (the simulator's catalog) answers from today's. */
  constructor(
    private readonly listed: () => ListedContracts,
    private readonly products: ProductTable,
  ) {}

  /** The contract of a code, in any case (`txfr1` is TXFR1); not found names the nearest codes listed. */
  private lookup(code: string, query: ContractQuery = {}): ContractInfo {
    const listed = this.listed();
    const info = isTaiwan(query.region) ? (listed.find(code) ?? listed.find(code.toUpperCase())) : undefined;
    if (!info || (query.securityType !== undefined && info.security_type !== query.securityType)) {
      const near = !info && isTaiwan(query.region) ? nearCodes(code, listed, this.futuresRootCodes()) : [];
      const guess = near.length === 0 ? '' : `; did you mean ${near.join(', ')}?`;
      throw new NotFoundError('CONTRACT_NOT_FOUND', `${notFoundMessage(code, query)}${guess}`);
    }
    if (query.exchange !== undefined && info.exchange !== query.exchange) {
      throw new NotFoundError(
        'CONTRACT_NOT_FOUND',
        `contract ${code} not found on ${query.exchange}: it is listed on ${info.exchange}`,
      );
    }
    return info;
  }

  private futuresRootCodes(): string[] {
    return this.products.futuresRoots.map((root) => root.root);
  }

  get(code: string, query?: ContractQuery): Contract {
    return contractOf(this.lookup(code, query));
  }

  info(code: string, query?: ContractQuery): ContractInfo {
    const info = this.lookup(code, query);
    if (info.security_type === 'WRT') {
      throw new InvalidRequestError(
        `${code} is a warrant; warrants have no info lookup: use GET /api/v1/data/contracts/warrants?underlying_code=${
          (info as WarrantInfo).underlying_code
        }&code=${code}`,
      );
    }
    return info;
  }

  list(securityType: SecurityType, region?: Region): Contract[] {
    return isTaiwan(region) ? this.listed().all(securityType).map(contractOf) : [];
  }

  futuresRoots(region?: Region): RootName[] {
    return isTaiwan(region) ? this.products.futuresRoots.map(rootNameOf) : [];
  }

  futures(query: FuturesQuery): FuturesInfo[] {
    const { root, underlyingCode, deliveryMonth } = query;
    // Neither lists every futures (1.7.9); both at once is ambiguous.
    if (root !== undefined && underlyingCode !== undefined) {
      throw new InvalidRequestError('give root or underlying_code, not both (neither lists every futures)');
    }
    if (!isTaiwan(query.region)) return [];
    if (root !== undefined && !this.products.futuresRoots.some((p) => p.root === root)) {
      throw new NotFoundError(
        'CONTRACT_NOT_FOUND',
        `futures root ${root} not found; GET /api/v1/data/contracts/futures/roots lists them`,
      );
    }
    if (underlyingCode !== undefined && !this.listed().find(underlyingCode)) {
      throw new NotFoundError('CONTRACT_NOT_FOUND', `underlying ${underlyingCode} not found`);
    }
    const matches = (info: FuturesInfo) =>
      (root === undefined || info.root === root) &&
      (underlyingCode === undefined || info.underlying_code === underlyingCode) &&
      (deliveryMonth === undefined || info.delivery_month === deliveryMonth);
    return this.listed().all('FUT').filter(matches);
  }

  optionRoots(region?: Region): RootName[] {
    return isTaiwan(region) ? this.products.optionRoots.map(rootNameOf) : [];
  }

  /**
   * A root selects its own series, as the SDK's Contracts.Options.<root> does: TXO the monthly (and quarterly) TXO,
   * each weekly its own root (TX1..TX5 on Wednesdays, TXU..TXZ on Fridays).
   */
  options(query: OptionsQuery): OptionInfo[] {
    if (!this.products.optionRoots.some((p) => p.root === query.root)) {
      throw new NotFoundError(
        'CONTRACT_NOT_FOUND',
        `options root ${query.root} not found; GET /api/v1/data/contracts/options/roots lists them`,
      );
    }
    if (!isTaiwan(query.region)) return [];
    const weekday = query.expiryWeekday?.slice(0, 3).toLowerCase();
    const matches = (info: OptionInfo) =>
      info.root === query.root &&
      (query.deliveryMonth === undefined || info.delivery_month === query.deliveryMonth) &&
      (query.optionRight === undefined || info.option_right === query.optionRight) &&
      withinStrikes(info.strike_price, query) &&
      (weekday === undefined || info.expiry_weekday.toLowerCase() === weekday);
    return this.listed().all('OPT').filter(matches);
  }

  warrants(query: WarrantsQuery): WarrantInfo[] {
    if (this.products.underlyingName(query.underlyingCode) === undefined) {
      throw new NotFoundError('CONTRACT_NOT_FOUND', `underlying ${query.underlyingCode} not found`);
    }
    if (!isTaiwan(query.region)) return [];
    const matches = (info: WarrantInfo) =>
      info.underlying_code === query.underlyingCode &&
      (query.code === undefined || info.code === query.code) &&
      (query.callPut === undefined || info.call_put === query.callPut) &&
      withinStrikes(info.strike_price, query) &&
      (query.expiryFrom === undefined || info.expiry_date >= query.expiryFrom) &&
      (query.expiryTo === undefined || info.expiry_date <= query.expiryTo);
    return this.listed().all('WRT').filter(matches);
  }

  warrantUnderlyings(region?: Region): WarrantUnderlying[] {
    if (!isTaiwan(region)) return [];
    const counts = new Map<string, number>();
    for (const warrant of this.listed().all('WRT')) {
      counts.set(warrant.underlying_code, (counts.get(warrant.underlying_code) ?? 0) + 1);
    }
    return [...counts].map(([code, count]) => ({
      underlying_code: code,
      name: this.products.underlyingName(code) ?? code,
      warrant_count: count,
    }));
  }

  createCombo(legs: ComboLegRequest[], comboType?: ComboType): ComboContract {
    if (legs.length !== 2) failCombo(`a combo has exactly 2 legs, got ${legs.length}`);
    if (legs.some((leg) => leg.action !== undefined)) {
      failCombo('combo legs must not carry an action field; the direction is chosen when ordering');
    }
    const [first, second] = legs.map((leg) => {
      checkComboLeg(leg);
      return this.lookup(leg.code, { securityType: leg.security_type }) as ComboLeg;
    });
    return buildCombo(first!, second!, comboType);
  }

  futuresCombos(root: string, region?: Region): ComboContract[] {
    const product = this.products.futuresRoots.find((p) => p.root === root);
    if (!product || product.family !== root) {
      throw new NotFoundError(
        'CONTRACT_NOT_FOUND',
        `futures root ${root} not found; combos are listed by a monthly root such as TXF`,
      );
    }
    if (!isTaiwan(region)) return [];
    const family = this.listed()
      .all('FUT')
      .filter((info) => info.flow_group === root && info.target_code === null)
      .sort((a, b) => a.last_trading_date.localeCompare(b.last_trading_date));
    return family.flatMap((near, i) =>
      family
        .slice(i + 1)
        .filter((far) => far.last_trading_date > near.last_trading_date)
        .map((far) => buildCombo(near, far)),
    );
  }

  tickBandRule(rule: string, securityType: 'FUT' | 'OPT', region?: Region): TickBandRule {
    const found = TICK_BAND_RULES.find((r) => r.rule === rule && r.security_type === securityType);
    if (found && isTaiwan(region)) return found;
    const fixed = this.listed()
      .all(securityType)
      .find(
        (info) =>
          ((info as FuturesInfo).root === rule || info.code === rule) && (info as FuturesInfo).tick_basis === 'fixed',
      );
    if (fixed) {
      const { tick } = fixed as FuturesInfo;
      throw new InvalidRequestError(
        `${rule} has tick_basis 'fixed' (a fixed tick of ${tick}); it has no tick-band rule: use the tick field of its info`,
      );
    }
    const known = TICK_BAND_RULES.filter((r) => r.security_type === securityType).map((r) => r.rule);
    throw new NotFoundError(
      'TICK_RULE_NOT_FOUND',
      `tick-band rule ${rule} not found for ${securityType}; rules: ${known.join(', ')}`,
    );
  }

  count(): number {
    return this.listed().size;
  }
}

/** A directory over a plain list of records, with the roots and underlyings the records imply (productTableOf). */
export function contractDirectoryOf(records: readonly ContractInfo[]): ContractDirectory {
  const listed = new ContractList(records);
  return new ContractDirectory(() => listed, productTableOf(listed));
}

type StrikeRange = Pick<OptionsQuery, 'strikeMin' | 'strikeMax'>;

const withinStrikes = (strike: number, { strikeMin, strikeMax }: StrikeRange) =>
  (strikeMin === undefined || strike >= strikeMin) && (strikeMax === undefined || strike <= strikeMax);

const rootNameOf = ({ root, name }: RootName): RootName => ({ root, name });

function failCombo(message: string): never {
  throw new InvalidRequestError(`contracts: validation: ${message}`);
}

function checkComboLeg(leg: ComboLegRequest): void {
  if (leg.security_type !== 'FUT' && leg.security_type !== 'OPT') {
    failCombo(`combo legs must be futures (FUT) or options (OPT), got ${leg.security_type} for ${leg.code}`);
  }
  if (isContinuousCode(leg.code)) {
    failCombo(`combo legs must be specific-month contracts, not the continuous-month code ${leg.code}`);
  }
  if (leg.exchange !== undefined && leg.exchange !== 'TAIFEX') {
    failCombo(`combo leg ${leg.code} trades on TAIFEX, not ${leg.exchange}`);
  }
}

function notFoundMessage(code: string, query: ContractQuery): string {
  const scope = query.securityType ? ` as ${query.securityType}` : '';
  const region = query.region && query.region !== 'TW' ? ` in region ${query.region}` : '';
  const hint = /^(TSE|OTC)?\d{3}$/.test(code) ? ' (index codes use the exchange form since 1.7, e.g. IX0001)' : '';
  return `contract ${code} not found${scope}${region}${hint}`;
}
