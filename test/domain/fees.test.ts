import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  futuresCost,
  futuresFee,
  futuresMargin,
  futuresTax,
  marginFor,
  multiplierOf,
  ODD_LOT_MIN_FEE,
  optionMargin,
  outOfTheMoney,
  productFamily,
  STOCK_FEE_RATE,
  STOCK_MIN_FEE,
  stockFee,
  stockTax,
  stockTaxKind,
  stockTradeCosts,
  TXO_MARGIN_VALUES,
} from '../../src/domain/fees.js';

describe('stock brokerage fee (0.1425%, floored, broker minimum)', () => {
  it('buying 1 lot of 2330 at 1,000 is NT$1,000,000 and pays a fee of NT$1,425', () => {
    assert.equal(stockFee(1000 * 1000), 1425);
  });

  it('floors to whole NT$: 1 lot at 19.15 (NT$19,150) pays NT$27, not 27.29', () => {
    assert.equal(stockFee(19.15 * 1000), 27);
  });

  it('charges at least NT$20 on a board-lot trade: 1 lot at 10.5 would be NT$14', () => {
    assert.equal(stockFee(10_500), STOCK_MIN_FEE);
    assert.equal(STOCK_MIN_FEE, 20);
  });

  it('charges at least NT$1 on an odd-lot trade, and the plain rate above it', () => {
    assert.equal(stockFee(50, { oddLot: true }), ODD_LOT_MIN_FEE);
    assert.equal(ODD_LOT_MIN_FEE, 1);
    // 7 shares of 2330 at 1,000: 7,000 x 0.1425% = 9.975.
    assert.equal(stockFee(7000, { oddLot: true }), 9);
  });

  it('applies a broker discount to the full rate: 40% off 1,000,000 is NT$855', () => {
    assert.equal(stockFee(1_000_000, { discount: 0.6 }), 855);
  });

  it('is zero on a zero value (nothing traded)', () => {
    assert.equal(stockFee(0), 0);
  });

  it('is never below the minimum, never above the floored full rate, and grows with the value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5_000_000_000 }), fc.boolean(), (cents, oddLot) => {
        const value = cents / 100;
        const fee = stockFee(value, { oddLot });
        const minimum = oddLot ? ODD_LOT_MIN_FEE : STOCK_MIN_FEE;
        assert.ok(Number.isInteger(fee));
        assert.ok(fee >= minimum);
        assert.ok(fee <= Math.max(minimum, value * STOCK_FEE_RATE + 1e-6));
        assert.ok(stockFee(value + 1, { oddLot }) >= fee);
      }),
    );
  });
});

describe('securities transaction tax (sell side)', () => {
  it('selling 1 lot of 2330 at 1,000 pays fee NT$1,425 and tax NT$3,000 (0.3%)', () => {
    assert.deepEqual(stockTradeCosts(1_000_000, { action: 'Sell', kind: 'stock' }), { fee: 1425, tax: 3000 });
  });

  it('buying pays the fee only', () => {
    assert.deepEqual(stockTradeCosts(1_000_000, { action: 'Buy', kind: 'stock' }), { fee: 1425, tax: 0 });
  });

  it('a day-trade sell of a stock pays 0.15%: NT$1,500 on NT$1,000,000', () => {
    assert.equal(stockTax(1_000_000, { kind: 'stock', dayTrade: true }), 1500);
  });

  it('floors to whole NT$: 1 lot of 2890 at 17.45 pays NT$52, not 52.35', () => {
    assert.equal(stockTax(17_450, { kind: 'stock' }), 52);
  });

  it('ETFs pay 0.1% whether day-traded or not: 1 lot of 0050 at 110.10 pays NT$110', () => {
    assert.equal(stockTax(110_100, { kind: 'etf' }), 110);
    assert.equal(stockTax(110_100, { kind: 'etf', dayTrade: true }), 110);
  });

  it('warrants pay 0.1% and bond ETFs are exempt', () => {
    assert.equal(stockTax(50_000, { kind: 'warrant' }), 50);
    assert.equal(stockTax(27_120, { kind: 'bond-etf' }), 0);
  });

  it('tells the tax kind from the code: ETFs start with 00, bond ETFs end with B, warrants by type', () => {
    assert.equal(stockTaxKind('2330', 'STK'), 'stock');
    assert.equal(stockTaxKind('0050', 'STK'), 'etf');
    assert.equal(stockTaxKind('006208', 'STK'), 'etf');
    assert.equal(stockTaxKind('00632R', 'STK'), 'etf');
    assert.equal(stockTaxKind('00679B', 'STK'), 'bond-etf');
    assert.equal(stockTaxKind('03012P', 'WRT'), 'warrant');
  });

  it('is the floor of value x rate', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5_000_000_000 }), fc.boolean(), (cents, dayTrade) => {
        const value = cents / 100;
        const tax = stockTax(value, { kind: 'stock', dayTrade });
        const exact = value * (dayTrade ? 0.0015 : 0.003);
        assert.ok(Number.isInteger(tax));
        assert.ok(tax <= exact + 1e-6 && tax > exact - 1);
      }),
    );
  });
});

