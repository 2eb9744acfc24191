import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { type BookedFill, Ledger, type LedgerChanges } from '../../src/broker/sim/portfolio/ledger.js';
import type { StockTaxKind } from '../../src/domain/fees.js';
import type { StockOrderCond, StockOrderLot } from '../../src/domain/orders.js';
import { taipeiInstant } from '../../src/domain/time.js';

const S = '9A95-1000001';
const F = 'F002000-1000002';
const STARTING_CASH = 10_000_000;
const STARTING_COLLATERAL = 2_000_000;

function newLedger(): Ledger {
  const ledger = new Ledger({ startingCash: STARTING_CASH, startingCollateral: STARTING_COLLATERAL });
  ledger.open(S, 'S');
  ledger.open(F, 'F');
  return ledger;
}

// 2026-11-23 is a Monday; the week has no holiday.
const MON = '2026-11-23';
const TUE = '2026-11-24';
const WED = '2026-11-25';
const THU = '2026-11-26';
const NEXT_MON = '2026-11-30';

let serial = 0;
function origin(day: string) {
  serial++;
  return {
    orderId: `o${serial}`,
    seqno: String(100000 + serial),
    ordno: `A${String(serial).padStart(4, '0')}`,
    dealSeq: 1,
    at: taipeiInstant(day, '10:00') + serial,
    day,
  };
}

interface StockDeal {
  day: string;
  action: 'Buy' | 'Sell';
  price: number;
  shares: number;
  code?: string;
  cond?: StockOrderCond;
  lot?: StockOrderLot;
  taxKind?: StockTaxKind;
  daytradeShort?: boolean;
}

function stock(deal: StockDeal): BookedFill {
  return {
    accountKey: S,
    ...origin(deal.day),
    code: deal.code ?? '2330',
    action: deal.action,
    price: deal.price,
    quantity: deal.shares,
    stock: {
      cond: deal.cond ?? 'Cash',
      lot: deal.lot ?? 'Common',
      taxKind: deal.taxKind ?? 'stock',
      daytradeShort: deal.daytradeShort ?? false,
      marginLoanRatio: 60,
      shortMarginRatio: 90,
    },
  };
}

interface DerivativeDeal {
  day: string;
  action: 'Buy' | 'Sell';
  price: number;
  quantity: number;
  code?: string;
  option?: boolean;
}

function derivative(deal: DerivativeDeal): BookedFill {
  const option = deal.option ?? false;
  return {
    accountKey: F,
    ...origin(deal.day),
    code: deal.code ?? (option ? 'TXO22000L6' : 'TXFL6'),
    action: deal.action,
    price: deal.price,
    quantity: deal.quantity,
    derivative: {
      securityType: option ? 'OPT' : 'FUT',
      root: option ? 'TXO' : 'TXF',
      multiplier: option ? 50 : 200,
      ocType: 'Auto',
    },
  };
}

const amounts = (changes: LedgerChanges) => changes.cash.map((entry) => entry.amount);

