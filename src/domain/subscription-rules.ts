// Which stream a subscribe request names, and the exchange's rules on what has a stream at all: an index has only
// quotes, odd lots only a stock's ticks and book, and only futures combos rest in a book that has quotes.

import { COMBO_TYPES, type ComboContract, type ComboType, type Contract, type SecurityType } from './contracts.js';
import { InvalidRequestError, NotFoundError } from './errors.js';
import { type ContributionRanking, checkProjection, type ProjectionRequest } from './index-projections.js';
import { type ComboRef, type ContractRef, isComboRef } from './market-data.js';
import {
  CALCULATED_INDICES,
  type ComboSubscription,
  INDEX_ANALYTICS_EVENTS,
  isIndexAnalytics,
  type ProductSubscription,
  type QuoteSubscription,
  type QuoteType,
} from './quotes.js';

/** What resolving a subscription needs of a venue's contracts: a lookup and the combo builder, both synchronous. */
export interface SubscribableContracts {
  get(code: string, query?: { securityType?: SecurityType | undefined }): Contract;
  createCombo(
    legs: { security_type: SecurityType; exchange?: string | undefined; code: string }[],
    comboType?: ComboType,
  ): ComboContract;
}

export interface SubscriptionRequest {
  contract: ContractRef | ComboRef;
  quoteType: QuoteType;
  intradayOdd: boolean;
  /** IndexContribution: which ranking. */
  ranking?: ContributionRanking | undefined;
  /** IndexComponents: which projection, checked against what SinoPac serves. */
  projection?: ProjectionRequest | undefined;
}

const KIND_NAMES: Record<SecurityType, string> = {
  STK: 'a stock',
  IND: 'an index',
  FUT: 'a futures contract',
  OPT: 'an option',
  WRT: 'a warrant',
};

export function resolveSubscription(contracts: SubscribableContracts, input: SubscriptionRequest): QuoteSubscription {
  return isComboRef(input.contract)
    ? resolveCombo(contracts, input.contract, input)
    : resolveProduct(contracts, input.contract, input);
}

/** A product by code; security_type and exchange, when given, must match what the code is. */
function lookup(contracts: SubscribableContracts, ref: ContractRef): Contract {
  const contract = contracts.get(ref.code, { securityType: ref.security_type });
  if (ref.exchange && ref.exchange !== contract.exchange) {
    throw new NotFoundError('CONTRACT_NOT_FOUND', `${ref.code} is listed on ${contract.exchange}, not ${ref.exchange}`);
  }
  return contract;
}

function resolveProduct(
  contracts: SubscribableContracts,
  ref: ContractRef,
  input: SubscriptionRequest,
): ProductSubscription {
  const contract = lookup(contracts, ref);
  const { code, security_type: type } = contract;
  if (isIndexAnalytics(input.quoteType)) return indexAnalytics(contract, input);
  if (input.quoteType === 'CalculatedIndex' && !CALCULATED_INDICES.includes(code)) {
    throw new InvalidRequestError(
      `calculated_index is recomputed for ${CALCULATED_INDICES.join(' and ')} only, not ${code}: subscribe ${code} ` +
        'with quote_type Quote for its quote_idx',
    );
  }
  if (input.quoteType === 'KBar' && (type !== 'STK' || input.intradayOdd)) {
    throw new InvalidRequestError(
      `the kbar stream carries a stock's one-minute bars of board lots, and ${code} is ${
        input.intradayOdd ? 'asked as odd lots' : KIND_NAMES[type]
      }: GET /api/v1/data/kbars answers the bars of any contract`,
    );
  }
  if (type === 'IND' && input.quoteType !== 'Quote' && input.quoteType !== 'CalculatedIndex') {
    throw new InvalidRequestError(
      `index contracts only support quote streaming: subscribe ${code} with quote_type Quote (an index has no ${input.quoteType} stream)`,
    );
  }
  if (input.intradayOdd && type !== 'STK') {
    throw new InvalidRequestError(
      `intraday_odd is only for a stock's Tick or BidAsk, and ${code} is ${KIND_NAMES[type]}: subscribe it with intraday_odd false`,
    );
  }
  if (input.intradayOdd && input.quoteType === 'Quote') {
    throw new InvalidRequestError(
      `intraday odd lots stream Tick or BidAsk only: subscribe ${code} with quote_type Tick or BidAsk, or Quote without intraday_odd`,
    );
  }
  return {
    security_type: type,
    exchange: contract.exchange,
    code,
    target_code: contract.target_code,
    quote_type: input.quoteType,
    intraday_odd: input.intradayOdd,
  };
}

