import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  ETF_TICKS,
  isOnTickGrid,
  percentLimits,
  roundDownToTick,
  roundToTick,
  roundUpToTick,
  STOCK_OPTION_PREMIUM_TICKS,
  STOCK_TICKS,
  stepTicks,
  TICK_BAND_RULES,
  type TickTable,
  TXO_PREMIUM_TICKS,
  tickAt,
  UNLIMITED,
  WARRANT_TICKS,
} from '../../src/domain/ticks.js';

/** Prices in integer thousandths, so that comparisons in the tests suffer no float error either. */
const milli = (price: number) => Math.round(price * 1000);

const TABLES: Record<string, TickTable> = {
  STOCK_TICKS,
  ETF_TICKS,
  WARRANT_TICKS,
  TXO_PREMIUM_TICKS,
  STOCK_OPTION_PREMIUM_TICKS,
};

/** A price on the grid of a table: a band, then a whole number of its ticks inside it (the open band up to `cap`). */
function onGrid(table: TickTable, cap: number, lowest = 0) {
  return fc
    .integer({ min: 0, max: table.length - 1 })
    .chain((i) => {
      const band = table[i]!;
      const from = Math.max(milli(band.min), milli(lowest));
      const to = milli(band.max ?? cap) - milli(band.tick);
      const tick = milli(band.tick);
      const first = Math.ceil(from / tick);
      const last = Math.floor(to / tick);
      return first > last ? fc.constant(null) : fc.integer({ min: first, max: last }).map((n) => (n * tick) / 1000);
    })
    .filter((price): price is number => price !== null && price > 0);
}

