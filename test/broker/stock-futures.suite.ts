import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SECURITIES_BY_CODE } from '../../src/broker/sim/catalog/catalog.js';
import { FUTURES_PRODUCTS } from '../../src/broker/sim/catalog/derivative-products.js';
import { LISTED_SECURITIES } from '../../src/broker/sim/catalog/listed-securities.js';
import {
  ETF_FUTURES_ETFS,
  KNOWN_STOCK_FUTURES_ROOTS,
  STOCK_FUTURES_STOCKS,
  stockFuturesRoot,
  stockFuturesUnderlyings,
  typicalStockFuturesVolume,
} from '../../src/broker/sim/catalog/stock-futures.js';
import { SimMarket } from '../../src/broker/sim/market/market.js';
import { SimBroker } from '../../src/broker/sim/sim-broker.js';
import { type FuturesInfo, isContinuousCode } from '../../src/domain/contracts.js';
import { NotFoundError } from '../../src/domain/errors.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';

const stockFutures = FUTURES_PRODUCTS.filter((product) => product.underlyingKind === 'S');
const standard = stockFutures.filter((product) => product.root !== 'QFF');

describe('stock futures underlyings', () => {
  test('some 200: the most traded stocks and domestic equity ETFs, and every underlying whose code is known', () => {
    const underlyings = stockFuturesUnderlyings(LISTED_SECURITIES);
    assert.equal(standard.length, underlyings.length);
    const stocks = underlyings.filter((s) => s.kind === 'stock');
    const etfs = underlyings.filter((s) => s.kind === 'etf');
    assert.ok(stocks.length >= STOCK_FUTURES_STOCKS && stocks.length <= STOCK_FUTURES_STOCKS + 20, `${stocks.length}`);
    assert.equal(etfs.length, ETF_FUTURES_ETFS);
    for (const code of KNOWN_STOCK_FUTURES_ROOTS.keys())
      assert.ok(
        underlyings.some((s) => s.code === code),
        code,
      );
    assert.ok(
      etfs.every((s) => !s.leverage && !s.foreignComponents && !s.bondEtf),
      'plain domestic equity ETFs',
    );
    // Every stock that trades more by value than the least traded chosen one is chosen too.
    const value = (code: string) => SECURITIES_BY_CODE.get(code)!.close * SECURITIES_BY_CODE.get(code)!.avgVolumeLots;
    const chosen = new Set(stocks.map((s) => s.code));
    const ranked = stocks.filter((s) => !KNOWN_STOCK_FUTURES_ROOTS.has(s.code)).map((s) => value(s.code));
    const floor = Math.min(...ranked);
    const missed = LISTED_SECURITIES.filter(
      (s) => s.kind === 'stock' && /^\d{4}$/.test(s.code) && !chosen.has(s.code) && value(s.code) > floor,
    );
    assert.deepEqual(
      missed.map((s) => s.code),
      [],
    );
  });

  test('roots are unique; TAIFEX letters where known, four letters spelled from the code otherwise', () => {
    const roots = FUTURES_PRODUCTS.map((product) => product.root);
    assert.equal(new Set(roots).size, roots.length);
    const byUnderlying = new Map(standard.map((product) => [product.underlyingCode, product.root]));
    assert.equal(byUnderlying.get('2330'), 'CDF');
    assert.equal(byUnderlying.get('0050'), 'NYF');
    assert.equal(byUnderlying.get('2881'), 'CIIB');
    const known = new Set(KNOWN_STOCK_FUTURES_ROOTS.values());
    for (const product of standard) {
      if (KNOWN_STOCK_FUTURES_ROOTS.has(product.underlyingCode)) {
        assert.match(product.root, /^[A-Z]{2}F$/);
        continue;
      }
      // TAIFEX's product codes have three characters: a four-letter root cannot be one of them.
      assert.match(product.root, /^[A-JZ][A-J]{3}$/, product.root);
      assert.ok(!known.has(product.root));
      assert.ok(isContinuousCode(`${product.root}R1`));
    }
    assert.equal(stockFuturesRoot(SECURITIES_BY_CODE.get('00878')!), 'ZIHI');
  });

  test('a stock future trades less the less its underlying trades by value; TSMC at the most', () => {
    const volume = (code: string) => typicalStockFuturesVolume(SECURITIES_BY_CODE.get(code)!, SECURITIES_BY_CODE);
    assert.equal(volume('2330'), 4_000);
    const sorted = [...standard].sort((a, b) => {
      const [x, y] = [SECURITIES_BY_CODE.get(a.underlyingCode)!, SECURITIES_BY_CODE.get(b.underlyingCode)!];
      return x.close * x.avgVolumeLots - y.close * y.avgVolumeLots;
    });
    const volumes = sorted.map((product) => volume(product.underlyingCode));
    assert.ok(volumes.every((v, i) => i === 0 || v >= volumes[i - 1]!));
    assert.ok(volumes[0]! >= 50 && volumes[0]! < 500, `the quietest: ${volumes[0]}`);
  });
});

describe('a stock future with a generated code', () => {
  const clock = new ManualClock(taipeiInstant('2026-11-24', '10:00'));
  const broker = new SimBroker({ clock, seed: 1, clockMode: 'exchange', apiKey: null });

  test('is listed by month with R1/R2, on its stock, 2,000 shares, on the stock tick rule', () => {
    const r1 = broker.contracts.info('CIIBR1') as FuturesInfo;
    assert.equal(r1.target_code, 'CIIBL6');
    const near = broker.contracts.info('CIIBL6') as FuturesInfo;
    assert.equal(near.underlying_code, '2881');
    assert.equal(near.name, `${SECURITIES_BY_CODE.get('2881')!.name}期貨12`);
    assert.equal(near.spec_kind, 'stock_fut');
    assert.equal(near.multiplier, 2000);
    assert.equal(near.tick_rule, 'STK');
    assert.throws(() => broker.contracts.get('CIIAB1'), NotFoundError);
  });

  test('trades around its stock, at the bid or ask of its quotes', () => {
    const market = new SimMarket(1, 'exchange');
    const day = '2026-11-24';
    const info = market.listings.derivativesOn(day).get('CIIBL6')!;
    const tape = market.tape(info, day);
    assert.ok(tape.times.length > 20, `${tape.times.length} trades`);
    const stock = market.daily.closeOf('2881', day);
    const last = tape.prices[tape.prices.length - 2]!;
    assert.ok(Math.abs(last / stock - 1) < 0.03, `${last} against the stock's ${stock}`);
    tape.times.forEach((_, k) => {
      if (tape.tickTypes[k] !== 0)
        assert.ok(tape.prices[k] === tape.bidPrices[k] || tape.prices[k] === tape.askPrices[k]);
    });
  });
});
