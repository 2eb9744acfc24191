import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  type OrderChange,
  type OrderChangeContext,
  orderStillWorking,
  priceChangeAllowed,
  reductionWithinOpen,
} from '../../src/domain/order-change-rules.js';
import {
  insufficientSharesMessage,
  OP_CODE_COMBO_CONDITION,
  OP_CODE_MARKET_ROD,
  OP_CODE_REJECTED,
  SHIOAJI_MESSAGES,
} from '../../src/domain/order-messages.js';
import {
  blockTradeUnsupported,
  type ComboOrderContext,
  cashSufficient,
  comboDuringContinuous,
  contractQuantity,
  coverWithinPosition,
  dayTradeEligible,
  emergingUnsupported,
  type FuturesOrderContext,
  fixingAtClose,
  futuresOrderMarginNeed,
  limitPriceValid,
  MAX_LOTS_PER_ORDER,
  marginPurchaseAllowed,
  marginSufficient,
  type OrderViolation,
  oddLotConditions,
  optionComboConditions,
  priceOnTickGrid,
  priceWithinLimits,
  type SessionPhase,
  type StockOrderContext,
  sblShortUnsupported,
  sellWithinHoldings,
  shortSaleAllowed,
  shortSaleAtOrAboveReference,
  stockAuctionOrderTypes,
  stockOrderCashNeed,
  stockQuantity,
  taifexMarketNotRod,
  taifexPreOpenOrderTypes,
} from '../../src/domain/order-rules.js';
import { changeViolations, orderViolations } from '../../src/domain/order-violations.js';
import type { ComboOrderRequest, FuturesOrderRequest, StockOrderRequest } from '../../src/domain/orders.js';
import { taifexClosedOrderTypes } from '../../src/domain/taifex-session-rules.js';
import {
  percentLimits,
  roundDownToTick,
  STOCK_TICKS,
  type TickTable,
  TXO_PREMIUM_TICKS,
  tickAt,
} from '../../src/domain/ticks.js';

const firstViolation = (ctx: Parameters<typeof orderViolations>[0]) => orderViolations(ctx)[0] ?? null;

const ONE_POINT: TickTable = [{ min: 0, max: null, tick: 1 }];

// 2330 with a reference of 1,000: limits 1,100 / 900, tick 5 from 1,000 up and 1 below.
function stock(
  order: Partial<StockOrderRequest> = {},
  rest: Partial<Omit<StockOrderContext, 'order' | 'instrument'>> & {
    instrument?: Partial<StockOrderContext['instrument']>;
  } = {},
): StockOrderContext {
  return {
    market: 'stock',
    order: {
      action: 'Buy',
      price: 1000,
      quantity: 1,
      price_type: 'LMT',
      order_type: 'ROD',
      order_lot: 'Common',
      order_cond: 'Cash',
      daytrade_short: false,
      custom_field: '',
      ...order,
    },
    instrument: {
      securityType: 'STK',
      exchange: 'TSE',
      code: '2330',
      ticks: STOCK_TICKS,
      limitUp: 1100,
      limitDown: 900,
      referencePrice: 1000,
      dayTrade: 'Yes',
      closePrice: 1005,
      marginLoanRatio: 60,
      shortMarginRatio: 90,
      marginShortable: true,
      belowReferenceShortable: false,
      marginQuotaLots: 100,
      shortQuotaLots: 100,
      ...rest.instrument,
    },
    phase: rest.phase ?? 'continuous',
    account: rest.account ?? { availableCash: 10_000_000, holdings: { cash: 5000, margin: 2000, short: 1000 } },
  };
}

// TXFL6 with a reference of 41,636: limits 45,799 / 37,473, tick 1 point.
function futures(
  order: Partial<FuturesOrderRequest> = {},
  rest: Partial<Omit<FuturesOrderContext, 'order' | 'instrument'>> & {
    instrument?: Partial<FuturesOrderContext['instrument']>;
  } = {},
): FuturesOrderContext {
  return {
    market: 'futures',
    order: {
      action: 'Buy',
      price: 41_636,
      quantity: 1,
      price_type: 'LMT',
      order_type: 'ROD',
      octype: 'Auto',
      custom_field: '',
      ...order,
    },
    instrument: {
      securityType: 'FUT',
      exchange: 'TAIFEX',
      code: 'TXFL6',
      ticks: ONE_POINT,
      limitUp: 45_799,
      limitDown: 37_473,
      referencePrice: 41_636,
      multiplier: 200,
      marginPerContract: 338_000,
      ...rest.instrument,
    },
    phase: rest.phase ?? 'continuous',
    account: rest.account ?? { availableMargin: 1_000_000, coverableContracts: 0 },
  };
}

// A TXO call with a reference premium of 150 and the index near 41,700: limits 4,320 / 0.1.
const option = (
  order: Partial<FuturesOrderRequest> = {},
  account = { availableMargin: 100_000, coverableContracts: 0 },
) =>
  futures(
    { price: 150, ...order },
    {
      instrument: {
        securityType: 'OPT',
        code: 'TXO44000L6',
        ticks: TXO_PREMIUM_TICKS,
        limitUp: 4320,
        limitDown: 0.1,
        referencePrice: 150,
        multiplier: 50,
        marginPerContract: 88_500,
      },
      account,
    },
  );

function combo(order: Partial<ComboOrderRequest> = {}, rest: Partial<ComboOrderContext> = {}): ComboOrderContext {
  return {
    market: 'combo',
    order: {
      action: 'Buy',
      price: 52,
      quantity: 1,
      price_type: 'LMT',
      order_type: 'IOC',
      octype: 'Auto',
      custom_field: '',
      ...order,
    },
    comboType: 'PriceSpread',
    securityType: 'OPT',
    phase: 'continuous',
    ...rest,
  };
}

