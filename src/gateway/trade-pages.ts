// Older trades page by page out of the journal (order/trades with limit, cursor or a date range): the orders in the
// journal's order (placed, then written), a cursor naming the last one of a page, and dates read as Taiwan days.

import { TRADE_PAGES } from '../contract/wire.js';
import { DomainError, InvalidRequestError } from '../domain/errors.js';
import { addDays, isDateString, taipeiInstant } from '../domain/time.js';
import type { OrderPageQuery, OrderPosition } from '../store/journal.js';

export interface TradesPageRequest {
  limit?: number | undefined;
  /** The cursor the previous page gave; the first page when omitted. */
  cursor?: string | undefined;
  /** 'YYYY-MM-DD', Taiwan time: orders placed on or after this day. */
  beginDate?: string | undefined;
  /** 'YYYY-MM-DD', Taiwan time: orders placed on or before this day. */
  endDate?: string | undefined;
}

/** What the journal is asked for a page of an account's trades (every account's when `accountKey` is undefined). */
export function orderPageQuery(request: TradesPageRequest, accountKey: string | undefined): OrderPageQuery {
  const { beginDate, endDate } = request;
  for (const [name, value] of [
    ['begin_date', beginDate],
    ['end_date', endDate],
  ] as const) {
    if (value !== undefined && !isDateString(value)) {
      throw new InvalidRequestError(`${name} '${value}' is not a date: give YYYY-MM-DD, a day in Taiwan time`);
    }
  }
  if (beginDate !== undefined && endDate !== undefined && beginDate > endDate) {
    throw new InvalidRequestError(`begin_date ${beginDate} is after end_date ${endDate}; give the earlier date first`);
  }
  return {
    accountKey,
    from: beginDate === undefined ? undefined : taipeiInstant(beginDate),
    to: endDate === undefined ? undefined : taipeiInstant(addDays(endDate, 1)),
    after: request.cursor === undefined ? undefined : positionOf(request.cursor),
    limit: request.limit ?? TRADE_PAGES.defaultLimit,
  };
}

/** The cursor of the page after `last`: opaque to clients, it names where the journal's order goes on. */
export function cursorAfter(last: OrderPosition): string {
  return `${last.placedAt}.${last.rowid}`;
}

const CURSOR = /^(\d{1,16})\.(\d{1,16})$/;

function positionOf(cursor: string): OrderPosition {
  const match = CURSOR.exec(cursor);
  if (!match) {
    throw new DomainError(
      'VALIDATION_FAILED',
      `cursor '${cursor.slice(0, 40)}' is not one this server gave: send the X-Next-Cursor header of the previous ` +
        'page as it came, or no cursor for the first page',
      [{ loc: ['body', 'cursor'], msg: 'not a cursor of this server', type: 'value_error' }],
    );
  }
  return { placedAt: Number(match[1]), rowid: Number(match[2]) };
}
