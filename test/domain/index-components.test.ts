// The rules of the index decomposition: points are the components' weight-scaled changes and add up to the index's
// change to the hundredth, industries add up too, weights to a million ppm; rankings and the projections served.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { type ComponentQuote, decomposeIndex, project, splitHundredths } from '../../src/domain/index-components.js';
import { checkProjection, projectionValue, rankBy } from '../../src/domain/index-projections.js';

const iso = (ms: number) => new Date(ms).toISOString();
const name = (category: string) => `industry ${category}`;

const component = (code: string, category: string, reference: number, price: number, shares: number) =>
  ({
    code,
    exchange: 'TSE',
    category,
    reference,
    price,
    traded: price !== reference,
    suspended: false,
    shares,
    amount: price * 1000,
    tradedAt: null,
  }) satisfies ComponentQuote;

describe('the decomposition of an index', () => {
  test('two components: points are reference × weight × change, and the level moves by their sum', () => {
    // Caps 100×3 and 50×2 = 300 and 100: weights 0.75 and 0.25.
    const d = decomposeIndex(1000, [component('A', '24', 100, 110, 3), component('B', '17', 50, 45, 2)], name, iso);
    assert.deepEqual(
      d.entries.map((e) => [e.contract.code, e.points, e.reference_weight_ppm, e.pct_chg]),
      [
        ['A', 75, 750_000, 10],
        ['B', -25, 250_000, -10],
      ],
    );
    assert.equal(d.priceChg, 50);
    assert.equal(d.close, 1050);
    assert.deepEqual(
      d.groups.map((g) => [g.category, g.name, g.points, g.advance_count, g.decline_count, g.breadth_bps]),
      [
        ['17', 'industry 17', -25, 0, 1, -10_000],
        ['24', 'industry 24', 75, 1, 0, 10_000],
      ],
    );
  });

  test('for any components, points and industries add up to the change to the hundredth; weights to 1e6', () => {
    const quote = fc
      .record({
        category: fc.constantFrom('01', '17', '24', '28'),
        reference: fc.integer({ min: 1000, max: 500_000 }).map((c) => c / 100),
        move: fc.integer({ min: -100, max: 100 }).map((m) => m / 1000),
        shares: fc.integer({ min: 1, max: 30_000 }).map((s) => s * 1_000_000),
      })
      .map(({ category, reference, move, shares }, i = 0) =>
        component(`C${i}`, category, reference, Math.round(reference * (1 + move) * 100) / 100, shares),
      );
    fc.assert(
      fc.property(
        fc.array(quote, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 5000, max: 40_000 }),
        (qs, ref) => {
          const components = qs.map((q, i) => ({ ...q, code: `C${String(i).padStart(3, '0')}` }));
          const d = decomposeIndex(ref, components, name, iso);
          const cents = (values: number[]) => values.reduce((sum, v) => sum + Math.round(v * 100), 0);
          assert.equal(cents(d.entries.map((e) => e.points)), Math.round(d.priceChg * 100));
          assert.equal(cents(d.groups.map((g) => g.points)), Math.round(d.priceChg * 100));
          assert.equal(Math.round((d.close - ref) * 100), Math.round(d.priceChg * 100));
          assert.equal(
            d.entries.reduce((sum, e) => sum + e.reference_weight_ppm, 0),
            1_000_000,
          );
          const exact = components.reduce((sum, c) => {
            const cap = c.reference * c.shares;
            return sum + cap * (c.price / c.reference);
          }, 0);
          const caps = components.reduce((sum, c) => sum + c.reference * c.shares, 0);
          assert.ok(
            Math.abs(ref * (exact / caps) - ref - d.priceChg) <= 0.005 + 1e-9,
            'the change is the weighted move',
          );
        },
      ),
      { numRuns: 200, seed: 17 },
    );
  });

  test('splitHundredths keeps each value within a hundredth and hits the total', () => {
    assert.deepEqual(splitHundredths([0.333, 0.333, 0.334], 1), [0.33, 0.33, 0.34]);
    assert.deepEqual(splitHundredths([-0.336, -0.334, -0.33], -1), [-0.34, -0.33, -0.33]);
    assert.throws(() => splitHundredths([0.5, Number.NaN], 1), /not finite/, 'refused, never an endless loop');
    assert.throws(() => splitHundredths([0.5, 0.5], Number.POSITIVE_INFINITY), /not finite/);
  });
});

