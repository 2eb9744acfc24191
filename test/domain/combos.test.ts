import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SimBroker } from '../../src/broker/sim/sim-broker.js';
import { buildCombo, type ComboLeg } from '../../src/domain/combos.js';
import type { ComboType, Contract } from '../../src/domain/contracts.js';
import { InvalidRequestError } from '../../src/domain/errors.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { MONDAY_MORNING } from '../helpers/app.js';

function catalogAt(at: number) {
  const broker = new SimBroker({ clock: new ManualClock(at), seed: 1, clockMode: 'always-open', apiKey: null });
  return (code: string) => broker.contracts.info(code) as ComboLeg;
}

// Monday 2026-11-23: TXF/MXF months L6 A7 B7 C7 F7 I7; MX4K6 (11-25) and MX1L6 (12-02); TXO around 43,900.
const leg = catalogAt(MONDAY_MORNING);

const identity = (code: string, security_type: 'FUT' | 'OPT'): Contract => ({
  security_type,
  region: 'TW',
  exchange: 'TAIFEX',
  code,
  target_code: null,
});

function rejects(first: string, second: string, comboType: ComboType | undefined, message: string | RegExp) {
  assert.throws(
    () => buildCombo(leg(first), leg(second), comboType),
    (error: unknown) => {
      assert.ok(error instanceof InvalidRequestError, `${first}+${second} throws InvalidRequestError`);
      assert.equal(error.kind, 'INVALID_REQUEST');
      if (typeof message === 'string') assert.equal(error.message, message);
      else assert.match(error.message, message);
      return true;
    },
  );
}

const reversed = (type: ComboType) =>
  `contracts: validation: combo legs are reversed for ${type}; expected canonical exchange order`;

describe('futures combos', () => {
  test('time spread: [near, far] of one product, code = first code / far month without the root', () => {
    assert.deepEqual(buildCombo(leg('TXFL6'), leg('TXFA7')), {
      code: 'TXFL6/A7',
      legs: [identity('TXFL6', 'FUT'), identity('TXFA7', 'FUT')],
      region: 'TW',
      exchange: 'TAIFEX',
      combo_type: 'TimeSpread',
      managed: true,
    });
    assert.equal(buildCombo(leg('MXFA7'), leg('MXFI7')).code, 'MXFA7/I7');
    assert.equal(buildCombo(leg('CDFL6'), leg('CDFC7')).code, 'CDFL6/C7');
    assert.equal(buildCombo(leg('TXFL6'), leg('TXFA7'), 'TimeSpread').combo_type, 'TimeSpread');
  });

  test('time spread legs given [far, near] are reversed', () => {
    rejects('TXFA7', 'TXFL6', undefined, reversed('TimeSpread'));
    rejects('CDFC7', 'CDFL6', undefined, reversed('TimeSpread'));
  });

  test('weekly time spread: a weekly and a monthly of one family; the second code is shown whole', () => {
    const weeklyFirst = buildCombo(leg('MX4K6'), leg('MXFL6'));
    assert.equal(weeklyFirst.combo_type, 'WeeklyTimeSpread');
    assert.equal(weeklyFirst.code, 'MX4K6/MXFL6');
    assert.deepEqual(weeklyFirst.legs, [identity('MX4K6', 'FUT'), identity('MXFL6', 'FUT')]);
    // two weeklies of different weeks
    assert.equal(buildCombo(leg('MX4K6'), leg('MX1L6')).code, 'MX4K6/MX1L6');
    rejects('MXFL6', 'MX1L6', undefined, reversed('WeeklyTimeSpread'));
    rejects('MX1L6', 'MX4K6', undefined, reversed('WeeklyTimeSpread'));
  });

  test('weekly time spread with the monthly first (MXFC6/MX4C6)', () => {
    // Monday 2026-12-14: MXFL6 expires 12-16, the week-4 weekly MX4L6 on 12-23
    const december = catalogAt(taipeiInstant('2026-12-14', '10:00'));
    const combo = buildCombo(december('MXFL6'), december('MX4L6'));
    assert.equal(combo.code, 'MXFL6/MX4L6');
    assert.equal(combo.combo_type, 'WeeklyTimeSpread');
  });

  test('combo_type that does not match futures legs is refused and named', () => {
    rejects('TXFL6', 'TXFA7', 'WeeklyTimeSpread', /^contracts: validation: combo_type WeeklyTimeSpread .*TimeSpread/);
    rejects('TXFL6', 'TXFA7', 'PriceSpread', /^contracts: validation: combo_type PriceSpread /);
  });

  test('different products, the same contract twice, futures with options', () => {
    rejects('TXFL6', 'MXFA7', undefined, /^contracts: validation: .*same product.*TXF and MXF/);
    rejects('TXFL6', 'CDFA7', undefined, /^contracts: validation: .*same product/);
    rejects('TXFL6', 'TXFL6', undefined, /^contracts: validation: .*two different contracts.*TXFL6/);
    rejects('TXFL6', 'TXO44000X6', undefined, /^contracts: validation: .*both be futures or both be options/);
  });
});