describe('cash stock trades', () => {
  test('a board-lot round trip pays the fee both ways and the 0.3% tax on the sell, settled T+2', () => {
    const ledger = newLedger();
    // Buy 2 lots at 100: value 200,000; fee 200,000 x 0.1425% = 285.
    const buy = ledger.book(stock({ day: MON, action: 'Buy', price: 100, shares: 2000 }));
    assert.deepEqual(amounts(buy), [-200_285]);
    assert.equal(buy.cash[0]!.settleDate, WED);
    assert.equal(buy.cash[0]!.reason, 'stock-buy');
    // Sell at 110 on Tuesday: value 220,000; fee 313.5 -> 313; tax 0.3% = 660; receives 219,027 on Thursday.
    const sell = ledger.book(stock({ day: TUE, action: 'Sell', price: 110, shares: 2000 }));
    assert.deepEqual(amounts(sell), [219_027]);
    assert.equal(sell.cash[0]!.settleDate, THU);
    assert.equal(ledger.cash(S), STARTING_CASH - 200_285 + 219_027);

    const [realized] = ledger.stockRealized(S);
    // pnl = 219,027 - 200,285 = 18,742; pr_ratio = 18,742 / 200,285 = 9.36%.
    const { dseq, seqno, ...record } = realized!.record;
    assert.deepEqual(record, {
      id: 1,
      code: '2330',
      quantity: 2000,
      pnl: 18_742,
      date: TUE,
      price: 110,
      pr_ratio: 9.36,
      cond: 'Cash',
    });
    assert.match(dseq, /^A\d{4}$/);
    assert.match(seqno, /^1\d{5}$/);
    const [opening, closing] = realized!.details;
    assert.deepEqual(
      { fee: opening!.fee, tax: opening!.tax, cost: opening!.cost, date: opening!.date, type: opening!.trade_type },
      { fee: 285, tax: 0, cost: 200_285, date: MON, type: 'Common' },
    );
    assert.deepEqual(
      { fee: closing!.fee, tax: closing!.tax, cost: closing!.cost, date: closing!.date, type: closing!.trade_type },
      { fee: 313, tax: 660, cost: 219_027, date: TUE, type: 'Common' },
    );
    assert.equal(ledger.heldShares(S, '2330', 'Cash'), 0);
  });

  test('a same-day round trip (現股當沖) pays the 0.15% day-trade tax', () => {
    const ledger = newLedger();
    // Buy 1 lot at 100: fee 142.5 -> 142. Sell at 101: fee 143.925 -> 143, tax 101,000 x 0.15% = 151.5 -> 151.
    ledger.book(stock({ day: MON, action: 'Buy', price: 100, shares: 1000 }));
    const sell = ledger.book(stock({ day: MON, action: 'Sell', price: 101, shares: 1000 }));
    assert.deepEqual(amounts(sell), [101_000 - 143 - 151]);
    const [realized] = ledger.stockRealized(S);
    // pnl = 100,706 - 100,142 = 564.
    assert.equal(realized!.record.pnl, 564);
    assert.deepEqual(
      realized!.details.map((row) => row.trade_type),
      ['DayTrade', 'DayTrade'],
    );
  });

  test("a cash sell closes the same day's buys before older lots, then FIFO", () => {
    const ledger = newLedger();
    ledger.book(stock({ day: MON, action: 'Buy', price: 90, shares: 1000 }));
    ledger.book(stock({ day: TUE, action: 'Buy', price: 100, shares: 1000 }));
    // Sells 1.5 lots at 102 on Tuesday: 1,000 shares close Tuesday's lot (day trade), 500 close Monday's.
    // Value 153,000; fee 218.025 -> 218. Tax: 102,000 x 0.15% = 153 plus 51,000 x 0.3% = 153.
    const sell = ledger.book(stock({ day: TUE, action: 'Sell', price: 102, shares: 1500 }));
    assert.deepEqual(amounts(sell), [153_000 - 218 - 153 - 153]);
    const lots = ledger.openStockLots(S, '2330', 'Cash', 'Buy');
    assert.deepEqual(
      lots.map((lot) => ({ day: lot.day, shares: lot.shares, value: lot.value })),
      [{ day: MON, shares: 500, value: 45_000 }],
    );
    const details = ledger.stockRealized(S)[0]!.details;
    assert.deepEqual(
      details.map((row) => [row.date, row.quantity, row.trade_type]),
      [
        [TUE, 1000, 'DayTrade'],
        [MON, 500, 'Common'],
        [TUE, 1500, 'Common'],
      ],
    );
  });

  test('a daytrade_short sell opens a same-day short that a later cash buy closes as a day trade', () => {
    const ledger = newLedger();
    // Sell first 1 lot at 50: value 50,000; fee 71.25 -> 71; day-trade tax 75. Buy back at 49: fee 69.825 -> 69.
    const sell = ledger.book(stock({ day: MON, action: 'Sell', price: 50, shares: 1000, daytradeShort: true }));
    assert.deepEqual(amounts(sell), [50_000 - 71 - 75]);
    assert.equal(ledger.openStockLots(S, '2330', 'Cash', 'Sell').length, 1);
    const buy = ledger.book(stock({ day: MON, action: 'Buy', price: 49, shares: 1000 }));
    assert.deepEqual(amounts(buy), [-(49_000 + 69)]);
    const [realized] = ledger.stockRealized(S);
    // pnl = (50,000 - 71 - 75) - 49,069 = 785.
    assert.equal(realized!.record.pnl, 785);
    assert.equal(realized!.details.at(-1)!.trade_type, 'DayTrade');
    assert.equal(ledger.stockPositions(S).length, 0);
  });

  test('odd lots pay at least NT$1 fee and settle value to the whole dollar', () => {
    const ledger = newLedger();
    // 10 shares at 50.5 = 505; fee 0.72 -> minimum 1.
    const buy = ledger.book(stock({ day: MON, action: 'Buy', price: 50.5, shares: 10, lot: 'IntradayOdd' }));
    assert.deepEqual(amounts(buy), [-506]);
    // 3 shares at 575.5 = 1,726.5 -> 1,726; fee 2.46 -> 2.
    const odd = ledger.book(stock({ day: MON, action: 'Buy', price: 575.5, shares: 3, lot: 'Odd', code: '2454' }));
    assert.deepEqual(amounts(odd), [-1728]);
    // Sell the 10 at 52 on Tuesday: 520; fee 0.74 -> 1; tax 1.56 -> 1. pnl = 518 - 506 = 12.
    ledger.book(stock({ day: TUE, action: 'Sell', price: 52, shares: 10, lot: 'IntradayOdd' }));
    assert.equal(ledger.stockRealized(S)[0]!.record.pnl, 12);
  });

  test('ETFs and warrants pay 0.1% tax on the sell, bond ETFs none', () => {
    const sellTax = (taxKind: StockTaxKind) => {
      const ledger = newLedger();
      ledger.book(stock({ day: MON, action: 'Buy', price: 150, shares: 1000, code: '0050', taxKind }));
      ledger.book(stock({ day: TUE, action: 'Sell', price: 151, shares: 1000, code: '0050', taxKind }));
      return ledger.stockRealized(S)[0]!.details.at(-1)!.tax;
    };
    // 151,000 x 0.1% = 151.
    assert.equal(sellTax('etf'), 151);
    assert.equal(sellTax('warrant'), 151);
    assert.equal(sellTax('bond-etf'), 0);
    assert.equal(sellTax('stock'), 453);
  });
});