function change(
  what: OrderChange,
  rest: { status?: Partial<OrderChangeContext['status']>; order?: Partial<OrderChangeContext['order']> } = {},
): OrderChangeContext {
  return {
    change: what,
    order: { price_type: 'LMT', order_lot: 'Common', ...rest.order },
    status: { status: 'Submitted', order_quantity: 5, deal_quantity: 2, ...rest.status },
    instrument: { ticks: STOCK_TICKS, limitUp: 1100, limitDown: 900 },
  };
}

const byRule = ({ rule, message }: OrderViolation) => [rule, message];

function fails(found: OrderViolation | null, rule: string, message: string | RegExp, opCode = OP_CODE_REJECTED) {
  assert.ok(found, `expected ${rule} to fail`);
  assert.equal(found.rule, rule);
  if (typeof message === 'string') assert.equal(found.message, message);
  else assert.match(found.message, message);
  assert.equal(found.opCode, opCode);
}

describe('price rules', () => {
  it('a limit price must be a positive number (價格錯誤)', () => {
    assert.equal(limitPriceValid(stock()), null);
    assert.equal(limitPriceValid(stock({ price_type: 'MKT', price: 0 })), null);
    fails(limitPriceValid(stock({ price: 0 })), 'limitPriceValid', '價格錯誤');
    fails(limitPriceValid(stock({ price: -5 })), 'limitPriceValid', '價格錯誤');
    fails(limitPriceValid(stock({ price: Number.NaN })), 'limitPriceValid', '價格錯誤');
  });

  it('a limit price must sit on the tick grid of its band (價格檔數錯誤)', () => {
    assert.equal(priceOnTickGrid(stock({ price: 1005 })), null);
    assert.equal(priceOnTickGrid(stock({ price: 999 })), null);
    fails(priceOnTickGrid(stock({ price: 1001 })), 'priceOnTickGrid', '價格檔數錯誤');
    fails(priceOnTickGrid(stock({ price: 999.5 })), 'priceOnTickGrid', '價格檔數錯誤');
    assert.equal(priceOnTickGrid(option({ price: 9.9 })), null);
    fails(priceOnTickGrid(option({ price: 10.2 })), 'priceOnTickGrid', '價格檔數錯誤');
    assert.equal(priceOnTickGrid(futures({ price: 41_637 })), null);
    fails(priceOnTickGrid(futures({ price: 41_636.5 })), 'priceOnTickGrid', '價格檔數錯誤');
  });

  it('a limit price must lie within the day limits, both included (價格超過漲跌幅範圍)', () => {
    assert.equal(priceWithinLimits(stock({ price: 1100 })), null);
    assert.equal(priceWithinLimits(stock({ price: 900 })), null);
    fails(priceWithinLimits(stock({ price: 1105 })), 'priceWithinLimits', '價格超過漲跌幅範圍');
    fails(priceWithinLimits(stock({ price: 899 })), 'priceWithinLimits', '價格超過漲跌幅範圍');
    fails(priceWithinLimits(futures({ price: 45_800 })), 'priceWithinLimits', '價格超過漲跌幅範圍');
  });

  it('market orders carry no price to check', () => {
    for (const rule of [priceOnTickGrid, priceWithinLimits]) {
      assert.equal(rule(stock({ price_type: 'MKT', price: 1234.5 })), null);
      assert.equal(rule(futures({ price_type: 'MKP', order_type: 'IOC', price: 1 })), null);
    }
  });

  it('passes every on-grid price inside the limits, for any reference', () => {
    const reference = fc.integer({ min: 100, max: 5_000_000 }).map((n) => roundDownToTick(STOCK_TICKS, n / 100));
    fc.assert(
      fc.property(reference, fc.double({ min: 0, max: 1, noNaN: true }), (ref, at) => {
        const { limitUp, limitDown } = percentLimits(STOCK_TICKS, ref, 0.1);
        const price = Math.max(limitDown, roundDownToTick(STOCK_TICKS, limitDown + (limitUp - limitDown) * at));
        const ctx = stock({ price }, { instrument: { limitUp, limitDown, referencePrice: ref } });
        assert.equal(limitPriceValid(ctx), null);
        assert.equal(priceOnTickGrid(ctx), null, `${price} on grid`);
        assert.equal(priceWithinLimits(ctx), null, `${price} in [${limitDown}, ${limitUp}]`);
      }),
    );
  });

  it('fails every price half a tick off the grid', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 5_000_000 }), (n) => {
        const onGrid = roundDownToTick(STOCK_TICKS, n / 100);
        const off = onGrid + tickAt(STOCK_TICKS, onGrid) / 2;
        fails(priceOnTickGrid(stock({ price: off })), 'priceOnTickGrid', '價格檔數錯誤');
      }),
    );
  });
});

