import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SimAccounts } from '../../src/broker/sim/accounts.js';
import { type BookedFill, Ledger } from '../../src/broker/sim/portfolio/ledger.js';
import { type PortfolioMarket, SimPortfolio } from '../../src/broker/sim/portfolio/sim-portfolio.js';
import type { Account } from '../../src/domain/accounts.js';
import { DomainError, InvalidRequestError, NotFoundError } from '../../src/domain/errors.js';
import { stockListingDayAt } from '../../src/domain/listing.js';
import type { StockOrderCond } from '../../src/domain/orders.js';
import type {
  FuturePosition,
  FutureProfitDetail,
  StockPosition,
  StockPositionDetail,
  StockProfitDetail,
  StockProfitLoss,
} from '../../src/domain/portfolio.js';
import type { ClockMode } from '../../src/domain/sessions.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';

const STARTING_CASH = 10_000_000;
const STARTING_COLLATERAL = 2_000_000;
// 2026-11-23 is a Monday; the week has no holiday.
const MON = '2026-11-23';
const TUE = '2026-11-24';
const WED = '2026-11-25';
const THU = '2026-11-26';
const FRI = '2026-11-27';
const SAT = '2026-11-28';
const NEXT_MON = '2026-11-30';

const keyOf = (account: Account) => `${account.broker_id}-${account.account_id}`;

function setup(options: { mode?: ClockMode; prices?: Record<string, number> } = {}) {
  const clock = new ManualClock(taipeiInstant(MON, '10:00'));
  const accounts = new SimAccounts(null);
  const ledger = new Ledger({ startingCash: STARTING_CASH, startingCollateral: STARTING_COLLATERAL });
  const prices: Record<string, number> = {
    '2330': 105,
    '2317': 200,
    TXFL6: 22_100,
    TXO22000L6: 120,
    ...options.prices,
  };
  const market: PortfolioMarket = {
    lastPrice: (code) => {
      const price = prices[code];
      if (price === undefined) throw new Error(`no price for ${code}`);
      return price;
    },
    marginOf: (code) =>
      code.startsWith('TXF') ? { initial: 338_000, maintenance: 259_000 } : { initial: 90_000, maintenance: 70_000 },
    tradingDay: stockListingDayAt,
  };
  const portfolio = new SimPortfolio(ledger, accounts, market, clock, { clockMode: options.mode ?? 'always-open' });
  const stockKey = keyOf(accounts.defaultAccount('S'));
  const futuresKey = keyOf(accounts.defaultAccount('F'));
  let serial = 0;
  const origin = (day: string) => {
    serial++;
    return {
      orderId: `o${serial}`,
      seqno: String(200000 + serial),
      ordno: `B${String(serial).padStart(4, '0')}`,
      dealSeq: 1,
      at: taipeiInstant(day, '10:00') + serial,
      day,
    };
  };
  const buyStock = (
    day: string,
    action: 'Buy' | 'Sell',
    code: string,
    price: number,
    shares: number,
    cond?: StockOrderCond,
  ) =>
    ledger.book({
      accountKey: stockKey,
      ...origin(day),
      code,
      action,
      price,
      quantity: shares,
      stock: {
        cond: cond ?? 'Cash',
        lot: shares % 1000 === 0 ? 'Common' : 'IntradayOdd',
        taxKind: 'stock',
        daytradeShort: false,
        marginLoanRatio: 60,
        shortMarginRatio: 90,
      },
    });
  const tradeDerivative = (day: string, action: 'Buy' | 'Sell', code: string, price: number, quantity: number) => {
    const option = code.startsWith('TXO');
    const fill: BookedFill = {
      accountKey: futuresKey,
      ...origin(day),
      code,
      action,
      price,
      quantity,
      derivative: {
        securityType: option ? 'OPT' : 'FUT',
        root: option ? 'TXO' : 'TXF',
        multiplier: option ? 50 : 200,
        ocType: 'Auto',
      },
    };
    return ledger.book(fill);
  };
  const at = (day: string, time = '10:00') => clock.set(taipeiInstant(day, time));
  return { clock, ledger, portfolio, prices, trade: buyStock, tradeDerivative, at };
}

