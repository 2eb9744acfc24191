import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { detailLines } from '../../src/cli/context.js';

describe('detailLines', () => {
  test('lists each validation problem with where it is', () => {
    const details = [
      { loc: ['query', 'security_type'], msg: 'must be one of STK, IND, FUT, OPT, WRT', type: 'enum' },
      { loc: ['body', 'legs', 1, 'code'], msg: 'required', type: 'missing' },
    ];
    assert.deepEqual(detailLines(details), [
      'query.security_type: must be one of STK, IND, FUT, OPT, WRT',
      'body.legs.1.code: required',
    ]);
  });

  test('shows a text detail as it is and nothing for null', () => {
    assert.deepEqual(detailLines('try again later'), ['try again later']);
    assert.deepEqual(detailLines(null), []);
  });
});