describe('stock support and quantity rules', () => {
  it('BlockTrade is not supported in simulation', () => {
    assert.equal(blockTradeUnsupported(stock()), null);
    fails(
      blockTradeUnsupported(stock({ order_lot: 'BlockTrade' })),
      'blockTradeUnsupported',
      'BlockTrade orders are not supported in simulation; use order_lot Common, Fixing, Odd or IntradayOdd',
    );
  });

  it('emerging-board orders are not supported in simulation', () => {
    assert.equal(emergingUnsupported(stock()), null);
    const message = 'emerging-board (興櫃, OES) orders are not supported in simulation';
    fails(emergingUnsupported(stock({ order_cond: 'Emerging' })), 'emergingUnsupported', message);
    fails(emergingUnsupported(stock({}, { instrument: { exchange: 'OES' } })), 'emergingUnsupported', message);
  });

  it('short sales of borrowed securities (SBLShort, SBLShortPriceExempt) are refused in simulation, saying why', () => {
    assert.equal(sblShortUnsupported(stock({ order_cond: 'ShortSelling' })), null);
    for (const cond of ['SBLShort', 'SBLShortPriceExempt'] as const) {
      const refused = sblShortUnsupported(stock({ action: 'Sell', order_cond: cond }));
      assert.equal(refused?.rule, 'sblShortUnsupported');
      assert.match(refused?.message ?? '', new RegExp(`^${cond} .* not supported in simulation.*ShortSelling`));
    }
  });

  it('board-lot orders carry 1 to 499 whole lots', () => {
    assert.equal(stockQuantity(stock({ quantity: 1 })), null);
    assert.equal(stockQuantity(stock({ quantity: MAX_LOTS_PER_ORDER })), null);
    const message = (q: number) =>
      `Common orders count lots of 1,000 shares: quantity must be 1 to 499 lots per order, got ${q}`;
    fails(stockQuantity(stock({ quantity: 500 })), 'stockQuantity', message(500));
    fails(stockQuantity(stock({ quantity: 0 })), 'stockQuantity', message(0));
    fails(stockQuantity(stock({ quantity: 1.5 })), 'stockQuantity', message(1.5));
    fails(stockQuantity(stock({ order_lot: 'Fixing', quantity: 500 })), 'stockQuantity', /^Fixing orders count lots/);
  });

  it('odd-lot orders carry 1 to 999 shares', () => {
    assert.equal(stockQuantity(stock({ order_lot: 'IntradayOdd', quantity: 1 })), null);
    assert.equal(stockQuantity(stock({ order_lot: 'Odd', quantity: 999 })), null);
    fails(
      stockQuantity(stock({ order_lot: 'IntradayOdd', quantity: 1000 })),
      'stockQuantity',
      'odd-lot orders (IntradayOdd) count shares: quantity must be 1 to 999, got 1000',
    );
    fails(stockQuantity(stock({ order_lot: 'Odd', quantity: 0 })), 'stockQuantity', /must be 1 to 999, got 0$/);
  });

  it('odd-lot orders are LMT ROD in cash only', () => {
    assert.equal(oddLotConditions(stock({ order_lot: 'IntradayOdd', quantity: 10 })), null);
    assert.equal(oddLotConditions(stock({ price_type: 'MKT', order_type: 'IOC' })), null, 'Common is not concerned');
    fails(
      oddLotConditions(stock({ order_lot: 'IntradayOdd', quantity: 10, order_type: 'IOC' })),
      'oddLotConditions',
      'odd-lot orders (IntradayOdd) accept only price_type LMT with order_type ROD, got LMT IOC',
    );
    fails(
      oddLotConditions(stock({ order_lot: 'Odd', quantity: 10, price_type: 'MKT' })),
      'oddLotConditions',
      'odd-lot orders (Odd) accept only price_type LMT with order_type ROD, got MKT ROD',
    );
    fails(
      oddLotConditions(stock({ order_lot: 'Odd', quantity: 10, order_cond: 'MarginTrading' })),
      'oddLotConditions',
      'odd-lot orders (Odd) accept only order_cond Cash, got MarginTrading',
    );
  });

  it('Fixing orders trade LMT ROD at the close price only', () => {
    assert.equal(fixingAtClose(stock({ order_lot: 'Fixing', price: 1005 })), null);
    assert.equal(fixingAtClose(stock({ price: 1000 })), null, 'Common is not concerned');
    fails(
      fixingAtClose(stock({ order_lot: 'Fixing', price: 1000 })),
      'fixingAtClose',
      'Fixing orders trade at the close price 1005 with price_type LMT and order_type ROD, got LMT ROD at 1000',
    );
    fails(
      fixingAtClose(stock({ order_lot: 'Fixing', price: 1005, order_type: 'IOC' })),
      'fixingAtClose',
      /got LMT IOC at 1005$/,
    );
    fails(
      fixingAtClose(stock({ order_lot: 'Fixing', price: 1005 }, { instrument: { closePrice: null }, phase: 'closed' })),
      'fixingAtClose',
      "Fixing orders trade at the day's close price, which is not known yet; place them after the close (14:00-14:30)",
    );
    fails(
      fixingAtClose(stock({ order_lot: 'Fixing', price: 1005 }, { instrument: { closePrice: null } })),
      'fixingAtClose',
      /always-open clock never closes; run the simulator with SJ_SIM_CLOCK=exchange/,
    );
  });
});

describe('stock session rule', () => {
  const auctionPhases: SessionPhase[] = ['pre-open', 'closing-auction', 'after-hours', 'closed'];

  it('takes every price type and order type in continuous trading', () => {
    for (const price_type of ['LMT', 'MKT', 'MKP'] as const) {
      for (const order_type of ['ROD', 'IOC', 'FOK'] as const) {
        assert.equal(stockAuctionOrderTypes(stock({ price_type, order_type })), null);
      }
    }
  });

  it('takes only LMT ROD in a call auction (集合競價時段不可輸入市價／ IOC ／ FOK 委託)', () => {
    for (const phase of auctionPhases) {
      assert.equal(stockAuctionOrderTypes(stock({}, { phase })), null);
      for (const order of [
        { price_type: 'MKT' as const },
        { order_type: 'IOC' as const },
        { order_type: 'FOK' as const },
      ]) {
        fails(
          stockAuctionOrderTypes(stock(order, { phase })),
          'stockAuctionOrderTypes',
          '集合競價時段不可輸入市價／ IOC ／ FOK 委託',
        );
      }
      fails(stockAuctionOrderTypes(stock({ price_type: 'MKP' }, { phase })), 'stockAuctionOrderTypes', /^集合競價/);
    }
  });
});

