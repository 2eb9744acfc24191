import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { Type } from 'typebox';
import { withTypeLists } from '../../src/server/plugins/serialization.js';

type Serialize = (data: unknown) => string;
const fastJsonStringify = createRequire(import.meta.resolve('fastify'))('fast-json-stringify') as (
  schema: object,
  options?: object,
) => Serialize;

const Nullable = Type.Object({
  name: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'a name or null' })),
  count: Type.Union([Type.Integer(), Type.Null()]),
  flags: Type.Array(Type.Union([Type.Boolean(), Type.Null()])),
  nested: Type.Object({ ratio: Type.Union([Type.Number(), Type.Null()]) }),
  mixed: Type.Union([Type.String(), Type.Object({ code: Type.String() })]),
});

test('nullable unions become type lists; other anyOf, descriptions and the original schema stay', () => {
  const before = JSON.stringify(Nullable);
  const listed = withTypeLists(Nullable) as { properties: Record<string, Record<string, unknown>> };
  assert.equal(JSON.stringify(Nullable), before);
  assert.deepEqual(listed.properties.name, { type: ['string', 'null'], description: 'a name or null' });
  assert.deepEqual(listed.properties.count, { type: ['integer', 'null'] });
  assert.deepEqual((listed.properties.flags as { items: unknown }).items, { type: ['boolean', 'null'] });
  assert.equal((listed.properties.mixed as { anyOf: unknown[] }).anyOf.length, 2);
  assert.deepEqual(withTypeLists([{ anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }] }]), [
    { anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }] },
  ]);
});

test('a schema with type lists serializes valid values as the anyOf schema does', () => {
  const viaAnyOf = fastJsonStringify(Nullable, { schema: {} });
  const viaTypeLists = fastJsonStringify(withTypeLists(Nullable) as object, { schema: {} });
  const values = [
    { name: 'x', count: 3, flags: [true, null, false], nested: { ratio: 0.25 }, mixed: 'a' },
    { name: null, count: null, flags: [], nested: { ratio: null }, mixed: { code: '2330' } },
    { count: 0, flags: [null], nested: { ratio: -1e-7 }, mixed: '', extra: 'dropped' },
    { name: '引號 "quoted" \\n', count: -5, flags: [false], nested: { ratio: 12345.678 }, mixed: { code: '' } },
  ];
  for (const value of values) assert.equal(viaTypeLists(value), viaAnyOf(value), JSON.stringify(value));
});
