import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inCliTerms } from '../../src/cli/api-terms.js';

describe('inCliTerms', () => {
  test('endpoints become the sjgate command, with the query as flags', () => {
    assert.equal(
      inCliTerms(
        '030001 is a warrant; warrants have no info lookup: use GET /api/v1/data/contracts/warrants?underlying_code=2330&code=030001',
      ),
      '030001 is a warrant; warrants have no info lookup: use `sjgate contracts warrants --underlying 2330 --code 030001`',
    );
    assert.equal(
      inCliTerms('futures root ABC not found; GET /api/v1/data/contracts/futures/roots lists them'),
      'futures root ABC not found; `sjgate contracts futures-roots` lists them',
    );
    assert.equal(
      inCliTerms('the kbar stream carries ...: GET /api/v1/data/kbars answers the bars of any contract'),
      'the kbar stream carries ...: `sjgate data kbars` answers the bars of any contract',
    );
  });

  test('body fields become flags; an endpoint without a command and other text stay as they are', () => {
    assert.equal(
      inCliTerms('subscribe IX0001 with quote_type Quote; odd lots: quote_type BidAsk with intraday_odd false'),
      'subscribe IX0001 with --quote-type quote; odd lots: --quote-type bid_ask with no --intraday-odd',
    );
    assert.equal(inCliTerms('see GET /api/v1/nothing/here'), 'see GET /api/v1/nothing/here');
    assert.equal(inCliTerms('contract 2330 not found'), 'contract 2330 not found');
  });
});