describe('stock eligibility and credit rules', () => {
  it('sell-first day trading needs day_trade Yes (該商品非當沖)', () => {
    assert.equal(dayTradeEligible(stock({ action: 'Sell', daytrade_short: true })), null);
    assert.equal(dayTradeEligible(stock({ action: 'Buy' }, { instrument: { dayTrade: 'No' } })), null);
    assert.equal(dayTradeEligible(stock({ action: 'Sell' }, { instrument: { dayTrade: 'No' } })), null);
    for (const dayTrade of ['OnlyBuy', 'No'] as const) {
      fails(
        dayTradeEligible(stock({ action: 'Sell', daytrade_short: true }, { instrument: { dayTrade } })),
        'dayTradeEligible',
        '該商品非當沖',
      );
    }
  });

  it('margin purchases need a marginable stock and quota', () => {
    const buy = { order_cond: 'MarginTrading' as const, quantity: 100 };
    assert.equal(marginPurchaseAllowed(stock(buy)), null);
    assert.equal(marginPurchaseAllowed(stock({ quantity: 200 }, { instrument: { marginQuotaLots: 0 } })), null);
    fails(
      marginPurchaseAllowed(stock(buy, { instrument: { marginLoanRatio: 0 } })),
      'marginPurchaseAllowed',
      'margin trading (MarginTrading) is not available for 2330',
    );
    fails(
      marginPurchaseAllowed(stock({ ...buy, quantity: 101 })),
      'marginPurchaseAllowed',
      'margin purchase quota exceeded for 2330: 101 lots ordered, 100 lots left',
    );
  });

  it('short sales need a shortable stock and quota', () => {
    const sell = { action: 'Sell' as const, order_cond: 'ShortSelling' as const, quantity: 100 };
    assert.equal(shortSaleAllowed(stock(sell)), null);
    assert.equal(shortSaleAllowed(stock({ action: 'Sell' }, { instrument: { marginShortable: false } })), null);
    fails(
      shortSaleAllowed(stock(sell, { instrument: { marginShortable: false } })),
      'shortSaleAllowed',
      'short selling (ShortSelling) is not available for 2330',
    );
    fails(
      shortSaleAllowed(stock({ ...sell, quantity: 3 }, { instrument: { shortQuotaLots: 2 } })),
      'shortSaleAllowed',
      'short-selling quota exceeded for 2330: 3 lots ordered, 2 lots left',
    );
  });

  it('short sales below the reference price need below_ref_shortable', () => {
    const sell = { action: 'Sell' as const, order_cond: 'ShortSelling' as const };
    assert.equal(shortSaleAtOrAboveReference(stock({ ...sell, price: 1000 })), null);
    assert.equal(
      shortSaleAtOrAboveReference(stock({ ...sell, price: 995 }, { instrument: { belowReferenceShortable: true } })),
      null,
    );
    assert.equal(shortSaleAtOrAboveReference(stock({ action: 'Sell', price: 995 })), null, 'cash sells may');
    fails(
      shortSaleAtOrAboveReference(stock({ ...sell, price: 995 })),
      'shortSaleAtOrAboveReference',
      'short selling 2330 below the reference price 1000 is not allowed; price must be 1000 or higher',
    );
  });
});