const S = {};
const F = { account_type: 'F' as const };

describe('account balance and settlements', () => {
  test('the bank balance moves when a deal settles, two trading days later', () => {
    const { portfolio, trade, at } = setup();
    // 2 lots at 100: 200,000 + fee 285.
    trade(MON, 'Buy', '2330', 100, 2000);
    assert.deepEqual(portfolio.accountBalance(S), {
      acc_balance: STARTING_CASH,
      date: '2026-11-23 10:00:00.000000',
      errmsg: '',
    });
    at(TUE);
    assert.equal(portfolio.accountBalance(S).acc_balance, STARTING_CASH);
    at(WED);
    assert.equal(portfolio.accountBalance(S).acc_balance, STARTING_CASH - 200_285);
  });

  test('settlements list today and the next two trading days, across the weekend', () => {
    const { portfolio, trade, at } = setup();
    at(THU);
    // 1 lot at 100: pays 100,142 on Monday (T+2 counts Friday and Monday).
    trade(THU, 'Buy', '2330', 100, 1000);
    assert.deepEqual(portfolio.settlements(S), [
      { date: THU, amount: 0, T: 0 },
      { date: FRI, amount: 0, T: 1 },
      { date: NEXT_MON, amount: -100_142, T: 2 },
    ]);
    at(NEXT_MON);
    assert.deepEqual(portfolio.settlements(S)[0], { date: NEXT_MON, amount: -100_142, T: 0 });
  });
});

describe('positions', () => {
  function twoDaysOfBuying() {
    const world = setup();
    world.trade(MON, 'Buy', '2330', 100, 2000);
    world.trade(MON, 'Buy', '2317', 190, 500);
    world.at(TUE);
    // Fee 104,000 x 0.1425% = 148.2 -> 148.
    world.trade(TUE, 'Buy', '2330', 104, 1000);
    return world;
  }

  test('unit Common counts whole lots and leaves out odd-lot-only holdings; yd_quantity is yesterday, same unit', () => {
    const { portfolio } = twoDaysOfBuying();
    const rows = portfolio.positions(S, 'Common') as StockPosition[];
    assert.equal(rows.length, 1);
    // Value 315,000 at 105: fee 448.875 -> 448, tax 945; cost 200,285 + 104,148. pnl = 313,607 - 304,433 = 9,174.
    assert.deepEqual(rows[0], {
      id: 1,
      code: '2330',
      direction: 'Buy',
      quantity: 3,
      price: 101.33,
      last_price: 105,
      pnl: 9_174,
      yd_quantity: 2,
      cond: 'Cash',
      margin_purchase_amount: 0,
      collateral: 0,
      short_sale_margin: 0,
      interest: 0,
    });
  });

  test('unit Share counts shares, odd lots included', () => {
    const { portfolio } = twoDaysOfBuying();
    const rows = portfolio.positions(S, 'Share') as StockPosition[];
    assert.deepEqual(
      rows.map((row) => [row.code, row.quantity, row.yd_quantity]),
      [
        ['2330', 3000, 2000],
        ['2317', 500, 500],
      ],
    );
  });

  test('position_detail lists the open lots of a position; an unknown id names the open ones', () => {
    const { portfolio } = twoDaysOfBuying();
    const rows = portfolio.positionDetail(S, 1) as StockPositionDetail[];
    assert.deepEqual(
      rows.map((row) => [row.date, row.quantity, row.price, row.last_price, row.fee, row.dseq]),
      [
        [MON, 2000, 200_285, 210_000, 285, 'B0001'],
        [TUE, 1000, 104_148, 105_000, 148, 'B0003'],
      ],
    );
    assert.throws(
      () => portfolio.positionDetail(S, 9),
      (error: unknown) => error instanceof NotFoundError && /open position ids: 1, 2/.test(error.message),
    );
  });

  test('margin and short positions show the loan, the short margin and the collateral', () => {
    const { portfolio, trade } = setup();
    // 1 lot at 100 on margin: loan 60,000. Short 1 lot at 200: margin 180,000; collateral 200,000 - 285 - 600 - 160.
    trade(MON, 'Buy', '2330', 100, 1000, 'MarginTrading');
    trade(MON, 'Sell', '2317', 200, 1000, 'ShortSelling');
    const rows = portfolio.positions(S, 'Common') as StockPosition[];
    assert.deepEqual(
      rows.map((row) => [row.cond, row.direction, row.margin_purchase_amount, row.short_sale_margin, row.collateral]),
      [
        ['MarginTrading', 'Buy', 60_000, 0, 0],
        ['ShortSelling', 'Sell', 0, 180_000, 198_955],
      ],
    );
  });

  test('futures positions are net per code with the average entry price and open P&L', () => {
    const { portfolio, tradeDerivative } = setup();
    tradeDerivative(MON, 'Buy', 'TXFL6', 22_000, 1);
    tradeDerivative(MON, 'Buy', 'TXFL6', 22_030, 2);
    const rows = portfolio.positions(F, 'Common') as FuturePosition[];
    // Last 22,100: (100 + 2 x 70) x 200 = 48,000.
    assert.deepEqual(rows, [
      { id: 1, code: 'TXFL6', direction: 'Buy', quantity: 3, price: 22_020, last_price: 22_100, pnl: 48_000 },
    ]);
    assert.deepEqual(
      portfolio.positionDetail(F, 1).map((row) => [row.quantity, row.price, row.pnl]),
      [
        [1, 22_000, 20_000],
        [2, 22_030, 28_000],
      ],
    );
  });
});