describe('rankings and projections', () => {
  const values = [3, -7, 0, 5, -1, 9, -9];
  test('rankBy orders, filters by sign and keeps ties in their order', () => {
    const by = (order: Parameters<typeof rankBy>[2], limit = 10) => rankBy(values, (v) => v, order, limit);
    assert.deepEqual(by('desc', 3), [9, 5, 3]);
    assert.deepEqual(by('asc', 2), [-9, -7]);
    assert.deepEqual(by('abs_desc', 3), [9, -9, -7]);
    assert.deepEqual(by('positive_desc'), [9, 5, 3]);
    assert.deepEqual(by('negative_asc'), [-9, -7, -1]);
  });

  test('the projections SinoPac serves are accepted and named as it names them; others list what is served', () => {
    const ok = [
      [
        { kind: 'ranking', target: 'component', metric: 'pct_chg', order: 'negative_asc', limit: 25 },
        'rank/component/pct_chg/negative_asc/25',
      ],
      [
        { kind: 'ranking', target: 'component', metric: 'contribution', order: 'abs_desc', limit: 10, group: '24' },
        'rank/component/contribution/abs_desc/10/group/24',
      ],
      [
        { kind: 'ranking', target: 'group', metric: 'breadth', order: 'abs_desc', limit: 10 },
        'rank/group/breadth/abs_desc/10',
      ],
      [{ kind: 'ranking', target: 'group', metric: 'amount', order: 'desc', limit: 10 }, 'rank/group/amount/desc/10'],
      [{ kind: 'group_metric', target: null, metric: 'amount_share' }, 'groups/amount_share'],
    ] as const;
    for (const [request, value] of ok) assert.equal(projectionValue(checkProjection(request)), value);
    const refused = [
      { kind: 'ranking', target: 'component', metric: 'weight', order: 'abs_desc', limit: 10 },
      { kind: 'ranking', target: 'component', metric: 'contribution', order: 'desc', limit: 10, group: '24' },
      { kind: 'ranking', target: 'component', metric: 'amount_share', order: 'desc', limit: 10 },
      { kind: 'ranking', target: 'group', metric: 'contribution', order: 'abs_desc', limit: 10, group: '24' },
      {
        kind: 'ranking',
        target: 'component',
        metric: 'contribution',
        order: 'desc',
        limit: 10,
        group: 'semi conductors',
      },
      { kind: 'group_metric', metric: 'pct_chg' },
      { kind: 'group_metric', metric: 'breadth', limit: 10 },
    ] as const;
    for (const request of refused) {
      assert.throws(
        () => checkProjection(request),
        (error: Error) => /supported: kind ranking, target component: contribution or pct_chg/.test(error.message),
        JSON.stringify(request),
      );
    }
  });

  test('a group projection of a decomposition: every group for a group_metric, the first ten for a ranking', () => {
    const d = decomposeIndex(
      1000,
      Array.from({ length: 24 }, (_, i) => component(`S${i}`, String(10 + i), 100, 100 + i - 12, 1)),
      name,
      iso,
    );
    const all = project(d, checkProjection({ kind: 'group_metric', metric: 'contribution' }));
    assert.equal(all.target === 'group' && all.groups.length, 24);
    const top = project(
      d,
      checkProjection({ kind: 'ranking', target: 'group', metric: 'contribution', order: 'abs_desc', limit: 10 }),
    );
    assert.ok(top.target === 'group');
    assert.equal(top.groups.length, 10);
    // S0 (industry 10) fell 12%, a 24th of the index: −5 points, the largest either way.
    assert.deepEqual([top.groups[0]!.group.category, top.groups[0]!.value], ['10', -5]);
    assert.deepEqual(
      top.groups.map((g) => Math.abs(g.value)),
      [...top.groups.map((g) => Math.abs(g.value))].sort((a, b) => b - a),
    );
  });
});
