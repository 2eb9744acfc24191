// The simulator's index analytics streams: at each update of IX0001 or IX0043, index_contribution (a ranking of the
// components' points), industry_contribution (the points of each industry, adding up to the index's change) and
// index_components (a projection), all of one decomposition whose points add up to the index's change exactly.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ContributionRanking, ProjectionRequest } from '../../src/domain/index-projections.js';
import type { QuoteType } from '../../src/domain/quotes.js';
import { simBrokerAt } from '../helpers/sim-market.js';

const DAY = '2026-11-20';

function brokerAt(time: string) {
  const { clock, broker, events, run } = simBrokerAt(DAY, time, 500);
  const subscribe = (
    quoteType: QuoteType,
    extra: { ranking?: ContributionRanking; projection?: ProjectionRequest } = {},
    code = 'IX0001',
  ) => {
    const subscription = broker.quotes.resolve({ contract: { code }, quoteType, intradayOdd: false, ...extra });
    broker.quotes.subscribe(subscription);
    return subscription;
  };
  const of = (name: string) => events.filter((e) => e.name === name).map((e) => e.data as Record<string, unknown>);
  return { broker, clock, events, run, subscribe, of };
}

const hundredths = (text: unknown) => Math.round(Number(text) * 100);

type Entry = { code: string; price: number; reference: number; price_chg: number; pct_chg: number; points: number };

describe('index_contribution and industry_contribution', () => {
  test('one event per index update; the industries add up to the index change to the hundredth', () => {
    const { run, subscribe, of } = brokerAt('10:00:00');
    subscribe('IndustryContribution');
    subscribe('Quote');
    run(60_000);
    const industries = of('industry_contribution');
    assert.ok(industries.length >= 10, `${industries.length} updates in a minute`);
    assert.equal(industries.length, of('quote_idx').length, 'one per index update');
    assert.deepEqual(Object.keys(industries[0]!), [
      'code',
      'date',
      'time',
      'entries',
      'simtrade',
      'index_close',
      'index_price_chg',
    ]);
    for (const event of industries) {
      const entries = event.entries as { category: string; points: number }[];
      assert.equal(
        entries.reduce((sum, e) => sum + hundredths(e.points), 0),
        hundredths(event.index_price_chg),
        `${event.time}: the industries add up to the change`,
      );
      assert.equal(typeof event.index_close, 'number', 'a JSON number, as the official server sends it');
      assert.ok(entries.every((e) => typeof e.points === 'number'));
      assert.equal(new Set(entries.map((e) => e.category)).size, entries.length, 'each industry once');
      const points = entries.map((e) => Number(e.points));
      assert.deepEqual(
        points,
        [...points].sort((a, b) => b - a),
        'largest first',
      );
    }
    assert.equal(industries[0]!.code, 'IX0001');
    assert.equal(industries[0]!.date, DAY.replaceAll('-', '/'), 'YYYY/MM/DD, as calculated_index');
  });

  test('the four rankings: sorted, signed, sized; each entry its price change and points', () => {
    const { run, subscribe, of } = brokerAt('10:30:00');
    for (const ranking of ['top10', 'abs10', 'positive25', 'negative25'] as const) {
      subscribe('IndexContribution', { ranking });
    }
    subscribe('IndexComponents', {
      projection: { kind: 'ranking', target: 'component', metric: 'contribution', order: 'desc', limit: 10 },
    });
    run(30_000);
    const events = of('index_contribution');
    const last = (ranking: string) => events.filter((e) => e.ranking === ranking).at(-1)!;
    const entries = (ranking: string) => last(ranking).entries as Entry[];
    const points = (ranking: string) => entries(ranking).map((e) => Number(e.points));
    assert.deepEqual(Object.keys(last('top10')), ['ranking', 'code', 'date', 'time', 'entries', 'simtrade']);
    assert.deepEqual(Object.keys(entries('top10')[0]!), [
      'code',
      'price',
      'reference',
      'price_chg',
      'pct_chg',
      'points',
    ]);
    assert.equal(points('top10').length, 10);
    assert.deepEqual(
      points('top10'),
      [...points('top10')].sort((a, b) => b - a),
    );
    const abs = points('abs10').map(Math.abs);
    assert.deepEqual(
      abs,
      [...abs].sort((a, b) => b - a),
    );
    assert.ok(abs[0]! >= Math.abs(points('top10')[0]!));
    assert.ok(points('positive25').every((p) => p > 0));
    assert.ok(points('positive25').length <= 25);
    assert.deepEqual(
      points('positive25').slice(0, 10),
      points('top10').filter((p) => p > 0),
    );
    assert.ok(points('negative25').every((p) => p < 0));
    assert.deepEqual(
      points('negative25'),
      [...points('negative25')].sort((a, b) => a - b),
    );
    for (const entry of entries('abs10')) {
      assert.equal(
        hundredths(entry.price_chg),
        Math.round((Number(entry.price) - Number(entry.reference)) * 100),
        `${entry.code}: price_chg is price − reference`,
      );
      assert.equal(
        Math.sign(Number(entry.points)) || 0,
        Math.sign(Number(entry.price_chg)) || 0,
        `${entry.code}: points go the way its price went`,
      );
    }
    const components = of('index_components').at(-1)!;
    const values = (components.entries as { code: string; value: number }[]).map((e) => [e.code, e.value]);
    assert.deepEqual(
      values,
      entries('top10').map((e) => [e.code, e.points]),
      'the projection of contribution desc/10 is the top10 ranking',
    );
  });

  test('unsubscribing one ranking stops only its events', () => {
    const { broker, run, subscribe, of } = brokerAt('11:00:00');
    const top = subscribe('IndexContribution', { ranking: 'top10' });
    subscribe('IndexContribution', { ranking: 'abs10' });
    run(10_000);
    broker.quotes.unsubscribe(top);
    const before = of('index_contribution').length;
    run(20_000);
    const after = of('index_contribution').slice(before);
    assert.ok(after.length >= 2);
    assert.ok(after.every((e) => e.ranking === 'abs10'));
  });
});

