import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidArgumentError } from 'commander';
import { codeOrCombo, codesWithCombos, instrumentRef } from '../../../../src/cli/commands/data/flags.js';

const invalidArgument = (message: RegExp) => (error: unknown) =>
  error instanceof InvalidArgumentError && message.test(error.message);

describe('contracts and combos', () => {
  test('a contract carries only the identity the user gave', () => {
    assert.deepEqual(instrumentRef('2330'), { code: '2330' });
    assert.deepEqual(instrumentRef('2330', { securityType: 'STK', exchange: 'OTC' }), {
      security_type: 'STK',
      exchange: 'OTC',
      code: '2330',
    });
  });

  test('a combo has the two legs; the security type and exchange given apply to both', () => {
    assert.deepEqual(instrumentRef('TXFG6', {}, 'TXFH6'), { legs: [{ code: 'TXFG6' }, { code: 'TXFH6' }] });
    assert.deepEqual(instrumentRef('TXFG6', { securityType: 'FUT' }, 'TXFH6'), {
      legs: [
        { security_type: 'FUT', code: 'TXFG6' },
        { security_type: 'FUT', code: 'TXFH6' },
      ],
    });
  });

  test('`a+b` is a combo of two legs; a plain code stays a code', () => {
    assert.equal(codeOrCombo(' 2330 '), '2330');
    assert.deepEqual(codeOrCombo('TXFG6 + TXFH6'), ['TXFG6', 'TXFH6']);
    assert.deepEqual(codesWithCombos('2330,TXFG6+TXFH6, 2317'), ['2330', ['TXFG6', 'TXFH6'], '2317']);
  });

  test('a combo needs exactly two non-empty legs', () => {
    assert.throws(() => codeOrCombo('TXFG6+'), invalidArgument(/empty code.*CODE1\+CODE2/));
    assert.throws(() => codeOrCombo('+TXFH6'), invalidArgument(/empty code/));
    assert.throws(() => codeOrCombo('A+B+C'), invalidArgument(/two legs/));
    assert.throws(() => codesWithCombos(' , '), invalidArgument(/codes separated by commas/));
  });
});