describe('margin trading and short selling', () => {
  test('a margin buy borrows 60% floored to NT$1,000 and the margin sell repays it', () => {
    const ledger = newLedger();
    // 1 lot at 123.5 = 123,500; loan 74,100 -> 74,000; fee 175.99 -> 175; the account pays 49,675.
    const buy = ledger.book(stock({ day: MON, action: 'Buy', price: 123.5, shares: 1000, cond: 'MarginTrading' }));
    assert.deepEqual(amounts(buy), [-(123_500 - 74_000 + 175)]);
    assert.equal(buy.cash[0]!.reason, 'margin-buy');
    assert.equal(ledger.openStockLots(S, '2330', 'MarginTrading', 'Buy')[0]!.loan, 74_000);
    assert.equal(ledger.heldShares(S, '2330', 'MarginTrading'), 1000);
    assert.equal(ledger.heldShares(S, '2330', 'Cash'), 0);
    // Sell at 130: 130,000 - fee 185 - tax 390 - loan 74,000 = 55,425.
    const sell = ledger.book(stock({ day: TUE, action: 'Sell', price: 130, shares: 1000, cond: 'MarginTrading' }));
    assert.deepEqual(amounts(sell), [55_425]);
    const [realized] = ledger.stockRealized(S);
    // pnl = 129,425 - 123,675 = 5,750: what the two cash entries add up to.
    assert.equal(realized!.record.pnl, 5_750);
    assert.equal(realized!.details.at(-1)!.rep_margintrading_amt, 74_000);
  });

  test('a margin sell beyond the margin position is refused', () => {
    const ledger = newLedger();
    ledger.book(stock({ day: MON, action: 'Buy', price: 100, shares: 1000, cond: 'MarginTrading' }));
    assert.throws(
      () => ledger.book(stock({ day: MON, action: 'Sell', price: 100, shares: 2000, cond: 'MarginTrading' })),
      /closes only 1000 held shares/,
    );
    assert.equal(ledger.heldShares(S, '2330', 'MarginTrading'), 1000);
    assert.equal(ledger.stockRealized(S).length, 0);
  });

  test('a short sale posts 90% margin and keeps the proceeds as collateral until the cover', () => {
    const ledger = newLedger();
    // Sell 1 lot at 80 = 80,000: margin 72,000; fee 114; tax 240; lending fee 0.08% = 64; collateral 79,582.
    const sell = ledger.book(stock({ day: MON, action: 'Sell', price: 80, shares: 1000, cond: 'ShortSelling' }));
    assert.deepEqual(amounts(sell), [-72_000]);
    const [lot] = ledger.openStockLots(S, '2330', 'ShortSelling', 'Sell');
    assert.deepEqual(
      { margin: lot!.shortMargin, collateral: lot!.collateral, lending: lot!.borrowFee, tax: lot!.tax },
      { margin: 72_000, collateral: 79_582, lending: 64, tax: 240 },
    );
    assert.equal(ledger.heldShares(S, '2330', 'ShortSelling'), 1000);
    // Cover at 75 = 75,000; fee 106.875 -> 106: the account gets 72,000 + 79,582 - 75,106 = 76,476.
    const cover = ledger.book(stock({ day: TUE, action: 'Buy', price: 75, shares: 1000, cond: 'ShortSelling' }));
    assert.deepEqual(amounts(cover), [76_476]);
    const [realized] = ledger.stockRealized(S);
    assert.equal(realized!.record.pnl, 79_582 - 75_106);
    assert.deepEqual(
      [
        realized!.details.at(-1)!.rep_margin,
        realized!.details.at(-1)!.rep_collateral,
        realized!.details[0]!.shortselling_fee,
      ],
      [72_000, 79_582, 64],
    );
  });
});

