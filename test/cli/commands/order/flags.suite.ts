import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidArgumentError } from 'commander';
import { customField, price, waitMs, waitTimeoutOption } from '../../../../src/cli/commands/order/flags.js';
import { UsageError } from '../../../../src/cli/context.js';

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

  test('--wait-timeout: whole seconds from 1 to 120, the default without it, never with --no-wait', () => {
    const parse = (value: string) => waitTimeoutOption(5).parseArg?.(value, undefined);
    assert.equal(parse('30'), 30);
    assert.throws(() => parse('0'), invalidArgument(/integer from 1 to 120/));
    assert.throws(() => parse('121'), invalidArgument(/integer from 1 to 120/));
    assert.throws(() => parse('1.5'), invalidArgument(/integer from 1 to 120/));
    assert.equal(waitMs({}, 5_000), 5_000);
    assert.equal(waitMs({ waitTimeout: 30 }, 5_000), 30_000);
    assert.equal(waitMs({ wait: false }, 5_000), 5_000);
    assert.throws(
      () => waitMs({ wait: false, waitTimeout: 3 }, 5_000),
      (error: unknown) => error instanceof UsageError && /--no-wait and --wait-timeout/.test(error.message),
    );
  });
});