describe('tick tables', () => {
  test('each table has the bands of the exchange rules (docs/exchange-rules.md)', () => {
    const rows = (table: TickTable) => table.map((b) => [b.min, b.max, b.tick]);
    assert.deepEqual(rows(STOCK_TICKS), [
      [0, 10, 0.01],
      [10, 50, 0.05],
      [50, 100, 0.1],
      [100, 500, 0.5],
      [500, 1000, 1],
      [1000, null, 5],
    ]);
    assert.deepEqual(rows(ETF_TICKS), [
      [0, 50, 0.01],
      [50, null, 0.05],
    ]);
    assert.deepEqual(rows(WARRANT_TICKS), [
      [0, 5, 0.01],
      [5, 10, 0.05],
      [10, 50, 0.1],
      [50, 100, 0.5],
      [100, 500, 1],
      [500, null, 5],
    ]);
    assert.deepEqual(rows(TXO_PREMIUM_TICKS), [
      [0, 10, 0.1],
      [10, 50, 0.5],
      [50, 500, 1],
      [500, 1000, 5],
      [1000, null, 10],
    ]);
    assert.deepEqual(rows(STOCK_OPTION_PREMIUM_TICKS), [
      [0, 5, 0.01],
      [5, 15, 0.05],
      [15, 50, 0.1],
      [50, 150, 0.5],
      [150, 1000, 1],
      [1000, null, 5],
    ]);
  });

  test('bands are contiguous, and every band starts on the grid of the band below it', () => {
    for (const [name, table] of Object.entries(TABLES)) {
      assert.equal(table[0]!.min, 0, name);
      assert.equal(table.at(-1)!.max, null, name);
      for (let i = 1; i < table.length; i++) {
        assert.equal(table[i]!.min, table[i - 1]!.max, `${name} band ${i}`);
        assert.equal(milli(table[i]!.min) % milli(table[i - 1]!.tick), 0, `${name} band ${i}`);
        assert.equal(milli(table[i]!.min) % milli(table[i]!.tick), 0, `${name} band ${i}`);
      }
    }
  });

  test('tickAt applies a band from its min (inclusive) to its max (exclusive), for every boundary', () => {
    for (const [name, table] of Object.entries(TABLES)) {
      for (let i = 0; i < table.length; i++) {
        const band = table[i]!;
        if (band.min > 0) {
          assert.equal(tickAt(table, band.min), band.tick, `${name} at ${band.min}`);
          // the last valid price below the boundary still takes the lower band's tick
          assert.equal(tickAt(table, band.min - table[i - 1]!.tick), table[i - 1]!.tick, `${name} below ${band.min}`);
        }
      }
    }
  });

  test('tickAt at the boundaries named in the rules', () => {
    assert.equal(tickAt(STOCK_TICKS, 9.99), 0.01);
    assert.equal(tickAt(STOCK_TICKS, 10), 0.05);
    assert.equal(tickAt(STOCK_TICKS, 49.95), 0.05);
    assert.equal(tickAt(STOCK_TICKS, 50), 0.1);
    assert.equal(tickAt(STOCK_TICKS, 99.9), 0.1);
    assert.equal(tickAt(STOCK_TICKS, 100), 0.5);
    assert.equal(tickAt(STOCK_TICKS, 499.5), 0.5);
    assert.equal(tickAt(STOCK_TICKS, 500), 1);
    assert.equal(tickAt(STOCK_TICKS, 999), 1);
    assert.equal(tickAt(STOCK_TICKS, 1000), 5);
    assert.equal(tickAt(STOCK_TICKS, 4535), 5);
    assert.equal(tickAt(ETF_TICKS, 49.99), 0.01);
    assert.equal(tickAt(ETF_TICKS, 50), 0.05);
    assert.equal(tickAt(ETF_TICKS, 195.3), 0.05);
    assert.equal(tickAt(TXO_PREMIUM_TICKS, 9.9), 0.1);
    assert.equal(tickAt(TXO_PREMIUM_TICKS, 10), 0.5);
    assert.equal(tickAt(TXO_PREMIUM_TICKS, 499), 1);
    assert.equal(tickAt(TXO_PREMIUM_TICKS, 500), 5);
    assert.equal(tickAt(TXO_PREMIUM_TICKS, 995), 5);
    assert.equal(tickAt(TXO_PREMIUM_TICKS, 1000), 10);
    assert.equal(tickAt(STOCK_OPTION_PREMIUM_TICKS, 14.95), 0.05);
    assert.equal(tickAt(STOCK_OPTION_PREMIUM_TICKS, 15), 0.1);
    assert.equal(tickAt(STOCK_OPTION_PREMIUM_TICKS, 150), 1);
  });

  test('isOnTickGrid follows the band of the price itself', () => {
    assert.equal(isOnTickGrid(STOCK_TICKS, 9.99), true);
    assert.equal(isOnTickGrid(STOCK_TICKS, 10.01), false);
    assert.equal(isOnTickGrid(STOCK_TICKS, 10.05), true);
    assert.equal(isOnTickGrid(STOCK_TICKS, 99.9), true);
    assert.equal(isOnTickGrid(STOCK_TICKS, 100.1), false);
    assert.equal(isOnTickGrid(STOCK_TICKS, 999), true);
    assert.equal(isOnTickGrid(STOCK_TICKS, 1001), false);
    assert.equal(isOnTickGrid(STOCK_TICKS, 2490), true);
    assert.equal(isOnTickGrid(STOCK_TICKS, 2442), false);
    assert.equal(isOnTickGrid(ETF_TICKS, 50.03), false);
    assert.equal(isOnTickGrid(ETF_TICKS, 49.97), true);
    assert.equal(isOnTickGrid(TXO_PREMIUM_TICKS, 10.5), true);
    assert.equal(isOnTickGrid(TXO_PREMIUM_TICKS, 10.1), false);
    assert.equal(isOnTickGrid(TXO_PREMIUM_TICKS, 1005), false);
    assert.equal(isOnTickGrid(STOCK_TICKS, 0), false, 'zero is not a price');
    assert.equal(isOnTickGrid(STOCK_TICKS, -5), false, 'negative prices are not prices');
  });

  test('the tick-band rules of the API use the same tables', () => {
    const rule = (name: string) => TICK_BAND_RULES.find((r) => r.rule === name)!;
    assert.deepEqual(rule('STK').bands, [...STOCK_TICKS]);
    assert.deepEqual(rule('ETF').bands, [...ETF_TICKS]);
    assert.deepEqual(rule('TXO').bands, [...TXO_PREMIUM_TICKS]);
    assert.deepEqual(rule('STO').bands, [...STOCK_OPTION_PREMIUM_TICKS]);
    assert.deepEqual(
      TICK_BAND_RULES.map((r) => [r.rule, r.security_type, r.basis]),
      [
        ['STK', 'FUT', 'price'],
        ['ETF', 'FUT', 'price'],
        ['TXO', 'OPT', 'premium'],
        ['STO', 'OPT', 'premium'],
      ],
    );
  });
});