describe('futures and options', () => {
  test('a TXF round trip: fee per contract and 0.002% tax each side, realized P&L counts at once', () => {
    const ledger = newLedger();
    // Buy 1 at 22,000: fee 60; tax 22,000 x 200 x 0.00002 = 88.
    const buy = ledger.book(derivative({ day: MON, action: 'Buy', price: 22_000, quantity: 1 }));
    assert.deepEqual(amounts(buy), [-60, -88]);
    assert.ok(buy.cash.every((entry) => entry.settleDate === null));
    assert.equal(ledger.netContracts(F, 'TXFL6'), 1);
    // Sell at 22,050: fee 60, tax 88.2 -> 88; gross 50 x 200 = 10,000.
    const sell = ledger.book(derivative({ day: TUE, action: 'Sell', price: 22_050, quantity: 1 }));
    assert.deepEqual(amounts(sell), [-60, -88, 10_000]);
    const [realized] = ledger.futureRealized(F);
    assert.deepEqual(realized!.record, {
      id: 1,
      code: 'TXFL6',
      quantity: 1,
      pnl: 10_000 - 60 - 88 - 60 - 88,
      date: TUE,
      entry_price: 22_000,
      cover_price: 22_050,
      tax: 176,
      fee: 120,
      direction: 'Buy',
    });
    assert.equal(ledger.cash(F), STARTING_COLLATERAL + realized!.record.pnl);
  });

  test('a deal larger than the position closes it and opens the other way under a new id', () => {
    const ledger = newLedger();
    const open = ledger.book(derivative({ day: MON, action: 'Buy', price: 22_000, quantity: 1 }));
    const flip = ledger.book(derivative({ day: MON, action: 'Sell', price: 21_990, quantity: 3 }));
    assert.equal(ledger.netContracts(F, 'TXFL6'), -2);
    const [position] = ledger.futuresPositions(F);
    assert.equal(position!.direction, 'Sell');
    assert.notEqual(position!.id, (open.positions[0]!.record as { id: number }).id);
    // The 3-contract fee (180) goes 60 to the closed contract and 120 to the two opened.
    assert.equal(ledger.futureRealized(F)[0]!.record.fee, 60 + 60);
    assert.equal(position!.lots[0]!.fee, 120);
    assert.equal(flip.positions.length, 1);
    assert.equal((flip.positions[0]!.record as { quantity: number }).quantity, 2);
  });

  test('options pay the premium on a buy and receive it on the sell, tax 0.1% of premium', () => {
    const ledger = newLedger();
    // Buy 2 at 150 points x 50 = 15,000; fee 25 x 2 = 50; tax 15.
    const buy = ledger.book(derivative({ day: MON, action: 'Buy', price: 150, quantity: 2, option: true }));
    assert.deepEqual(amounts(buy), [-50, -15, -15_000]);
    // Sell 2 at 180 = 18,000; fee 50; tax 18.
    const sell = ledger.book(derivative({ day: MON, action: 'Sell', price: 180, quantity: 2, option: true }));
    assert.deepEqual(amounts(sell), [-50, -18, 18_000]);
    // pnl = 3,000 - 50 - 15 - 50 - 18 = 2,867, which is also what the cash moved.
    assert.equal(ledger.futureRealized(F)[0]!.record.pnl, 2_867);
    assert.equal(ledger.cash(F), STARTING_COLLATERAL + 2_867);
  });
});

