import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidArgumentError } from 'commander';
import { boolean, dateOrToday, enumValue, taipeiDate, timeOfDay } from '../../src/cli/parsers.js';
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

describe('date, time and boolean flag values', () => {
  const invalid = (run: () => unknown, message: RegExp) =>
    assert.throws(run, (error: unknown) => error instanceof InvalidArgumentError && message.test(error.message));

  test('taipeiDate is the date at UTC+8', () => {
    assert.equal(taipeiDate(new Date('2026-07-15T15:59:59Z')), '2026-07-15');
    assert.equal(taipeiDate(new Date('2026-07-15T16:00:00Z')), '2026-07-16');
    assert.equal(taipeiDate(new Date('2026-12-31T16:30:00Z')), '2027-01-01');
  });

  test('dateOrToday takes YYYY-MM-DD or today, nothing else', () => {
    assert.equal(dateOrToday('2026-07-15'), '2026-07-15');
    const before = taipeiDate();
    const today = dateOrToday('Today');
    assert.ok(today === before || today === taipeiDate(), today);
    for (const bad of ['2026-7-15', '20260715', '2026-13-01', 'yesterday', '']) {
      invalid(() => dateOrToday(bad), /YYYY-MM-DD/);
    }
  });

  test('timeOfDay takes HH:MM:SS (or HH:MM) within the day', () => {
    assert.equal(timeOfDay('09:00:05'), '09:00:05');
    assert.equal(timeOfDay('13:30'), '13:30:00');
    for (const bad of ['9:00', '24:00:00', '12:60:00', '12:00:60', '09:00:00.5', 'noon']) {
      invalid(() => timeOfDay(bad), /HH:MM:SS/);
    }
  });

  test('boolean takes true/false, yes/no, 1/0', () => {
    assert.equal(boolean('TRUE'), true);
    assert.equal(boolean('no'), false);
    assert.equal(boolean('0'), false);
    invalid(() => boolean('maybe'), /true or false/);
  });
});