describe('futures and options products', () => {
  it('has the contract multipliers of TAIFEX (NT$ per point, or shares per contract)', () => {
    assert.equal(multiplierOf('TXF'), 200);
    assert.equal(multiplierOf('MXF'), 50);
    assert.equal(multiplierOf('MX4'), 50);
    assert.equal(multiplierOf('TMF'), 10);
    assert.equal(multiplierOf('TXO'), 50);
    assert.equal(multiplierOf('TX1'), 50);
    assert.equal(multiplierOf('TXU'), 50);
    assert.equal(multiplierOf('CDF', 'stock_fut'), 2000);
    assert.equal(multiplierOf('NYF', 'etf_fut'), 10_000);
  });

  it('refuses to guess the multiplier of an unknown root', () => {
    assert.throws(() => multiplierOf('CDF'), RangeError);
  });

  it('puts weekly roots in their monthly product', () => {
    assert.deepEqual(['MX1', 'MX5', 'TX2', 'TXZ', 'TXF', 'CDF'].map(productFamily), [
      'MXF',
      'MXF',
      'TXO',
      'TXO',
      'TXF',
      'CDF',
    ]);
  });
});

describe('futures and options fees and taxes', () => {
  it('charges a flat fee per contract per side', () => {
    assert.equal(futuresFee('TXF', 2), 120);
    assert.equal(futuresFee('MXF', 1), 30);
    assert.equal(futuresFee('MX4', 1), 30);
    assert.equal(futuresFee('TMF', 3), 45);
    assert.equal(futuresFee('TX1', 1, 'OPT'), 25);
    assert.equal(futuresFee('CDF', 1), 30);
    assert.equal(futuresFee('CAO', 1, 'OPT'), 25);
  });

  it('taxes futures 0.002% of contract value: 1 TXF at 20,000 is NT$4,000,000 and pays NT$80', () => {
    assert.equal(futuresTax({ securityType: 'FUT', price: 20_000, multiplier: 200, quantity: 1 }), 80);
    assert.deepEqual(futuresCost({ root: 'TXF', securityType: 'FUT', price: 20_000, multiplier: 200, quantity: 1 }), {
      fee: 60,
      tax: 80,
    });
  });

  it('rounds the futures tax half up: 1 TXF at 41,636 pays 166.544 → NT$167; 1 TMF pays 8.33 → NT$8', () => {
    assert.equal(futuresTax({ securityType: 'FUT', price: 41_636, multiplier: 200, quantity: 1 }), 167);
    assert.equal(futuresTax({ securityType: 'FUT', price: 41_636, multiplier: 10, quantity: 1 }), 8);
  });

  it('taxes options 0.1% of premium value: 1 TXO at 150 is NT$7,500 and pays 7.5 → NT$8', () => {
    assert.equal(futuresTax({ securityType: 'OPT', price: 150, multiplier: 50, quantity: 1 }), 8);
    assert.equal(futuresTax({ securityType: 'OPT', price: 150, multiplier: 50, quantity: 4 }), 30);
  });
});