describe('booking is deterministic', () => {
  const day = (i: number) => [MON, TUE, WED, THU, NEXT_MON][i % 5]!;
  const fills = (): BookedFill[] => {
    serial = 0;
    return [
      stock({ day: day(0), action: 'Buy', price: 100, shares: 2000 }),
      stock({ day: day(0), action: 'Buy', price: 50, shares: 1000, cond: 'MarginTrading', code: '2317' }),
      stock({ day: day(1), action: 'Sell', price: 101, shares: 1500 }),
      stock({ day: day(1), action: 'Sell', price: 40, shares: 1000, cond: 'ShortSelling', code: '2603' }),
      stock({ day: day(2), action: 'Buy', price: 38, shares: 1000, cond: 'ShortSelling', code: '2603' }),
      stock({ day: day(2), action: 'Sell', price: 99, shares: 500 }),
      derivative({ day: day(0), action: 'Buy', price: 22_000, quantity: 2 }),
      derivative({ day: day(1), action: 'Sell', price: 22_100, quantity: 3 }),
    ];
  };

  test('replaying the same fills rebuilds the same changes, positions, ids and realized records', () => {
    const first = newLedger();
    const second = newLedger();
    const firstChanges = fills().map((fill) => first.book(fill));
    const secondChanges = fills().map((fill) => second.book(fill));
    assert.deepEqual(secondChanges, firstChanges);
    for (const key of [S, F]) {
      assert.deepEqual(second.stockPositions(key), first.stockPositions(key));
      assert.deepEqual(second.futuresPositions(key), first.futuresPositions(key));
      assert.deepEqual(second.stockRealized(key), first.stockRealized(key));
      assert.deepEqual(second.futureRealized(key), first.futureRealized(key));
      assert.equal(second.cash(key), first.cash(key));
    }
    assert.deepEqual(
      first.stockRealized(S).map((r) => r.record.id),
      [1, 2, 3],
    );
  });

  test('a changed position is journaled with its snapshot, a closed one as null', () => {
    const ledger = newLedger();
    const open = ledger.book(stock({ day: MON, action: 'Buy', price: 100, shares: 1000 }));
    assert.deepEqual(
      open.positions.map((p) => [p.accountKey, p.key]),
      [[S, '2330|Buy|Cash']],
    );
    assert.equal((open.positions[0]!.record as { shares: number }).shares, 1000);
    const close = ledger.book(stock({ day: TUE, action: 'Sell', price: 100, shares: 1000 }));
    assert.deepEqual(close.positions, [{ accountKey: S, key: '2330|Buy|Cash', record: null }]);
  });
});