describe('realized profit and loss', () => {
  function roundTrips() {
    const world = setup();
    world.trade(MON, 'Buy', '2330', 100, 2500);
    world.at(TUE);
    world.trade(TUE, 'Sell', '2330', 110, 1500);
    world.trade(TUE, 'Buy', '2317', 200, 1000);
    world.trade(TUE, 'Sell', '2317', 198, 1000);
    return world;
  }

  test('profit_loss lists the closing deals of the range, in the unit asked', () => {
    const { portfolio } = roundTrips();
    const common = portfolio.profitLoss(S, {}, 'Common') as StockProfitLoss[];
    assert.deepEqual(
      common.map((row) => [row.id, row.code, row.quantity, row.date, row.price]),
      [
        [1, '2330', 1, TUE, 110],
        [2, '2317', 1, TUE, 198],
      ],
    );
    const shares = portfolio.profitLoss(S, { begin_date: MON, end_date: TUE }, 'Share') as StockProfitLoss[];
    assert.deepEqual(
      shares.map((row) => row.quantity),
      [1500, 1000],
    );
    assert.deepEqual(portfolio.profitLoss(S, { begin_date: MON, end_date: MON }, 'Share'), []);
  });

  test('a reversed or malformed date range is a bad request', () => {
    const { portfolio } = roundTrips();
    assert.throws(
      () => portfolio.profitLoss(S, { begin_date: TUE, end_date: MON }, 'Common'),
      (error: unknown) =>
        error instanceof InvalidRequestError && /begin_date 2026-11-24 is after end_date/.test(error.message),
    );
    assert.throws(() => portfolio.profitLossSummary(S, { begin_date: '2026-13-01' }), InvalidRequestError);
  });

  test('profit_loss_detail shows the lots a deal closed and the deal; an unknown id is not found', () => {
    const { portfolio } = roundTrips();
    const rows = portfolio.profitLossDetail(S, 2, 'Share') as StockProfitDetail[];
    // Day trade of 2317: buy fee 285, sell fee 282, day-trade tax 198,000 x 0.15% = 297.
    assert.deepEqual(
      rows.map((row) => [row.date, row.quantity, row.fee, row.tax, row.trade_type]),
      [
        [TUE, 1000, 285, 0, 'DayTrade'],
        [TUE, 1000, 282, 297, 'DayTrade'],
      ],
    );
    assert.throws(
      () => portfolio.profitLossDetail(S, 7, 'Share'),
      (error: unknown) => error instanceof NotFoundError && /ids run from 1 to 2/.test(error.message),
    );
  });

  test('profitloss_sum adds up per code and in total', () => {
    const { portfolio } = roundTrips();
    const summary = portfolio.profitLossSummary(S, {});
    // 2330: 1,500 shares bought at 100 (150,000 + fee 213.75 -> 214 of the 356 fee of 2,500 shares),
    // sold at 110 (165,000 - fee 235 - tax 495). pnl = 164,270 - 150,214 = 14,056.
    // 2317: 197,421 - 200,285 = -2,864.
    assert.deepEqual(
      summary.profitloss_sum.map((row) => [row.code, row.quantity, row.pnl, row.entry_price, row.cover_price]),
      [
        ['2317', 1000, -2_864, 200, 198],
        ['2330', 1500, 14_056, 100, 110],
      ],
    );
    assert.equal(summary.total.pnl, 14_056 - 2_864);
    assert.equal(summary.total.quantity, 2500);
    assert.equal(summary.total.entry_amount, 350_000);
    assert.equal(summary.total.cover_amount, 363_000);
    assert.equal(summary.total.sell_cost - summary.total.buy_cost, summary.total.pnl);
  });

  test('futures profit_loss reports entry and cover prices, fees and taxes', () => {
    const { portfolio, tradeDerivative } = setup();
    tradeDerivative(MON, 'Sell', 'TXFL6', 22_000, 2);
    tradeDerivative(MON, 'Buy', 'TXFL6', 21_900, 1);
    // Short 1 covered 100 points lower: 20,000 - fees 60 + 60 - taxes 88 + 88 (21,900 x 200 x 0.002% = 87.6 -> 88).
    assert.deepEqual(portfolio.profitLoss(F, {}, 'Common'), [
      {
        id: 1,
        code: 'TXFL6',
        quantity: 1,
        pnl: 20_000 - 120 - 176,
        date: MON,
        entry_price: 22_000,
        cover_price: 21_900,
        tax: 176,
        fee: 120,
        direction: 'Sell',
      },
    ]);
    const [detail] = portfolio.profitLossDetail(F, 1, 'Common') as FutureProfitDetail[];
    assert.equal(detail!.pnl, 19_704);
    assert.equal(portfolio.profitLossSummary(F, {}).total.pnl, 19_704);
  });
});