describe('percentLimits', () => {
  const limits = (table: TickTable, reference: number) => percentLimits(table, reference, 0.1);

  test('reproduces the worked examples of the exchange rules', () => {
    assert.deepEqual(limits(STOCK_TICKS, 2220), { limitUp: 2440, limitDown: 2000 }); // 2330: from 2442 / 1998
    assert.deepEqual(limits(STOCK_TICKS, 17.4), { limitUp: 19.1, limitDown: 15.7 }); // 2890: from 19.14 / 15.66
    assert.deepEqual(limits(STOCK_TICKS, 3895), { limitUp: 4280, limitDown: 3510 }); // 3529: from 4284.5 / 3505.5
    assert.deepEqual(limits(STOCK_TICKS, 21.35), { limitUp: 23.45, limitDown: 19.25 }); // 3512
    assert.deepEqual(limits(STOCK_TICKS, 8.78), { limitUp: 9.65, limitDown: 7.91 }); // 3632
    assert.deepEqual(limits(STOCK_TICKS, 331.5), { limitUp: 364.5, limitDown: 298.5 }); // 3587
    // 3548: the limit-down 90.90 is on the 0.1 grid of its own band, not the 0.5 grid of the reference's
    assert.equal(limits(STOCK_TICKS, 101).limitDown, 90.9);
    assert.equal(limits(STOCK_TICKS, 101).limitUp, 111);
  });

  test('reproduces the TAIFEX index-futures examples on a 1-point grid (§2.2)', () => {
    const points: TickTable = [{ min: 0, max: null, tick: 1 }];
    assert.deepEqual(limits(points, 41636), { limitUp: 45799, limitDown: 37473 });
    assert.deepEqual(limits(points, 14925), { limitUp: 16417, limitDown: 13433 });
  });

  test('a limit is rounded on the grid of the band it falls in, across a band boundary', () => {
    // 95 x 1.1 = 104.5 lies in the 0.5 band: 104.5 is valid
    assert.deepEqual(limits(STOCK_TICKS, 95), { limitUp: 104.5, limitDown: 85.5 });
    // 920 x 1.1 = 1012 lies in the 5 band: 1010
    assert.deepEqual(limits(STOCK_TICKS, 920), { limitUp: 1010, limitDown: 828 });
    // 1060 x 0.9 = 954 lies in the 1 band: 954 itself
    assert.deepEqual(limits(STOCK_TICKS, 1060), { limitUp: 1165, limitDown: 954 });
    // 9.5 x 1.1 = 10.45 lies in the 0.05 band
    assert.deepEqual(limits(STOCK_TICKS, 9.5), { limitUp: 10.45, limitDown: 8.55 });
    // ETF table: 47 x 1.1 = 51.7 lies in the 0.05 band
    assert.deepEqual(limits(ETF_TICKS, 47), { limitUp: 51.7, limitDown: 42.3 });
  });

  test('leveraged ETFs use 10% x the leverage (20% for a 2x ETF)', () => {
    assert.deepEqual(percentLimits(ETF_TICKS, 100, 0.2), { limitUp: 120, limitDown: 80 });
    assert.deepEqual(percentLimits(ETF_TICKS, 23.47, 0.2), { limitUp: 28.16, limitDown: 18.78 });
  });

  test('when 10% is less than one tick, one tick is the limit, and never below the lowest tick', () => {
    assert.deepEqual(limits(STOCK_TICKS, 0.05), { limitUp: 0.06, limitDown: 0.04 });
    assert.deepEqual(limits(STOCK_TICKS, 0.01), { limitUp: 0.02, limitDown: 0.01 });
    assert.deepEqual(limits(TXO_PREMIUM_TICKS, 0.1), { limitUp: 0.2, limitDown: 0.1 });
  });

  test('foreign-component ETFs quote the TPEx no-limit values', () => {
    assert.deepEqual(UNLIMITED, { limitUp: 9999.95, limitDown: 0.01 });
  });

  test('property: limits are on the grid, limitUp <= ref x (1 + f) < the next tick, symmetric below', () => {
    const cases: [string, TickTable, number][] = [
      ['stock', STOCK_TICKS, 20_000],
      ['etf', ETF_TICKS, 2_000],
      ['warrant', WARRANT_TICKS, 2_000],
      ['txo', TXO_PREMIUM_TICKS, 20_000],
    ];
    for (const [name, table, cap] of cases) {
      // from 10 lowest ticks up, 10% of the reference is at least one tick
      const reference = onGrid(table, cap, 10 * table[0]!.tick);
      const fraction = fc.constantFrom(0.1, 0.15, 0.2);
      fc.assert(
        fc.property(reference, fraction, (ref, f) => {
          const { limitUp, limitDown } = percentLimits(table, ref, f);
          const [R, F, up, down] = [milli(ref), milli(f), milli(limitUp), milli(limitDown)];
          const nextUp = milli(stepTicks(table, limitUp, 1));
          const belowDown = milli(stepTicks(table, limitDown, -1));
          assert.ok(isOnTickGrid(table, limitUp), `${name} ${ref}: up ${limitUp} on grid`);
          assert.ok(isOnTickGrid(table, limitDown), `${name} ${ref}: down ${limitDown} on grid`);
          // in thousandths of thousandths: limitUp <= ref (1 + f) < next tick above limitUp
          assert.ok(up * 1000 <= R * (1000 + F), `${name} ${ref}: ${limitUp} <= ref x ${1 + f}`);
          assert.ok(R * (1000 + F) < nextUp * 1000, `${name} ${ref}: the tick above ${limitUp} is beyond the limit`);
          assert.ok(down * 1000 >= R * (1000 - F), `${name} ${ref}: ${limitDown} >= ref x ${1 - f}`);
          assert.ok(R * (1000 - F) > belowDown * 1000, `${name} ${ref}: the tick below ${limitDown} is beyond`);
          assert.ok(limitDown < ref && ref < limitUp);
        }),
        { numRuns: 500 },
      );
    }
  });
});

