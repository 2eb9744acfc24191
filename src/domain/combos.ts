// Combo contracts: which two legs form which TAIFEX combination, in the exchange's leg order.

import { type ComboContract, type ComboType, contractOf, type FuturesInfo, type OptionInfo } from './contracts.js';
import { InvalidRequestError } from './errors.js';

export type ComboLeg = FuturesInfo | OptionInfo;

const fail = (message: string): never => {
  throw new InvalidRequestError(`contracts: validation: ${message}`);
};

interface Shape {
  /** One type, or two when the legs alone cannot tell (straddle vs conversion/reversal). */
  types: ComboType[];
  /** The legs in the exchange's canonical order. */
  canonical: [ComboLeg, ComboLeg];
}

/** A product family: weekly roots (MX4, TX1, TXU) belong to their monthly product (MXF, TXO). */
const familyOf = (leg: ComboLeg): string => leg.flow_group;
const isWeekly = (leg: ComboLeg): boolean => leg.root !== leg.flow_group;
const sameExpiry = (a: ComboLeg, b: ComboLeg): boolean =>
  a.root === b.root && a.last_trading_date === b.last_trading_date;
const byExpiry = (a: ComboLeg, b: ComboLeg): [ComboLeg, ComboLeg] =>
  a.last_trading_date <= b.last_trading_date ? [a, b] : [b, a];

function futuresShape(a: FuturesInfo, b: FuturesInfo): Shape {
  if (a.last_trading_date === b.last_trading_date) {
    fail(`futures legs ${a.code} and ${b.code} expire on the same day; a time spread needs two expiries`);
  }
  const type: ComboType = isWeekly(a) || isWeekly(b) ? 'WeeklyTimeSpread' : 'TimeSpread';
  return { types: [type], canonical: byExpiry(a, b) };
}

function optionShape(a: OptionInfo, b: OptionInfo): Shape {
  if (a.option_right === b.option_right) {
    if (sameExpiry(a, b) && a.strike_price !== b.strike_price) {
      const [low, high] = a.strike_price < b.strike_price ? [a, b] : [b, a];
      return { types: ['PriceSpread'], canonical: a.option_right === 'C' ? [high, low] : [low, high] };
    }
    if (!sameExpiry(a, b) && a.strike_price === b.strike_price) {
      if (a.last_trading_date === b.last_trading_date) fail(`${a.code} and ${b.code} expire on the same day`);
      return { types: ['TimeSpread'], canonical: byExpiry(a, b) };
    }
    return fail(
      `${a.code} and ${b.code} form no combo: same-right legs need the same expiry (price spread) or the same strike (time spread)`,
    );
  }
  if (!sameExpiry(a, b)) fail(`${a.code} and ${b.code} form no combo: a call and a put need the same expiry`);
  const canonical: [ComboLeg, ComboLeg] = a.option_right === 'C' ? [a, b] : [b, a];
  if (a.strike_price === b.strike_price) return { types: ['Straddle', 'ConversionReversal'], canonical };
  return { types: ['Strangle'], canonical };
}

/** The exchange code: first leg, a slash, then the second leg without the root they share. */
function futuresComboCode(near: ComboLeg, far: ComboLeg): string {
  const tail = near.root === far.root ? far.code.slice(far.root.length) : far.code;
  return `${near.code}/${tail}`;
}

/** Builds a combo from two resolved legs in the order the caller gave them. */
export function buildCombo(first: ComboLeg, second: ComboLeg, comboType?: ComboType): ComboContract {
  if (first.security_type !== second.security_type) fail('combo legs must both be futures or both be options');
  if (first.code === second.code) fail(`combo legs must be two different contracts, got ${first.code} twice`);
  if (familyOf(first) !== familyOf(second)) {
    fail(`combo legs must belong to the same product, got ${familyOf(first)} and ${familyOf(second)}`);
  }
  const shape =
    first.security_type === 'FUT'
      ? futuresShape(first, second as FuturesInfo)
      : optionShape(first as OptionInfo, second as OptionInfo);
  const type = chooseType(shape.types, comboType);
  if (shape.canonical[0] !== first) {
    fail(`combo legs are reversed for ${type}; expected canonical exchange order`);
  }
  const [near, far] = shape.canonical;
  return {
    code: first.security_type === 'FUT' ? futuresComboCode(near, far) : null,
    legs: [contractOf(near), contractOf(far)],
    region: first.region,
    exchange: 'TAIFEX',
    combo_type: type,
    managed: true,
  };
}

function chooseType(types: ComboType[], requested: ComboType | undefined): ComboType {
  if (requested === undefined) {
    if (types.length > 1) fail(`combo shape is ambiguous ([${types.join(', ')}]); pass combo_type explicitly`);
    return types[0]!;
  }
  if (!types.includes(requested))
    fail(`combo_type ${requested} does not match the legs, which form ${types.join(' or ')}`);
  return requested;
}
