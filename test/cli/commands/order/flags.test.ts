import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidArgumentError } from 'commander';
import { customField, price } from '../../../../src/cli/commands/order/flags.js';

const invalidArgument = (message: RegExp) => (error: unknown) =>
  error instanceof InvalidArgumentError && message.test(error.message);

describe('order flag values', () => {
  test('prices are numbers from 0; custom_field is up to 6 letters or digits', () => {
    assert.equal(price('1000.5'), 1000.5);
    assert.equal(price('0'), 0);
    assert.throws(() => price('-1'), invalidArgument(/from 0/));
    assert.throws(() => price('abc'), invalidArgument(/a number/));
    assert.equal(customField('ab12CD'), 'ab12CD');
    assert.throws(() => customField('ABCDEFG'), invalidArgument(/6 letters or digits/));
    assert.throws(() => customField('a-b'), invalidArgument(/6 letters or digits/));
  });
});
