import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidArgumentError } from 'commander';
import { enumValue } from '../../src/cli/parsers.js';
import {
  ACTIONS,
  FUTURES_OC_TYPE_INPUTS,
  ORDER_TYPES,
  STOCK_ORDER_CONDS,
  STOCK_ORDER_LOTS,
  STOCK_PRICE_TYPES,
} from '../../src/domain/orders.js';

const invalidArgument = (message: RegExp) => (error: unknown) =>
  error instanceof InvalidArgumentError && message.test(error.message);

describe('enum flags', () => {
  test('are written in lower or kebab case, or as the API spells them', () => {
    assert.equal(enumValue(ACTIONS)('buy'), 'Buy');
    assert.equal(enumValue(ACTIONS)(' SELL '), 'Sell');
    assert.equal(enumValue(STOCK_PRICE_TYPES)('lmt'), 'LMT');
    assert.equal(enumValue(ORDER_TYPES)('ioc'), 'IOC');
    assert.equal(enumValue(STOCK_ORDER_LOTS)('intraday-odd'), 'IntradayOdd');
    assert.equal(enumValue(STOCK_ORDER_LOTS)('INTRADAY_ODD'), 'IntradayOdd');
    assert.equal(enumValue(STOCK_ORDER_LOTS)('BlockTrade'), 'BlockTrade');
    assert.equal(enumValue(STOCK_ORDER_CONDS)('margin-trading'), 'MarginTrading');
    assert.equal(enumValue(FUTURES_OC_TYPE_INPUTS)('new-position'), 'NewPosition');
    assert.equal(enumValue(FUTURES_OC_TYPE_INPUTS)('day-trade'), 'DayTrade');
  });

  test('an unknown value lists the choices in kebab case', () => {
    assert.throws(
      () => enumValue(STOCK_ORDER_LOTS)('board'),
      invalidArgument(/expected one of common, block-trade, fixing, odd, intraday-odd$/),
    );
    assert.throws(() => enumValue(ACTIONS)('long'), invalidArgument(/expected one of buy, sell/));
  });
});