describe('stock holdings and cash rules', () => {
  it('a cash sell may not exceed the shares held (集保賣出餘股數不足)', () => {
    assert.equal(sellWithinHoldings(stock({ action: 'Sell', quantity: 5 })), null);
    assert.equal(sellWithinHoldings(stock({ action: 'Sell', order_lot: 'IntradayOdd', quantity: 999 })), null);
    fails(
      sellWithinHoldings(stock({ action: 'Sell', quantity: 6 })),
      'sellWithinHoldings',
      '集保賣出餘股數不足，餘股數 5000 股',
    );
    const oddOnly = { account: { availableCash: 0, holdings: { cash: 300, margin: 0, short: 0 } } };
    fails(
      sellWithinHoldings(stock({ action: 'Sell', order_lot: 'IntradayOdd', quantity: 301 }, oddOnly)),
      'sellWithinHoldings',
      insufficientSharesMessage(300),
    );
  });

  it('a sell-first day trade and a short sale need no holdings', () => {
    const none = { account: { availableCash: 0, holdings: { cash: 0, margin: 0, short: 0 } } };
    assert.equal(sellWithinHoldings(stock({ action: 'Sell', daytrade_short: true }, none)), null);
    assert.equal(sellWithinHoldings(stock({ action: 'Sell', order_cond: 'ShortSelling' }, none)), null);
    assert.equal(sellWithinHoldings(stock({ action: 'Buy' }, none)), null);
  });

  it('a margin sell closes at most the margin position, a short cover at most the short position', () => {
    assert.equal(sellWithinHoldings(stock({ action: 'Sell', order_cond: 'MarginTrading', quantity: 2 })), null);
    fails(
      sellWithinHoldings(stock({ action: 'Sell', order_cond: 'MarginTrading', quantity: 3 })),
      'sellWithinHoldings',
      'margin sell of 3000 shares exceeds the margin position of 2000 shares',
    );
    assert.equal(sellWithinHoldings(stock({ action: 'Buy', order_cond: 'ShortSelling', quantity: 1 })), null);
    fails(
      sellWithinHoldings(stock({ action: 'Buy', order_cond: 'ShortSelling', quantity: 2 })),
      'sellWithinHoldings',
      'short cover of 2000 shares exceeds the short position of 1000 shares',
    );
  });

  it('values what an order ties up: buy value + fee, the own part of a margin buy, a short sale margin', () => {
    assert.equal(stockOrderCashNeed(stock().order, stock().instrument), 1_001_425);
    // MKT buys are valued at limit-up: 1,100,000 + 1,567.
    assert.equal(stockOrderCashNeed(stock({ price_type: 'MKT', price: 0 }).order, stock().instrument), 1_101_567);
    // Margin purchase of 1 lot at 1,000: the broker lends 60% (600,000); the buyer pays 400,000 + fee.
    assert.equal(stockOrderCashNeed(stock({ order_cond: 'MarginTrading' }).order, stock().instrument), 401_425);
    // Short sale of 1 lot at 1,005: 90% margin of 1,005,000 is 904,500.
    const short = stock({ action: 'Sell', order_cond: 'ShortSelling', price: 1005 });
    assert.equal(stockOrderCashNeed(short.order, short.instrument), 904_500);
    assert.equal(stockOrderCashNeed(stock({ action: 'Sell' }).order, stock().instrument), 0);
    // 7 odd-lot shares at 1,000: 7,000 + fee 9.
    const odd = stock({ order_lot: 'IntradayOdd', quantity: 7 });
    assert.equal(stockOrderCashNeed(odd.order, odd.instrument), 7009);
  });

  it('a buy needs the cash it ties up', () => {
    const exact = { account: { availableCash: 1_001_425, holdings: { cash: 0, margin: 0, short: 0 } } };
    assert.equal(cashSufficient(stock({}, exact)), null);
    assert.equal(
      cashSufficient(stock({ action: 'Sell' }, { ...exact, account: { ...exact.account, availableCash: 0 } })),
      null,
    );
    fails(
      cashSufficient(stock({ quantity: 2 }, exact)),
      'cashSufficient',
      'insufficient cash: the order needs NT$2,002,850, available NT$1,001,425',
    );
  });
});

describe('futures and options rules', () => {
  it('quantity is a whole number of contracts', () => {
    assert.equal(contractQuantity(futures({ quantity: 3 })), null);
    fails(
      contractQuantity(futures({ quantity: 0 })),
      'contractQuantity',
      'quantity counts contracts: it must be a whole number of at least 1, got 0',
    );
    fails(contractQuantity(futures({ quantity: 0.5 })), 'contractQuantity', /got 0\.5$/);
  });

  it('TAIFEX rejects MKT with ROD (9938 當日市價單不允許當日有效委託(ROD))', () => {
    assert.equal(taifexMarketNotRod(futures({ price_type: 'MKT', order_type: 'IOC', price: 0 })), null);
    assert.equal(taifexMarketNotRod(futures({ price_type: 'MKP', order_type: 'ROD', price: 0 })), null);
    assert.equal(taifexMarketNotRod(futures()), null);
    fails(
      taifexMarketNotRod(futures({ price_type: 'MKT', order_type: 'ROD', price: 0 })),
      'taifexMarketNotRod',
      '當日市價單不允許當日有效委託(ROD)',
      OP_CODE_MARKET_ROD,
    );
    assert.equal(OP_CODE_MARKET_ROD, '9938');
  });

  it('takes no FOK and no MKP before the open', () => {
    const phase = 'pre-open';
    assert.equal(taifexPreOpenOrderTypes(futures({}, { phase })), null);
    assert.equal(taifexPreOpenOrderTypes(futures({ price_type: 'MKT', order_type: 'IOC' }, { phase })), null);
    fails(
      taifexPreOpenOrderTypes(futures({ order_type: 'FOK' }, { phase })),
      'taifexPreOpenOrderTypes',
      'FOK and MKP orders are not accepted before the TAIFEX open (pre-open auction); use LMT or MKT with ROD or IOC, got LMT FOK',
    );
    fails(
      taifexPreOpenOrderTypes(futures({ price_type: 'MKP', order_type: 'IOC' }, { phase })),
      'taifexPreOpenOrderTypes',
      /got MKP IOC$/,
    );
    assert.equal(taifexPreOpenOrderTypes(futures({ price_type: 'MKP', order_type: 'FOK' })), null);
  });

  it('takes only LMT ROD reservations while TAIFEX is closed, refused as TWSE refuses stock orders', () => {
    assert.equal(taifexClosedOrderTypes(futures({}, { phase: 'closed' })), null);
    for (const [price_type, order_type] of [
      ['MKT', 'IOC'],
      ['LMT', 'IOC'],
      ['LMT', 'FOK'],
      ['MKP', 'IOC'],
    ] as const) {
      const order = { price_type, order_type };
      fails(
        taifexClosedOrderTypes(futures(order, { phase: 'closed' })),
        'taifexClosedOrderTypes',
        '集合競價時段不可輸入市價／ IOC ／ FOK 委託',
      );
      assert.equal(
        stockAuctionOrderTypes(stock(order, { phase: 'closed' }))?.message,
        SHIOAJI_MESSAGES.auctionMarketOrder,
      );
      for (const phase of ['pre-open', 'continuous'] as const) {
        assert.equal(taifexClosedOrderTypes(futures(order, { phase })), null, `${price_type} ${order_type} ${phase}`);
      }
    }
    assert.equal(
      firstViolation(futures({ price_type: 'MKT', order_type: 'IOC' }, { phase: 'closed' }))?.rule,
      'taifexClosedOrderTypes',
    );
  });

  it('Cover closes at most the contracts held on the other side', () => {
    const held = { account: { availableMargin: 0, coverableContracts: 2 } };
    assert.equal(coverWithinPosition(futures({ octype: 'Cover', quantity: 2 }, held)), null);
    assert.equal(coverWithinPosition(futures({ octype: 'Auto', quantity: 3 }, held)), null);
    fails(
      coverWithinPosition(futures({ octype: 'Cover', quantity: 3 }, held)),
      'coverWithinPosition',
      'Cover closes at most the 2 contracts held on the other side, got quantity 3',
    );
  });

  it('values the margin an order ties up: contracts it opens, or an option premium', () => {
    assert.equal(futuresOrderMarginNeed(futures({ quantity: 2 })), 676_000);
    const oneHeld = { account: { availableMargin: 0, coverableContracts: 1 } };
    assert.equal(futuresOrderMarginNeed(futures({ quantity: 2 }, oneHeld)), 338_000, 'Auto closes one first');
    assert.equal(futuresOrderMarginNeed(futures({ quantity: 2, octype: 'New' }, oneHeld)), 676_000);
    assert.equal(futuresOrderMarginNeed(option({ quantity: 2 })), 15_000, 'a buy pays 150 x 50 x 2');
    assert.equal(futuresOrderMarginNeed(option({ action: 'Sell' })), 88_500);
    assert.equal(
      futuresOrderMarginNeed(option({ price_type: 'MKT', order_type: 'IOC', price: 0 })),
      216_000,
      'a market buy is valued at limit-up',
    );
  });

  it('an order needs the margin it ties up', () => {
    assert.equal(marginSufficient(futures({ quantity: 2 })), null);
    assert.equal(marginSufficient(option({ quantity: 6 })), null);
    fails(
      marginSufficient(futures({ quantity: 3 })),
      'marginSufficient',
      'insufficient margin: the order needs NT$1,014,000, available NT$1,000,000',
    );
    fails(marginSufficient(option({ action: 'Sell', quantity: 2 })), 'marginSufficient', /needs NT\$177,000/);
  });
});