describe('margins', () => {
  it('has the TAIFEX index futures margins of 2025-11-04 per contract', () => {
    assert.deepEqual(futuresMargin({ root: 'TXF' }), { initial: 338_000, maintenance: 259_000 });
    assert.deepEqual(futuresMargin({ root: 'MXF' }), { initial: 84_500, maintenance: 64_750 });
    assert.deepEqual(futuresMargin({ root: 'MX2' }), { initial: 84_500, maintenance: 64_750 });
    assert.deepEqual(futuresMargin({ root: 'TMF' }), { initial: 16_900, maintenance: 12_950 });
  });

  it('keeps MXF at a quarter and TMF at a twentieth of TXF (the same margin per index point)', () => {
    const tx = futuresMargin({ root: 'TXF' });
    assert.equal(futuresMargin({ root: 'MXF' }).initial * 4, tx.initial);
    assert.equal(futuresMargin({ root: 'TMF' }).initial * 20, tx.initial);
  });

  it('margins stock futures as a share of contract value by tier: CDF at 2,490 is NT$4,980,000', () => {
    assert.deepEqual(futuresMargin({ root: 'CDF', price: 2490, specKind: 'stock_fut' }), {
      initial: 672_300,
      maintenance: 515_430,
    });
    assert.equal(futuresMargin({ root: 'CDF', price: 2490, specKind: 'stock_fut', tier: 2 }).initial, 806_760);
    assert.equal(futuresMargin({ root: 'QFF', price: 2490, multiplier: 100 }).initial, 33_615);
  });

  it('needs a price for a stock futures margin', () => {
    assert.throws(() => futuresMargin({ root: 'CDF' }), RangeError);
  });

  it('margins a short TXO as premium value + max(A - out-of-the-money value, B)', () => {
    // Call 44000 with the index at 43900: 100 points out of the money, NT$5,000; premium 150 is NT$7,500.
    const nearMoney = { root: 'TXO', right: 'C', strike: 44_000, premium: 150, underlying: 43_900 } as const;
    assert.deepEqual(optionMargin({ ...nearMoney, side: 'short' }), {
      initial: 7_500 + 86_000 - 5_000,
      maintenance: 7_500 + 66_000 - 5_000,
    });
    // Call 48000: 4,100 points out (NT$205,000) so the B value applies.
    assert.deepEqual(optionMargin({ ...nearMoney, strike: 48_000, premium: 2, side: 'short' }), {
      initial: 100 + TXO_MARGIN_VALUES.B.initial,
      maintenance: 100 + TXO_MARGIN_VALUES.B.maintenance,
    });
    // The put at 44000 is in the money: the full A value.
    assert.equal(optionMargin({ ...nearMoney, right: 'P', side: 'short' }).initial, 7_500 + 86_000);
  });

  it('asks a long option for its premium only, with no maintenance margin', () => {
    assert.deepEqual(
      optionMargin({ root: 'TX1', right: 'P', strike: 43_000, premium: 85.5, underlying: 43_900, side: 'long' }),
      { initial: 4275, maintenance: 0 },
    );
  });

  it('has no A/B values for stock options', () => {
    assert.throws(
      () =>
        optionMargin({
          root: 'CAO',
          right: 'C',
          strike: 1000,
          premium: 10,
          underlying: 990,
          multiplier: 2000,
          side: 'short',
        }),
      RangeError,
    );
  });

  it('measures out-of-the-money distance for calls and puts', () => {
    assert.equal(outOfTheMoney('C', 44_000, 43_900), 100);
    assert.equal(outOfTheMoney('C', 43_000, 43_900), 0);
    assert.equal(outOfTheMoney('P', 43_000, 43_900), 900);
    assert.equal(outOfTheMoney('P', 44_000, 43_900), 0);
  });

  it('dispatches marginFor on the security type', () => {
    assert.deepEqual(marginFor({ securityType: 'FUT', root: 'TXF' }), futuresMargin({ root: 'TXF' }));
    const option = {
      root: 'TXO',
      right: 'C',
      strike: 44_000,
      premium: 150,
      underlying: 43_900,
      side: 'short',
    } as const;
    assert.deepEqual(marginFor({ securityType: 'OPT', ...option }), optionMargin(option));
  });

  it('never asks a short TXO for less than premium + B, nor more than premium + A', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('C' as const, 'P' as const),
        fc.integer({ min: 300, max: 500 }).map((n) => n * 100),
        fc.integer({ min: 30_000, max: 50_000 }),
        fc.integer({ min: 1, max: 5000 }),
        (right, strike, underlying, premium) => {
          const margin = optionMargin({ root: 'TXO', right, strike, underlying, premium, side: 'short' });
          const premiumValue = premium * 50;
          assert.ok(margin.initial >= premiumValue + TXO_MARGIN_VALUES.B.initial);
          assert.ok(margin.initial <= premiumValue + TXO_MARGIN_VALUES.A.initial);
          assert.ok(margin.maintenance < margin.initial);
        },
      ),
    );
  });
});
