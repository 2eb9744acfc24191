// A fake daemon of the portfolio routes, answering with the portfolio fixtures.

import { envelope, type FakeDaemon, fakeDaemon } from '../../../helpers/cli.js';
import {
  BALANCE,
  FUTURE_POSITION,
  FUTURE_PROFIT_DETAIL,
  MARGIN,
  SETTLEMENTS,
  STOCK_POSITION,
  STOCK_PROFIT_LOSS,
  STOCK_SUMMARY,
  TRADING_LIMITS,
} from '../../../helpers/portfolio-fixtures.js';

export const STOCK_ACCOUNT = { broker_id: '9A95', account_id: '6880831' };
export const FUTURES_ACCOUNT = { broker_id: 'F002000', account_id: '5234661' };

export function portfolioDaemon(): FakeDaemon {
  return fakeDaemon(({ url, body }) => {
    const request = (body ?? {}) as Record<string, unknown>;
    switch (url) {
      case '/api/v1/portfolio/account_balance':
        return [200, BALANCE];
      case '/api/v1/portfolio/margin':
        return [200, MARGIN];
      case '/api/v1/portfolio/position_unit':
        return [200, request.account_type === 'F' ? [FUTURE_POSITION] : [STOCK_POSITION]];
      case '/api/v1/portfolio/position_detail':
        return envelope('POSITION_NOT_FOUND', `no position with detail_id ${request.detail_id}`);
      case '/api/v1/portfolio/profit_loss':
        return [200, [STOCK_PROFIT_LOSS]];
      case '/api/v1/portfolio/profit_loss_detail':
        return [200, [FUTURE_PROFIT_DETAIL]];
      case '/api/v1/portfolio/profitloss_sum':
        return [200, STOCK_SUMMARY];
      case '/api/v1/portfolio/settlements':
        return [200, SETTLEMENTS];
      case '/api/v1/portfolio/trading_limits':
        return [200, TRADING_LIMITS];
      default:
        return envelope('ROUTE_NOT_FOUND', `no route ${url}`);
    }
  });
}