describe('combo rules', () => {
  it('combos trade only in continuous trading', () => {
    assert.equal(comboDuringContinuous(combo()), null);
    fails(
      comboDuringContinuous(combo({}, { phase: 'pre-open' })),
      'comboDuringContinuous',
      'combo orders are accepted only in continuous trading, not before the open (pre-open auction)',
    );
  });

  it('option combos are LMT with IOC or FOK (9927 委託條件錯誤)', () => {
    assert.equal(optionComboConditions(combo({ order_type: 'FOK' })), null);
    fails(
      optionComboConditions(combo({ order_type: 'ROD' })),
      'optionComboConditions',
      '委託條件錯誤',
      OP_CODE_COMBO_CONDITION,
    );
    fails(
      optionComboConditions(combo({ price_type: 'MKT', price: 0 })),
      'optionComboConditions',
      '委託條件錯誤',
      '9927',
    );
  });

  it('futures time spreads may rest as ROD', () => {
    const spread = combo({ order_type: 'ROD', price: -35 }, { securityType: 'FUT', comboType: 'TimeSpread' });
    assert.equal(optionComboConditions(spread), null);
    assert.equal(firstViolation(spread), null);
  });
});

describe('firstViolation', () => {
  it('passes a plain order of each market', () => {
    assert.equal(firstViolation(stock()), null);
    assert.equal(firstViolation(stock({ action: 'Sell', quantity: 5 })), null);
    assert.equal(firstViolation(stock({ order_lot: 'IntradayOdd', quantity: 37, price: 999 })), null);
    assert.equal(firstViolation(futures()), null);
    assert.equal(firstViolation(option({ action: 'Sell' })), null);
    assert.equal(firstViolation(combo()), null);
  });

  it('reports support before quantity, quantity before session, session before price', () => {
    assert.equal(firstViolation(stock({ order_lot: 'BlockTrade', quantity: 0 }))?.rule, 'blockTradeUnsupported');
    assert.equal(
      firstViolation(stock({ quantity: 0, price_type: 'MKT' }, { phase: 'pre-open' }))?.rule,
      'stockQuantity',
    );
    assert.equal(
      firstViolation(stock({ order_type: 'IOC', price: 1001 }, { phase: 'closing-auction' }))?.rule,
      'stockAuctionOrderTypes',
    );
  });

  it('reports the tick before the limits, and the price before eligibility and funds', () => {
    assert.equal(firstViolation(stock({ price: 1101 }))?.message, SHIOAJI_MESSAGES.priceOffTick);
    assert.equal(firstViolation(stock({ price: 1105 }))?.message, SHIOAJI_MESSAGES.priceOutsideLimits);
    const poor = { account: { availableCash: 0, holdings: { cash: 0, margin: 0, short: 0 } } };
    assert.equal(firstViolation(stock({ price: 1105 }, poor))?.rule, 'priceWithinLimits');
    assert.equal(firstViolation(stock({}, poor))?.rule, 'cashSufficient');
    assert.equal(
      firstViolation(stock({ action: 'Sell', daytrade_short: true }, { ...poor, instrument: { dayTrade: 'No' } }))
        ?.message,
      '該商品非當沖',
    );
  });

  it('checks futures MKT ROD before the session and the price', () => {
    const found = firstViolation(futures({ price_type: 'MKT', order_type: 'ROD', price: 0 }, { phase: 'pre-open' }));
    assert.equal(found?.opCode, '9938');
    assert.equal(
      firstViolation(futures({ price: 45_800, order_type: 'FOK' }, { phase: 'pre-open' }))?.rule,
      'taifexPreOpenOrderTypes',
    );
    assert.equal(firstViolation(futures({ price: 45_800 }))?.rule, 'priceWithinLimits');
    assert.equal(firstViolation(futures({ quantity: 3 }))?.rule, 'marginSufficient');
  });

  it('checks combos: quantity, MKT ROD, session, conditions', () => {
    assert.equal(firstViolation(combo({ quantity: 0, order_type: 'ROD' }))?.rule, 'contractQuantity');
    assert.equal(firstViolation(combo({ price_type: 'MKT', order_type: 'ROD' }))?.opCode, '9938');
    assert.equal(firstViolation(combo({ order_type: 'ROD' }, { phase: 'pre-open' }))?.rule, 'comboDuringContinuous');
    assert.equal(firstViolation(combo({ order_type: 'ROD' }))?.opCode, '9927');
  });
});

