// The simulator's contracts service: looks contracts up in the catalog of the current simulated day.

import { buildCombo, type ComboLeg } from '../../domain/combos.js';
import {
  type ComboContract,
  type ComboType,
  type Contract,
  type ContractEvent,
  type ContractInfo,
  contractOf,
  type FuturesInfo,
  isContinuousCode,
  type OptionInfo,
  type Region,
  type RootName,
  type SecurityType,
  type TickBandRule,
  type WarrantInfo,
  type WarrantUnderlying,
} from '../../domain/contracts.js';
import { InvalidRequestError, NotFoundError } from '../../domain/errors.js';
import { TICK_BAND_RULES } from '../../domain/ticks.js';
import type { Clock } from '../../domain/time.js';
import type { ComboLegRequest, ContractQuery, FuturesQuery, OptionsQuery, WarrantsQuery } from '../port.js';
import { type Catalog, SECURITIES_BY_CODE } from './catalog/catalog.js';
import { CurrentCatalog } from './catalog/current-catalog.js';
import { FUTURES_PRODUCTS, OPTION_PRODUCTS } from './catalog/derivative-products.js';
import type { ReferencePrices } from './catalog/references.js';
import { ContractEvents } from './contract-events.js';

const isTaiwan = (region: Region | undefined) => region === undefined || region === 'TW';

export class SimContracts {
  private readonly catalogs: CurrentCatalog;
  private readonly events: ContractEvents;

  constructor(clock: Clock, seed: number, prices: (day: string) => ReferencePrices) {
    this.catalogs = new CurrentCatalog(clock, seed, prices);
    this.events = new ContractEvents(clock);
  }

  /** The catalog of the current listing days, rebuilt when a refresh time passes. */
  current(): Catalog {
    return this.catalogs.current();
  }

  private lookup(code: string, query: ContractQuery = {}): ContractInfo {
    const info = isTaiwan(query.region) ? this.current().find(code) : undefined;
    if (!info || (query.securityType !== undefined && info.security_type !== query.securityType)) {
      throw new NotFoundError('CONTRACT_NOT_FOUND', notFoundMessage(code, query));
    }
    return info;
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
    return isTaiwan(region) ? this.current().all(securityType).map(contractOf) : [];
  }

  futuresRoots(region?: Region): RootName[] {
    return isTaiwan(region) ? FUTURES_PRODUCTS.map(({ root, name }) => ({ root, name })) : [];
  }

  futures(query: FuturesQuery): FuturesInfo[] {
    const { root, underlyingCode, deliveryMonth } = query;
    if ((root === undefined) === (underlyingCode === undefined)) {
      throw new InvalidRequestError('give either root or underlying_code (they are mutually exclusive)');
    }
    if (!isTaiwan(query.region)) return [];
    if (root !== undefined && !FUTURES_PRODUCTS.some((p) => p.root === root)) {
      throw new NotFoundError(
        'CONTRACT_NOT_FOUND',
        `futures root ${root} not found; GET /api/v1/data/contracts/futures/roots lists them`,
      );
    }
    if (underlyingCode !== undefined && !this.current().find(underlyingCode)) {
      throw new NotFoundError('CONTRACT_NOT_FOUND', `underlying ${underlyingCode} not found`);
    }
    const matches = (info: FuturesInfo) =>
      (root === undefined || info.root === root) &&
      (underlyingCode === undefined || info.underlying_code === underlyingCode) &&
      (deliveryMonth === undefined || info.delivery_month === deliveryMonth);
    return this.current().all('FUT').filter(matches);
  }

  optionRoots(region?: Region): RootName[] {
    return isTaiwan(region) ? OPTION_PRODUCTS.map(({ root, name }) => ({ root, name })) : [];
  }