describe('option combos', () => {
  test('call price spread: [higher strike, lower strike]; option combos have no code', () => {
    assert.deepEqual(buildCombo(leg('TXO44100L6'), leg('TXO44000L6')), {
      code: null,
      legs: [identity('TXO44100L6', 'OPT'), identity('TXO44000L6', 'OPT')],
      region: 'TW',
      exchange: 'TAIFEX',
      combo_type: 'PriceSpread',
      managed: true,
    });
    rejects('TXO44000L6', 'TXO44100L6', undefined, reversed('PriceSpread'));
  });

  test('put price spread: [lower strike, higher strike]', () => {
    const combo = buildCombo(leg('TXO44000X6'), leg('TXO44100X6'));
    assert.equal(combo.combo_type, 'PriceSpread');
    assert.equal(combo.code, null);
    assert.deepEqual(
      combo.legs.map((l) => l.code),
      ['TXO44000X6', 'TXO44100X6'],
    );
    rejects('TXO44100X6', 'TXO44000X6', undefined, reversed('PriceSpread'));
  });

  test('time spread: same strike and right, [near, far], also weekly against monthly', () => {
    const monthly = buildCombo(leg('TXO44000L6'), leg('TXO44000A7'));
    assert.equal(monthly.combo_type, 'TimeSpread');
    assert.equal(monthly.code, null);
    assert.deepEqual(
      monthly.legs.map((l) => l.code),
      ['TXO44000L6', 'TXO44000A7'],
    );
    rejects('TXO44000A7', 'TXO44000L6', undefined, reversed('TimeSpread'));
    // TX1 (week 1, expires 12-02) before the December monthly (12-16)
    assert.equal(buildCombo(leg('TX144000L6'), leg('TXO44000L6')).combo_type, 'TimeSpread');
    rejects('TXO44000X6', 'TX144000X6', undefined, reversed('TimeSpread'));
  });

  test('straddle and conversion/reversal have the same legs: combo_type is required', () => {
    rejects(
      'TXO44000L6',
      'TXO44000X6',
      undefined,
      'contracts: validation: combo shape is ambiguous ([Straddle, ConversionReversal]); pass combo_type explicitly',
    );
    const straddle = buildCombo(leg('TXO44000L6'), leg('TXO44000X6'), 'Straddle');
    assert.equal(straddle.combo_type, 'Straddle');
    assert.equal(straddle.code, null);
    assert.deepEqual(straddle.legs, [identity('TXO44000L6', 'OPT'), identity('TXO44000X6', 'OPT')]);
    const conversion = buildCombo(leg('TXO44000L6'), leg('TXO44000X6'), 'ConversionReversal');
    assert.equal(conversion.combo_type, 'ConversionReversal');
    assert.equal(conversion.code, null);
  });

  test('straddle and conversion legs are [call, put]', () => {
    rejects('TXO44000X6', 'TXO44000L6', 'Straddle', reversed('Straddle'));
    rejects('TXO44000X6', 'TXO44000L6', 'ConversionReversal', reversed('ConversionReversal'));
  });

  test('a combo_type that does not match is refused and named', () => {
    rejects('TXO44000L6', 'TXO44000X6', 'Strangle', /^contracts: validation: combo_type Strangle .*Straddle/);
    rejects('TXO44100L6', 'TXO44000L6', 'TimeSpread', /^contracts: validation: combo_type TimeSpread .*PriceSpread/);
    rejects('TXO44100L6', 'TXO43900X6', 'Straddle', /^contracts: validation: combo_type Straddle .*Strangle/);
  });

  test('strangle: same expiry, different strikes, [call, put]', () => {
    const combo = buildCombo(leg('TXO44100L6'), leg('TXO43900X6'));
    assert.equal(combo.combo_type, 'Strangle');
    assert.equal(combo.code, null);
    assert.deepEqual(
      combo.legs.map((l) => l.code),
      ['TXO44100L6', 'TXO43900X6'],
    );
    assert.equal(buildCombo(leg('TXO44100L6'), leg('TXO43900X6'), 'Strangle').combo_type, 'Strangle');
    rejects('TXO43900X6', 'TXO44100L6', undefined, reversed('Strangle'));
  });

  test('legs that form no combo', () => {
    // a call and a put of different expiries
    rejects('TXO44000L6', 'TXO44000M7', undefined, /^contracts: validation: .*same expiry/);
    // same right, different strike and expiry
    rejects('TXO44000L6', 'TXO44100A7', undefined, /^contracts: validation: .*form no combo/);
    rejects('TXO44000L6', 'TXO44000L6', undefined, /^contracts: validation: .*two different contracts/);
    rejects('TXO44000L6', 'TXFL6', undefined, /^contracts: validation: .*both be futures or both be options/);
  });
});