describe('orderViolations: every rule an order breaks', () => {
  const rulesOf = (ctx: Parameters<typeof orderViolations>[0]) => orderViolations(ctx).map((found) => found.rule);

  it('names none for an order that passes', () => {
    assert.deepEqual(orderViolations(stock()), []);
    assert.deepEqual(orderViolations(futures()), []);
    assert.deepEqual(orderViolations(combo()), []);
  });

  it('a stock order over the lot maximum, off the grid and past the limit up, beyond the cash: all four in order', () => {
    const poor = { account: { availableCash: 1_000, holdings: { cash: 0, margin: 0, short: 0 } } };
    const found = orderViolations(stock({ quantity: MAX_LOTS_PER_ORDER + 1, price: 1101 }, poor));
    assert.deepEqual(
      found.map((v) => v.rule),
      ['stockQuantity', 'priceOnTickGrid', 'priceWithinLimits', 'cashSufficient'],
    );
    assert.match(found[0]!.message, /1 to 499 lots per order, got 500/);
    assert.deepEqual(
      found.slice(1, 3).map((v) => v.message),
      [SHIOAJI_MESSAGES.priceOffTick, SHIOAJI_MESSAGES.priceOutsideLimits],
    );
  });

  it('an odd-lot market order of 1,500 shares in the auction: its quantity, its conditions and the session', () => {
    const order = stock(
      { order_lot: 'IntradayOdd', quantity: 1500, price_type: 'MKT', order_type: 'IOC' },
      { phase: 'pre-open' },
    );
    assert.deepEqual(rulesOf(order), ['stockQuantity', 'oddLotConditions', 'stockAuctionOrderTypes']);
  });

  it('a sell-first day trade off the grid on a stock that may not be day traded: price and eligibility', () => {
    const order = stock(
      { action: 'Sell', daytrade_short: true, price: 1003 },
      { instrument: { dayTrade: 'No' }, account: { availableCash: 0, holdings: { cash: 0, margin: 0, short: 0 } } },
    );
    assert.deepEqual(rulesOf(order), ['priceOnTickGrid', 'dayTradeEligible']);
  });

  it('a limit price of 0 is only an invalid price: the grid and the limits say nothing of it', () => {
    assert.deepEqual(rulesOf(stock({ price: 0 })), ['limitPriceValid']);
  });

  it('an order the simulator does not trade is refused for that alone', () => {
    assert.deepEqual(rulesOf(stock({ order_lot: 'BlockTrade', quantity: 0, price: 1101 })), ['blockTradeUnsupported']);
    assert.deepEqual(rulesOf(futures({ quantity: 0, price: 45_800.5 }, { instrument: { expiredOn: '2026-11-18' } })), [
      'contractStillTrading',
    ]);
  });

  it('a futures MKT ROD before the open with a cover beyond the position: op_code 9938 first, then the rest', () => {
    const found = orderViolations(
      futures(
        { price_type: 'MKT', order_type: 'ROD', octype: 'Cover', quantity: 3 },
        { phase: 'pre-open', account: { availableMargin: 0, coverableContracts: 1 } },
      ),
    );
    assert.equal(found[0]?.opCode, OP_CODE_MARKET_ROD);
    assert.deepEqual(
      found.map((v) => v.rule),
      ['taifexMarketNotRod', 'coverWithinPosition', 'marginSufficient'],
    );
  });

  it('an option combo as ROD before the open with no quantity: quantity, session and conditions', () => {
    assert.deepEqual(rulesOf(combo({ quantity: 0, order_type: 'ROD' }, { phase: 'pre-open' })), [
      'contractQuantity',
      'comboDuringContinuous',
      'optionComboConditions',
    ]);
  });
});

