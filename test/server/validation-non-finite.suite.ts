// The check of the parameters and query of every request for non-finite numbers: a cheap yes/no first (it builds no
// path), the full walk with the paths only when the answer is yes. Both must agree on every shape.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { holdsNonFinite, nonFiniteNumbers } from '../../src/server/plugins/validation.js';

const CASES: [string, unknown, boolean][] = [
  ['a flat query of finite values', { code: '2330', page: 2, exact: true }, false],
  ['no value at all', {}, false],
  ['a bare Infinity', Number.POSITIVE_INFINITY, true],
  ['NaN in a query', { strike_min: Number.NaN }, true],
  ['-Infinity in an array', { codes: [1, 2, Number.NEGATIVE_INFINITY] }, true],
  ['Infinity deep in nested objects and arrays', { a: [{ b: [[{ c: Number.POSITIVE_INFINITY }]] }] }, true],
  ['finite numbers deep in nested objects and arrays', { a: [{ b: [[{ c: 1e300 }]] }], d: null }, false],
  ['strings that name a non-finite number', { price: 'Infinity', qty: 'NaN' }, false],
];

test('holdsNonFinite agrees with nonFiniteNumbers on every shape', { timeout: 5_000 }, () => {
  for (const [label, data, expected] of CASES) {
    assert.equal(holdsNonFinite(data), expected, label);
    assert.equal(nonFiniteNumbers(data).length > 0, expected, label);
  }
});

test('holdsNonFinite looks only at the object own values, as the full walk does', { timeout: 5_000 }, () => {
  const inherited = Object.create({ hidden: Number.POSITIVE_INFINITY }) as Record<string, unknown>;
  inherited.code = '2330';
  assert.equal(holdsNonFinite(inherited), false);
  assert.deepEqual(nonFiniteNumbers(inherited), []);
});
