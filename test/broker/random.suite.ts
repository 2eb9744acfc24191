import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { unitOf, unitsOf } from '../../src/broker/sim/random.js';

test('unitsOf(...keys)(what) is unitOf(...keys, what), for any keys, surrogate pairs included', () => {
  const key = fc.oneof(fc.string({ unit: 'grapheme' }), fc.integer(), fc.constantFrom('2330', '202611', 0, '𠮷'));
  fc.assert(
    fc.property(fc.array(key, { minLength: 1, maxLength: 5 }), fc.string({ unit: 'grapheme' }), (keys, what) => {
      const [first, ...rest] = keys;
      assert.equal(unitsOf(first!, ...rest)(what), unitOf(...keys, what));
    }),
  );
  const draw = unitsOf('warrant', '2330', '202611', 2);
  assert.equal(draw('strike'), unitOf('warrant', '2330', '202611', 2, 'strike'));
  assert.notEqual(draw('strike'), draw('tenor'));
});