describe('account types', () => {
  test('stock-only queries refuse a futures account and margin refuses a stock account', () => {
    const { portfolio } = setup();
    for (const query of [
      () => portfolio.accountBalance(F),
      () => portfolio.settlements(F),
      () => portfolio.tradingLimits(F),
    ]) {
      assert.throws(
        query,
        (error: unknown) => error instanceof InvalidRequestError && /ask margin/.test(error.message),
      );
    }
    assert.throws(
      () => portfolio.margin({ account_type: 'S' }),
      (error: unknown) => error instanceof InvalidRequestError && /is a stock account/.test(error.message),
    );
    assert.equal(portfolio.margin({}).today_balance, STARTING_COLLATERAL);
  });
});

describe('trading limits', () => {
  test('in exchange mode they answer only on trading days from 08:30 to 15:00', () => {
    const { portfolio, at } = setup({ mode: 'exchange' });
    at(MON, '10:00');
    assert.equal(portfolio.tradingLimits(S).trading_limit, STARTING_CASH);
    for (const [day, time] of [
      [MON, '16:00'],
      [MON, '08:29'],
      [SAT, '10:00'],
    ] as const) {
      at(day, time);
      assert.throws(
        () => portfolio.tradingLimits(S),
        (error: unknown) =>
          error instanceof DomainError && error.kind === 'OUTSIDE_HOURS' && /08:30 to 15:00/.test(error.message),
      );
    }
  });

  test('always-open answers at any hour; a day trade gives its amount back', () => {
    const { portfolio, trade, at } = setup();
    trade(MON, 'Buy', '2330', 100, 2000);
    trade(MON, 'Buy', '2317', 200, 1000);
    trade(MON, 'Sell', '2317', 201, 1000);
    trade(MON, 'Buy', '2330', 100, 1000, 'MarginTrading');
    // 03:00 on Tuesday still belongs to Monday's stock day.
    at(TUE, '03:00');
    assert.deepEqual(portfolio.tradingLimits(S), {
      trading_limit: STARTING_CASH,
      trading_used: 200_000,
      trading_available: STARTING_CASH - 200_000,
      margin_limit: 5_000_000,
      margin_used: 60_000,
      margin_available: 4_940_000,
      short_limit: 3_000_000,
      short_used: 0,
      short_available: 3_000_000,
    });
  });
});