  /**
   * A root selects its own series, as the SDK's Contracts.Options.<root> does: TXO the monthly (and quarterly) TXO,
   * each weekly its own root (TX1..TX5 on Wednesdays, TXU..TXZ on Fridays).
   */
  options(query: OptionsQuery): OptionInfo[] {
    if (!OPTION_PRODUCTS.some((p) => p.root === query.root)) {
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
      (query.strikeMin === undefined || info.strike_price >= query.strikeMin) &&
      (query.strikeMax === undefined || info.strike_price <= query.strikeMax) &&
      (weekday === undefined || info.expiry_weekday.toLowerCase() === weekday);
    return this.current().all('OPT').filter(matches);
  }

  warrants(query: WarrantsQuery): WarrantInfo[] {
    if (!SECURITIES_BY_CODE.has(query.underlyingCode)) {
      throw new NotFoundError('CONTRACT_NOT_FOUND', `underlying ${query.underlyingCode} not found`);
    }
    if (!isTaiwan(query.region)) return [];
    const matches = (info: WarrantInfo) =>
      info.underlying_code === query.underlyingCode &&
      (query.code === undefined || info.code === query.code) &&
      (query.callPut === undefined || info.call_put === query.callPut) &&
      (query.strikeMin === undefined || info.strike_price >= query.strikeMin) &&
      (query.strikeMax === undefined || info.strike_price <= query.strikeMax) &&
      (query.expiryFrom === undefined || info.expiry_date >= query.expiryFrom) &&
      (query.expiryTo === undefined || info.expiry_date <= query.expiryTo);
    return this.current().all('WRT').filter(matches);
  }

  warrantUnderlyings(region?: Region): WarrantUnderlying[] {
    if (!isTaiwan(region)) return [];
    const counts = new Map<string, number>();
    for (const warrant of this.current().all('WRT')) {
      counts.set(warrant.underlying_code, (counts.get(warrant.underlying_code) ?? 0) + 1);
    }
    return [...counts].map(([code, count]) => ({
      underlying_code: code,
      name: SECURITIES_BY_CODE.get(code)?.name ?? code,
      warrant_count: count,
    }));
  }

  createCombo(legs: ComboLegRequest[], comboType?: ComboType): ComboContract {
    const fail = (message: string): never => {
      throw new InvalidRequestError(`contracts: validation: ${message}`);
    };
    if (legs.length !== 2) fail(`a combo has exactly 2 legs, got ${legs.length}`);
    if (legs.some((leg) => leg.action !== undefined)) {
      fail('combo legs must not carry an action field; the direction is chosen when ordering');
    }
    const resolved = legs.map((leg) => {
      if (leg.security_type !== 'FUT' && leg.security_type !== 'OPT') {
        fail(`combo legs must be futures (FUT) or options (OPT), got ${leg.security_type} for ${leg.code}`);
      }
      if (isContinuousCode(leg.code)) {
        fail(`combo legs must be specific-month contracts, not the continuous-month code ${leg.code}`);
      }
      if (leg.exchange !== undefined && leg.exchange !== 'TAIFEX') {
        fail(`combo leg ${leg.code} trades on TAIFEX, not ${leg.exchange}`);
      }
      return this.lookup(leg.code, { securityType: leg.security_type }) as ComboLeg;
    });
    return buildCombo(resolved[0]!, resolved[1]!, comboType);
  }

  futuresCombos(root: string, region?: Region): ComboContract[] {
    const product = FUTURES_PRODUCTS.find((p) => p.root === root);
    if (!product || product.family !== root) {
      throw new NotFoundError(
        'CONTRACT_NOT_FOUND',
        `futures root ${root} not found; combos are listed by a monthly root such as TXF`,
      );
    }
    if (!isTaiwan(region)) return [];
    const family = this.current()
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
    const fixed = this.current()
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
    return this.current().size;
  }

  onContractEvent(listener: (event: ContractEvent) => void): () => void {
    return this.events.on(listener);
  }

  /**
   * Runs a scheduled refresh: rebuilds the catalog if a listing day has rolled, and publishes one CHECK event per
   * security type saying whether its contracts changed (stocks, indices and warrants roll at 08:00, futures and
   * options at 14:45).
   */
  refresh(): void {
    const before = this.catalogs.last?.days;
    const after = this.current().days;
    this.events.publishChecks({
      stocks: before?.stockDay !== after.stockDay,
      derivatives: before?.futuresDay !== after.futuresDay,
    });
  }
}

function notFoundMessage(code: string, query: ContractQuery): string {
  const scope = query.securityType ? ` as ${query.securityType}` : '';
  const region = query.region && query.region !== 'TW' ? ` in region ${query.region}` : '';
  const hint = /^(TSE|OTC)?\d{3}$/.test(code) ? ' (index codes use the exchange form since 1.7, e.g. IX0001)' : '';
  return `contract ${code} not found${scope}${region}${hint}`;
}