describe('rounding and stepping', () => {
  test('roundDown, roundUp and roundToTick at examples', () => {
    assert.equal(roundDownToTick(STOCK_TICKS, 2442), 2440);
    assert.equal(roundUpToTick(STOCK_TICKS, 1998), 2000);
    assert.equal(roundUpToTick(STOCK_TICKS, 1995), 1995);
    assert.equal(roundDownToTick(STOCK_TICKS, 19.14), 19.1);
    assert.equal(roundUpToTick(STOCK_TICKS, 15.66), 15.7);
    assert.equal(roundUpToTick(STOCK_TICKS, 99.95), 100);
    assert.equal(roundDownToTick(STOCK_TICKS, 1004.9), 1000);
    assert.equal(roundToTick(STOCK_TICKS, 2442), 2440);
    assert.equal(roundToTick(STOCK_TICKS, 2443), 2445);
    assert.equal(roundToTick(STOCK_TICKS, 2442.5), 2445, 'ties go up');
    assert.equal(roundToTick(TXO_PREMIUM_TICKS, 123.4), 123);
    assert.equal(roundToTick(TXO_PREMIUM_TICKS, 0.06), 0.1);
  });

  test('rounding is exact below a thousandth: a raw value just under a grid price is not rounded onto it', () => {
    // A warrant limit is reference + underlying move x exercise ratio, e.g. 0.68 + 245 x 0.003 = 1.4150 or
    // 0.68 + 0.7395 = 1.4195: the largest valid price <= 1.4195 is 1.41, not 1.42.
    assert.equal(roundDownToTick(WARRANT_TICKS, 1.4195), 1.41);
    assert.equal(roundDownToTick(STOCK_TICKS, 9.9996), 9.99);
    assert.equal(roundUpToTick(STOCK_TICKS, 10.0004), 10.05);
    assert.equal(roundUpToTick(WARRANT_TICKS, 0.3705), 0.38);
    // binary float noise of a value that is on the grid must not move it
    assert.equal(roundDownToTick(STOCK_TICKS, 0.1 + 0.2), 0.3);
    assert.equal(roundUpToTick(STOCK_TICKS, 0.1 + 0.2), 0.3);
    assert.equal(roundDownToTick(STOCK_TICKS, 17.4 * 1.1), 19.1);
    assert.equal(roundUpToTick(STOCK_TICKS, 1.1 * 1.1), 1.21);
  });

  test('stepTicks walks across band boundaries in both directions', () => {
    assert.equal(stepTicks(STOCK_TICKS, 9.99, 1), 10);
    assert.equal(stepTicks(STOCK_TICKS, 10, 1), 10.05);
    assert.equal(stepTicks(STOCK_TICKS, 10, -1), 9.99);
    assert.equal(stepTicks(STOCK_TICKS, 100, -1), 99.9);
    assert.equal(stepTicks(STOCK_TICKS, 999, 2), 1005);
    assert.equal(stepTicks(STOCK_TICKS, 1005, -2), 999);
    assert.equal(stepTicks(STOCK_TICKS, 498.5, 5), 502);
    assert.equal(stepTicks(TXO_PREMIUM_TICKS, 9.9, 1), 10);
    assert.equal(stepTicks(TXO_PREMIUM_TICKS, 10, -1), 9.9);
    assert.equal(stepTicks(TXO_PREMIUM_TICKS, 1000, -1), 995);
    assert.equal(stepTicks(ETF_TICKS, 50, -1), 49.99);
    assert.equal(stepTicks(STOCK_TICKS, 123.5, 0), 123.5);
  });

  for (const [name, table] of Object.entries(TABLES)) {
    test(`property (${name}): roundDown/roundUp give the nearest valid prices on each side`, () => {
      // any positive raw value, including ones with more decimals than any tick
      const raw = fc.double({ min: table[0]!.tick, max: 20_000, noNaN: true });
      fc.assert(
        fc.property(raw, (x) => {
          const down = roundDownToTick(table, x);
          const up = roundUpToTick(table, x);
          assert.ok(isOnTickGrid(table, down), `${x}: down ${down} on grid`);
          assert.ok(isOnTickGrid(table, up), `${x}: up ${up} on grid`);
          assert.ok(down <= x + 1e-9, `${x}: down ${down} <= raw`);
          assert.ok(up >= x - 1e-9, `${x}: up ${up} >= raw`);
          assert.ok(stepTicks(table, down, 1) > x, `${x}: the tick after ${down} is above raw`);
          if (up > table[0]!.tick) assert.ok(stepTicks(table, up, -1) < x, `${x}: the tick before ${up} is below`);
          const nearest = roundToTick(table, x);
          assert.ok(nearest === down || nearest === up);
          assert.ok(Math.abs(nearest - x) <= Math.min(x - down, up - x) + 1e-9, `${x}: ${nearest} is the nearest`);
        }),
        { numRuns: 1000 },
      );
    });

    test(`property (${name}): valid prices are fixed points of rounding; stepTicks is invertible and additive`, () => {
      fc.assert(
        fc.property(
          onGrid(table, 20_000),
          fc.integer({ min: 0, max: 40 }),
          fc.integer({ min: 0, max: 40 }),
          (p, a, b) => {
            assert.equal(roundDownToTick(table, p), p);
            assert.equal(roundUpToTick(table, p), p);
            assert.equal(roundToTick(table, p), p);
            const q = stepTicks(table, p, a);
            assert.ok(isOnTickGrid(table, q));
            assert.equal(stepTicks(table, q, -a), p, `${p} +${a} -${a}`);
            assert.equal(stepTicks(table, p, a + b), stepTicks(table, q, b), `${p} +${a} +${b}`);
            // adjacency: nothing valid lies strictly between a price and the next one
            const next = stepTicks(table, p, 1);
            assert.ok(next > p);
            assert.equal(milli(next) - milli(p), milli(tickAt(table, p)));
            assert.equal(roundUpToTick(table, p + 0.001), next);
            assert.equal(roundDownToTick(table, next - 0.001), p);
          },
        ),
        { numRuns: 500 },
      );
    });
  }
});

test('TXF limits reproduce the TAIFEX examples (single ±10% stage on whole points)', () => {
  const points = [{ min: 0, max: null, tick: 1 }];
  assert.deepEqual(percentLimits(points, 41636, 0.1), { limitUp: 45799, limitDown: 37473 });
  assert.deepEqual(percentLimits(points, 14925, 0.1), { limitUp: 16417, limitDown: 13433 });
});