describe('index_components', () => {
  test('a group metric: every industry with its value and unit; a ranking within a group keeps to it', () => {
    const { run, subscribe, of } = brokerAt('09:30:00');
    subscribe('IndexComponents', { projection: { kind: 'group_metric', metric: 'contribution' } });
    subscribe(
      'IndexComponents',
      { projection: { kind: 'ranking', target: 'component', metric: 'amount', order: 'desc', limit: 10, group: '24' } },
      'IX0043',
    );
    subscribe('IndustryContribution');
    run(20_000);
    const events = of('index_components');
    const groups = events.filter((e) => e.unit !== undefined).at(-1)!;
    assert.deepEqual(Object.keys(groups), [
      'contract',
      'projection',
      'date',
      'time',
      'calculated_at',
      'reference_date',
      'market_phase',
      'simtrade',
      'unit',
      'groups',
    ]);
    assert.equal(groups.unit, 'points');
    assert.equal(groups.market_phase, 'continuous_trading');
    assert.equal(groups.reference_date, '2026-11-19');
    const industry = of('industry_contribution').at(-1)!;
    const byCategory = new Map(
      (industry.entries as { category: string; points: number }[]).map((e) => [e.category, e.points]),
    );
    for (const group of groups.groups as { category: string; name: string; item_count: number; value: number }[]) {
      assert.equal(group.value, byCategory.get(group.category), `${group.category}: the same points`);
      assert.ok(group.item_count > 0 && group.name.length > 0);
    }
    const otc = events.filter((e) => (e.contract as { code: string }).code === 'IX0043').at(-1)!;
    const entries = otc.entries as { category: string; value: number }[];
    assert.ok(entries.length > 0 && entries.length <= 10);
    assert.ok(entries.every((e) => e.category === '24'));
    const amounts = entries.map((e) => Number(e.value));
    assert.deepEqual(
      amounts,
      [...amounts].sort((a, b) => b - a),
    );
  });

  test('only IX0001 and IX0043, and only the projections SinoPac serves', () => {
    const { broker } = brokerAt('10:00:00');
    const resolve = (code: string, quoteType: QuoteType, extra = {}) =>
      broker.quotes.resolve({ contract: { code }, quoteType, intradayOdd: false, ...extra });
    assert.throws(() => resolve('2330', 'IndustryContribution'), /IX0001 and IX0043 only, and 2330 is a stock/);
    assert.throws(() => resolve('IX0010', 'IndexContribution', { ranking: 'top10' }), /IX0010 is another index/);
    assert.throws(() => resolve('IX0001', 'IndexContribution'), /needs a ranking/);
    assert.throws(
      () =>
        resolve('IX0001', 'IndexComponents', {
          projection: { kind: 'ranking', target: 'group', metric: 'weight', order: 'abs_desc', limit: 10 },
        }),
      /weight abs_desc\/10 is not served for groups; supported: /,
    );
  });
});
