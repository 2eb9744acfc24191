import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accountRequest, portfolioRequests } from '../../../../src/cli/commands/portfolio/requests.js';
import { UsageError } from '../../../../src/cli/context.js';
import { FUTURES_ACCOUNT, STOCK_ACCOUNT } from './fixtures.js';

const usage = (message: RegExp) => (error: unknown) => error instanceof UsageError && message.test(error.message);

describe('request bodies', () => {
  test('the account: fixed type for balance and margin, --account-type only when given, ids of --account', () => {
    assert.deepEqual(accountRequest({}), {});
    assert.deepEqual(accountRequest({}, 'S'), { account_type: 'S' });
    assert.deepEqual(accountRequest({ account: FUTURES_ACCOUNT }, 'F'), { account_type: 'F', ...FUTURES_ACCOUNT });
    assert.deepEqual(accountRequest({ accountType: 'F' }), { account_type: 'F' });
    assert.deepEqual(accountRequest({ account: STOCK_ACCOUNT }), STOCK_ACCOUNT);
  });

  test('unit and detail_id are sent when given; detail_id is required where it applies', () => {
    assert.deepEqual(portfolioRequests.positions({}), {});
    assert.deepEqual(portfolioRequests.positions({ unit: 'Share', accountType: 'S' }), {
      account_type: 'S',
      unit: 'Share',
    });
    assert.deepEqual(portfolioRequests.positionDetail({ detailId: 0 }), { detail_id: 0 });
    assert.deepEqual(portfolioRequests.profitLossDetail({ detailId: 4, unit: 'Common', account: STOCK_ACCOUNT }), {
      ...STOCK_ACCOUNT,
      detail_id: 4,
      unit: 'Common',
    });
    assert.throws(() => portfolioRequests.positionDetail({}), usage(/--detail-id is required/));
  });

  test('the date range defaults to today in Taiwan and must be in order', () => {
    const today = '2026-11-23';
    assert.deepEqual(portfolioRequests.profitLoss({}, today), { begin_date: today, end_date: today });
    assert.deepEqual(portfolioRequests.profitLossSummary({ beginDate: '2026-11-02', accountType: 'F' }, today), {
      account_type: 'F',
      begin_date: '2026-11-02',
      end_date: today,
    });
    assert.deepEqual(portfolioRequests.profitLoss({ endDate: '2026-11-20', beginDate: '2026-11-02', unit: 'Share' }), {
      begin_date: '2026-11-02',
      end_date: '2026-11-20',
      unit: 'Share',
    });
    assert.throws(
      () => portfolioRequests.profitLoss({ beginDate: '2026-11-24' }, today),
      usage(/--begin-date 2026-11-24 is after --end-date 2026-11-23/),
    );
    assert.throws(
      () => portfolioRequests.profitLossSummary({ endDate: '2026-11-01' }, today),
      usage(/--begin-date 2026-11-23 is after --end-date 2026-11-01/),
    );
  });
});