describe('cancel and update rules', () => {
  it('a finished order cannot be cancelled or updated', () => {
    assert.equal(orderStillWorking(change({ kind: 'cancel' })), null);
    assert.equal(orderStillWorking(change({ kind: 'cancel' }, { status: { status: 'PartFilled' } })), null);
    assert.equal(orderStillWorking(change({ kind: 'cancel' }, { status: { status: 'PendingSubmit' } })), null);
    const cases = [
      ['Filled', '該委託書已完全成交，不可刪單/改單或改價'],
      ['Cancelled', '委託數量已完全刪除'],
      ['Failed', '該筆委託無法處理，原委託有異常狀況！'],
      ['Inactive', '無原委託內容'],
    ] as const;
    for (const [status, message] of cases) {
      for (const what of [
        { kind: 'cancel' },
        { kind: 'update_price', price: 1000 },
        { kind: 'update_qty', quantity: 1 },
      ] as const) {
        fails(orderStillWorking(change(what, { status: { status } })), 'orderStillWorking', message);
      }
    }
  });

  it('intraday odd-lot, Fixing and market orders cannot change price', () => {
    const reprice: OrderChange = { kind: 'update_price', price: 1005 };
    assert.equal(priceChangeAllowed(change(reprice)), null);
    assert.equal(
      priceChangeAllowed(change({ kind: 'update_qty', quantity: 1 }, { order: { order_lot: 'IntradayOdd' } })),
      null,
    );
    assert.equal(priceChangeAllowed(change(reprice, { order: { price_type: 'LMT', order_lot: undefined } })), null);
    fails(
      priceChangeAllowed(change(reprice, { order: { order_lot: 'IntradayOdd' } })),
      'priceChangeAllowed',
      'IntradayOdd orders cannot change price; reduce the quantity with update_qty or cancel the order',
    );
    fails(
      priceChangeAllowed(change(reprice, { order: { order_lot: 'Fixing' } })),
      'priceChangeAllowed',
      'Fixing orders trade at the close price; their price cannot be changed',
    );
    fails(
      priceChangeAllowed(change(reprice, { order: { price_type: 'MKT' } })),
      'priceChangeAllowed',
      'only LMT orders can change price; this order is MKT',
    );
    fails(
      priceChangeAllowed(change(reprice, { order: { price_type: 'MKP', order_lot: undefined } })),
      'priceChangeAllowed',
      /is MKP$/,
    );
  });

  it('a new price passes every price rule', () => {
    const rulesBroken = (price: number) => changeViolations(change({ kind: 'update_price', price })).map(byRule);
    assert.deepEqual(rulesBroken(1095), []);
    assert.deepEqual(changeViolations(change({ kind: 'cancel' })), []);
    assert.deepEqual(rulesBroken(1002), [['priceOnTickGrid', '價格檔數錯誤']]);
    assert.deepEqual(rulesBroken(1105), [['priceWithinLimits', '價格超過漲跌幅範圍']]);
    assert.deepEqual(rulesBroken(0), [['limitPriceValid', '價格錯誤']]);
    assert.deepEqual(rulesBroken(Number.NaN), [['limitPriceValid', '價格錯誤']]);
    assert.deepEqual(rulesBroken(1107), [
      ['priceOnTickGrid', '價格檔數錯誤'],
      ['priceWithinLimits', '價格超過漲跌幅範圍'],
    ]);
  });

  it('update_qty reduces by 1 up to the open quantity', () => {
    // order_quantity 5, deal_quantity 2: 3 still open.
    assert.equal(reductionWithinOpen(change({ kind: 'update_qty', quantity: 3 })), null);
    assert.equal(reductionWithinOpen(change({ kind: 'update_price', price: 1000 })), null);
    const message = (q: number) =>
      `update_qty reduces the order by quantity: it must be a whole number from 1 to 3 (the quantity still open), got ${q}`;
    fails(reductionWithinOpen(change({ kind: 'update_qty', quantity: 4 })), 'reductionWithinOpen', message(4));
    fails(reductionWithinOpen(change({ kind: 'update_qty', quantity: 0 })), 'reductionWithinOpen', message(0));
    fails(reductionWithinOpen(change({ kind: 'update_qty', quantity: 1.5 })), 'reductionWithinOpen', message(1.5));
  });

  it('accepts every reduction from 1 to the open quantity and nothing beyond', () => {
    const working = fc
      .record({ live: fc.integer({ min: 1, max: 499 }), dealt: fc.nat(498) })
      .filter(({ live, dealt }) => dealt < live);
    fc.assert(
      fc.property(working, fc.integer({ min: 1, max: 499 }), ({ live, dealt }, quantity) => {
        const ctx = change(
          { kind: 'update_qty', quantity },
          { status: { status: dealt > 0 ? 'PartFilled' : 'Submitted', order_quantity: live, deal_quantity: dealt } },
        );
        assert.equal(changeViolations(ctx).length === 0, quantity <= live - dealt);
      }),
    );
  });

  it('changeViolations lists every rule a change breaks; a finished order stops the check', () => {
    const oddLot = { order: { order_lot: 'IntradayOdd' } } as const;
    const filled = change({ kind: 'update_price', price: 1107 }, { status: { status: 'Filled' }, ...oddLot });
    assert.deepEqual(changeViolations(filled).map(byRule), [['orderStillWorking', SHIOAJI_MESSAGES.orderFilled]]);
    assert.deepEqual(
      changeViolations(change({ kind: 'update_price', price: 1107 }, oddLot)).map(({ rule }) => rule),
      ['priceChangeAllowed', 'priceOnTickGrid', 'priceWithinLimits'],
    );
    assert.deepEqual(
      changeViolations(change({ kind: 'update_price', price: 0 }, { order: { price_type: 'MKT' } })).map(byRule),
      [
        ['priceChangeAllowed', 'only LMT orders can change price; this order is MKT'],
        ['limitPriceValid', '價格錯誤'],
      ],
    );
    const reduceTooMuch = change({ kind: 'update_qty', quantity: 4 }, oddLot);
    assert.deepEqual(
      changeViolations(reduceTooMuch).map(({ rule }) => rule),
      ['reductionWithinOpen'],
    );
    assert.deepEqual(changeViolations(change({ kind: 'update_qty', quantity: 3 }, oddLot)), []);
  });
});