describe('invariants over random deals', () => {
  const CODES = ['2330', '2317'] as const;
  const CONDS = ['Cash', 'MarginTrading', 'ShortSelling'] as const;
  const stockDeal = fc.record({
    day: fc.constantFrom(MON, TUE, WED),
    code: fc.constantFrom(...CODES),
    cond: fc.constantFrom(...CONDS),
    action: fc.constantFrom('Buy' as const, 'Sell' as const),
    price: fc.integer({ min: 100, max: 2000 }).map((tenths) => tenths / 10),
    shares: fc.oneof(
      fc.integer({ min: 1, max: 999 }),
      fc.integer({ min: 1, max: 5 }).map((lots) => lots * 1000),
    ),
    daytradeShort: fc.boolean(),
  });

  /** Margin sells and short covers only close what is held: the orders engine refuses the rest. */
  function clamp(ledger: Ledger, deal: StockDeal & { cond: StockOrderCond; code: string }): StockDeal | null {
    const closesOnly =
      (deal.cond === 'MarginTrading' && deal.action === 'Sell') ||
      (deal.cond === 'ShortSelling' && deal.action === 'Buy');
    if (!closesOnly) return deal;
    const held = ledger.heldShares(S, deal.code, deal.cond);
    return held === 0 ? null : { ...deal, shares: Math.min(deal.shares, held) };
  }

  test('cash is the start plus every entry, and positions hold the signed sum of the deals', () => {
    fc.assert(
      fc.property(fc.array(stockDeal, { maxLength: 40 }), (deals) => {
        const ledger = newLedger();
        let entries = 0;
        const signed = new Map<string, number>();
        for (const raw of [...deals].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0))) {
          const deal = clamp(ledger, raw);
          if (deal === null) continue;
          const changes = ledger.book(stock({ ...deal, lot: deal.shares < 1000 ? 'IntradayOdd' : 'Common' }));
          entries += changes.cash.reduce((sum, entry) => sum + entry.amount, 0);
          const key = `${deal.code}|${deal.cond}`;
          signed.set(key, (signed.get(key) ?? 0) + (deal.action === 'Buy' ? deal.shares : -deal.shares));
        }
        assert.equal(ledger.cash(S), STARTING_CASH + entries);
        for (const code of CODES) {
          for (const cond of CONDS) {
            const long = ledger.openStockLots(S, code, cond, 'Buy').reduce((sum, lot) => sum + lot.shares, 0);
            const short = ledger.openStockLots(S, code, cond, 'Sell').reduce((sum, lot) => sum + lot.shares, 0);
            assert.equal(long - short, signed.get(`${code}|${cond}`) ?? 0, `${code} ${cond}`);
          }
        }
      }),
    );
  });

  test('once every position is closed, the cash moved equals the realized P&L', () => {
    fc.assert(
      fc.property(fc.array(stockDeal, { maxLength: 30 }), (deals) => {
        const ledger = newLedger();
        for (const raw of deals) {
          const deal = clamp(ledger, { ...raw, day: MON });
          if (deal !== null) ledger.book(stock({ ...deal, lot: deal.shares < 1000 ? 'IntradayOdd' : 'Common' }));
        }
        for (const position of [...ledger.stockPositions(S)]) {
          const shares = position.lots.reduce((sum, lot) => sum + lot.shares, 0);
          const action = position.direction === 'Buy' ? 'Sell' : 'Buy';
          ledger.book(stock({ day: TUE, action, price: 77.7, shares, code: position.code, cond: position.cond }));
        }
        assert.equal(ledger.stockPositions(S).length, 0);
        const pnl = ledger.stockRealized(S).reduce((sum, r) => sum + r.record.pnl, 0);
        assert.equal(ledger.cash(S) - STARTING_CASH, pnl);
      }),
    );
  });

  test('futures and options: flat positions leave exactly the realized P&L in cash', () => {
    const deal = fc.record({
      option: fc.boolean(),
      action: fc.constantFrom('Buy' as const, 'Sell' as const),
      price: fc.integer({ min: 50, max: 500 }),
      quantity: fc.integer({ min: 1, max: 5 }),
    });
    fc.assert(
      fc.property(fc.array(deal, { maxLength: 30 }), (deals) => {
        const ledger = newLedger();
        for (const d of deals) ledger.book(derivative({ ...d, day: MON }));
        for (const position of [...ledger.futuresPositions(F)]) {
          const quantity = position.lots.reduce((sum, lot) => sum + lot.quantity, 0);
          const action = position.direction === 'Buy' ? 'Sell' : 'Buy';
          ledger.book(derivative({ day: TUE, action, price: 123, quantity, option: position.securityType === 'OPT' }));
        }
        const pnl = ledger.futureRealized(F).reduce((sum, r) => sum + r.record.pnl, 0);
        assert.equal(ledger.cash(F) - STARTING_COLLATERAL, pnl);
      }),
    );
  });

  test('replaying deals (a restart) leaves the state booking them leaves, without the journal rows', () => {
    const deal = fc.record({
      stock: fc.boolean(),
      action: fc.constantFrom('Buy' as const, 'Sell' as const),
      price: fc.integer({ min: 50, max: 500 }),
      quantity: fc.integer({ min: 1, max: 5 }),
      day: fc.constantFrom(MON, TUE, WED),
    });
    fc.assert(
      fc.property(fc.array(deal, { maxLength: 40 }), (deals) => {
        const fills = deals.map((d) =>
          d.stock
            ? stock({ day: d.day, action: d.action, price: d.price, shares: d.quantity * 1000 })
            : derivative({ day: d.day, action: d.action, price: d.price, quantity: d.quantity }),
        );
        const booked = newLedger();
        const replayed = newLedger();
        for (const fill of fills) {
          booked.book(fill);
          replayed.replay(fill);
        }
        for (const account of [S, F]) {
          assert.equal(replayed.cash(account), booked.cash(account));
          assert.deepEqual(replayed.cashEntries(account), booked.cashEntries(account));
        }
        assert.deepEqual(replayed.stockPositions(S), booked.stockPositions(S));
        assert.deepEqual(replayed.futuresPositions(F), booked.futuresPositions(F));
        assert.deepEqual(replayed.stockRealized(S), booked.stockRealized(S));
        assert.deepEqual(replayed.futureRealized(F), booked.futureRealized(F));
      }),
    );
  });
});

