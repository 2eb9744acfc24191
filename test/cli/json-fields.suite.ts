import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { UsageError } from '../../src/cli/errors.js';
import { checkFields, fieldsOf, jsonRequest, selectFields } from '../../src/cli/json-fields.js';

const usage = (message: RegExp) => (error: unknown) => error instanceof UsageError && message.test(error.message);

describe('--json fields', () => {
  test('the flag: absent, alone (list the fields), or comma-separated names, trimmed and without repeats', () => {
    assert.equal(jsonRequest(undefined), undefined);
    assert.deepEqual(jsonRequest(true), { list: true });
    assert.deepEqual(jsonRequest(' , '), { list: true });
    assert.deepEqual(jsonRequest('code, name,code,'), { fields: ['code', 'name'] });
  });

  test('the fields of an answer: the keys of an object, or of every object of a list, in order', () => {
    assert.deepEqual(fieldsOf({ code: '2330', name: 'TSMC' }), ['code', 'name']);
    assert.deepEqual(fieldsOf([{ a: 1 }, { b: 2, a: 3 }, 'x']), ['a', 'b']);
    assert.deepEqual(fieldsOf([]), []);
    assert.deepEqual(fieldsOf('text'), []);
  });

  test('only the fields asked for, in that order, of an object or of each object of a list; missing ones null', () => {
    const row = { code: '2330', name: 'TSMC', close: 1000 };
    assert.deepEqual(selectFields(row, ['close', 'code']), { close: 1000, code: '2330' });
    assert.deepEqual(Object.keys(selectFields(row, ['close', 'code']) as object), ['close', 'code']);
    assert.deepEqual(selectFields([row, { code: '2317' }], ['code', 'close']), [
      { code: '2330', close: 1000 },
      { code: '2317', close: null },
    ]);
    assert.equal(selectFields('text', ['code']), 'text');
  });

  test('--json alone and unknown fields are usage errors that list the available fields', () => {
    assert.deepEqual(checkFields({ fields: ['name'] }, ['code', 'name']), ['name']);
    assert.throws(
      () => checkFields({ list: true }, ['code', 'name']),
      usage(/^specify one or more comma-separated fields for --json:\n {2}code\n {2}name$/),
    );
    assert.throws(
      () => checkFields({ fields: ['code', 'nmae'] }, ['code', 'name']),
      usage(/^unknown JSON field: "nmae"\navailable fields:\n {2}code\n {2}name$/),
    );
    assert.throws(
      () => checkFields({ fields: ['x', 'y'] }, []),
      usage(/^unknown JSON fields: "x", "y"\navailable fields:\n {2}\(none\)$/),
    );
  });
});