/** The index analytics (`what`) exist for IX0001 and IX0043 only: InvalidRequestError naming them otherwise. */
export function requireAnalyticsIndex(contract: Contract, what: string): void {
  const { code, security_type: type } = contract;
  if (type === 'IND' && CALCULATED_INDICES.includes(code)) return;
  throw new InvalidRequestError(
    `${what} is computed for the indices ${CALCULATED_INDICES.join(' and ')} only, and ${code} is ` +
      `${type === 'IND' ? 'another index' : KIND_NAMES[type]}: ask for IX0001 (TAIEX, TSE) or IX0043 (TPEx, OTC)`,
  );
}

/** The index a reference names, for the index analytics (`what`): IX0001 or IX0043, else as requireAnalyticsIndex. */
export function analyticsIndexOf(contracts: SubscribableContracts, ref: ContractRef, what: string): Contract {
  const contract = lookup(contracts, ref);
  requireAnalyticsIndex(contract, what);
  return contract;
}

/** An index analytics stream: IX0001 or IX0043, with its ranking or its projection. */
function indexAnalytics(contract: Contract, input: SubscriptionRequest): ProductSubscription {
  requireAnalyticsIndex(contract, INDEX_ANALYTICS_EVENTS[input.quoteType as keyof typeof INDEX_ANALYTICS_EVENTS]);
  const { code, security_type: type } = contract;
  const subscription: ProductSubscription = {
    security_type: type,
    exchange: contract.exchange,
    code,
    target_code: contract.target_code,
    quote_type: input.quoteType,
    intraday_odd: false,
  };
  if (input.quoteType === 'IndexContribution') {
    if (!input.ranking)
      throw new InvalidRequestError('index_contribution needs a ranking: top10, abs10, positive25 or negative25');
    subscription.ranking = input.ranking;
  }
  if (input.quoteType === 'IndexComponents') {
    if (!input.projection)
      throw new InvalidRequestError('index_components needs a projection {kind, target, metric, order, limit}');
    subscription.projection = checkProjection(input.projection);
  }
  return subscription;
}

function resolveCombo(contracts: SubscribableContracts, ref: ComboRef, input: SubscriptionRequest): ComboSubscription {
  if (input.quoteType === 'KBar' || input.quoteType === 'CalculatedIndex' || isIndexAnalytics(input.quoteType)) {
    const family = isIndexAnalytics(input.quoteType)
      ? INDEX_ANALYTICS_EVENTS[input.quoteType]
      : input.quoteType === 'KBar'
        ? 'kbar'
        : 'calculated_index';
    throw new InvalidRequestError(`a combo has no ${family} stream`);
  }
  const legs = ref.legs.map((leg) => lookup(contracts, leg));
  if (legs.length > 0 && legs.every((leg) => leg.security_type === 'OPT')) {
    throw new InvalidRequestError(
      'option combos rest in no order book (IOC/FOK only), so they have no quotes; subscribe to a futures combo or to the legs',
    );
  }
  const comboType = ref.combo_type ?? undefined;
  if (comboType !== undefined && !(COMBO_TYPES as readonly string[]).includes(comboType)) {
    throw new InvalidRequestError(
      `contracts: validation: combo_type ${comboType} is not one of ${COMBO_TYPES.join(', ')}`,
    );
  }
  const combo = contracts.createCombo(
    legs.map((leg) => ({ security_type: leg.security_type, exchange: leg.exchange, code: leg.code })),
    comboType as ComboType | undefined,
  );
  if (input.quoteType === 'Quote') {
    throw new InvalidRequestError(
      `futures combos stream Tick or BidAsk only, not Quote: subscribe ${combo.code} with quote_type Tick or BidAsk`,
    );
  }
  if (input.intradayOdd) {
    throw new InvalidRequestError(
      `intraday_odd is only for a stock's Tick or BidAsk; combo ${combo.code} has no odd-lot stream: subscribe it with intraday_odd false`,
    );
  }
  return {
    contract: { legs: combo.legs, combo_type: combo.combo_type },
    quote_type: input.quoteType,
    intraday_odd: false,
  };
}
