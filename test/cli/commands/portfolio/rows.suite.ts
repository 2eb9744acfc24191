import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatPortfolioRows } from '../../../../src/cli/commands/portfolio/rows.js';
import { FUTURE_POSITION, FUTURE_PROFIT_DETAIL, STOCK_POSITION } from '../../../helpers/portfolio-fixtures.js';

describe('formatPortfolioRows', () => {
  const header = (text: string) => text.split('\n').find((line) => /\bcode\b/.test(line)) ?? '';

  test('stock rows get the stock columns, futures rows the futures columns', () => {
    const stock = formatPortfolioRows('positions', [STOCK_POSITION]);
    assert.match(
      header(stock),
      /id\s*│\s*code\s*│\s*direction\s*│\s*quantity\s*│\s*yd_quantity\s*│\s*price\s*│\s*last_price\s*│\s*pnl\s*│\s*cond/,
    );
    assert.match(stock, /0\s*│\s*2330\s*│\s*Buy\s*│\s*2\s*│\s*2\s*│\s*1012\.5\s*│\s*1025\s*│\s*24137\.25\s*│\s*Cash/);
    assert.doesNotMatch(stock, /margin_purchase_amount/);
    const futures = formatPortfolioRows('positions', [FUTURE_POSITION]);
    assert.match(
      header(futures),
      /id\s*│\s*code\s*│\s*direction\s*│\s*quantity\s*│\s*price\s*│\s*last_price\s*│\s*pnl\s*│?$/,
    );
    assert.match(futures, /3\s*│\s*TXFL6\s*│\s*Sell\s*│\s*1\s*│\s*22810\s*│\s*22795\s*│\s*3000/);
    const detail = formatPortfolioRows('profitLossDetail', [FUTURE_PROFIT_DETAIL]);
    assert.match(header(detail), /date\s*│\s*code\s*│\s*direction\s*│\s*quantity\s*│\s*entry_date\s*│\s*entry_price/);
    assert.equal(formatPortfolioRows('profitLoss', []), '(none)');
  });
});