describe('shares held at the end of each day', () => {
  test('follow every buy and sell, kept from the last record rather than summed over the lots', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ day: fc.constantFrom(MON, TUE, WED, THU), buy: fc.boolean(), lots: fc.nat(3) }), {
          maxLength: 30,
        }),
        (moves) => {
          const ledger = newLedger();
          const expected = new Map<string, number>();
          let held = 0;
          for (const { day, buy, lots } of [...moves].sort((a, b) => a.day.localeCompare(b.day))) {
            const shares = Math.min((lots + 1) * 1000, buy ? Number.POSITIVE_INFINITY : held);
            if (shares === 0) continue;
            ledger.book(stock({ day, action: buy ? 'Buy' : 'Sell', price: 100, shares }));
            held += buy ? shares : -shares;
            expected.set(day, held);
          }
          const position = ledger.stockPositions(S)[0];
          if (!position) return held === 0;
          for (const day of [TUE, WED, THU, NEXT_MON]) {
            const before = [...expected].filter(([d]) => d < day).at(-1)?.[1] ?? 0;
            assert.equal(ledger.sharesHeldBefore(S, position, day), before, `held before ${day}`);
          }
          return ledger.heldShares(S, '2330', 'Cash') === held;
        },
      ),
      { numRuns: 200 },
    );
  });
});