describe('margin', () => {
  test('an account without positions has its collateral as equity and risk indicator 999', () => {
    const { portfolio } = setup();
    const margin = portfolio.margin({});
    assert.equal(margin.equity, STARTING_COLLATERAL);
    assert.equal(margin.available_margin, STARTING_COLLATERAL);
    assert.equal(margin.risk_indicator, 999);
  });

  test('open futures are marked to market and need their margin', () => {
    const { portfolio, tradeDerivative, at } = setup();
    // Buy 1 TXF at 22,000: fee 60, tax 88. Last 22,100: open P&L 20,000.
    tradeDerivative(MON, 'Buy', 'TXFL6', 22_000, 1);
    const today = portfolio.margin(F);
    const balance = STARTING_COLLATERAL - 148;
    assert.deepEqual(
      {
        yesterday: today.yesterday_balance,
        today: today.today_balance,
        fee: today.fee,
        tax: today.tax,
        open: today.future_open_position,
        openedToday: today.today_future_open_position,
        equity: today.equity,
        initial: today.initial_margin,
        maintenance: today.maintenance_margin,
        available: today.available_margin,
        risk: today.risk_indicator,
        call: today.margin_call,
      },
      {
        yesterday: STARTING_COLLATERAL,
        today: balance,
        fee: 60,
        tax: 88,
        open: 20_000,
        openedToday: 20_000,
        equity: balance + 20_000,
        initial: 338_000,
        maintenance: 259_000,
        available: balance + 20_000 - 338_000,
        risk: Math.round(((balance + 20_000) / 259_000) * 10_000) / 100,
        call: 0,
      },
    );
    at(TUE);
    const next = portfolio.margin(F);
    assert.deepEqual([next.yesterday_balance, next.fee, next.today_future_open_position], [balance, 0, 0]);
  });

  test('options: premiums move the balance, short options need margin and count against equity_amount', () => {
    const { portfolio, tradeDerivative } = setup();
    // Sell 1 TXO at 100 points: premium +5,000, fee 25, tax 5. Last 120: short value 6,000.
    tradeDerivative(MON, 'Sell', 'TXO22000L6', 100, 1);
    const margin = portfolio.margin(F);
    assert.equal(margin.royalty_revenue_expenditure, 5_000);
    assert.equal(margin.today_balance, STARTING_COLLATERAL + 5_000 - 30);
    assert.equal(margin.option_opensell_market_value, 6_000);
    assert.equal(margin.option_open_position, -1_000);
    assert.equal(margin.equity, margin.today_balance);
    assert.equal(margin.equity_amount, margin.today_balance - 6_000);
    assert.equal(margin.initial_margin, 90_000);
  });
});
