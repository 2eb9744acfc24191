// The bodies of the portfolio queries, from the flags: the account (type and ids), dates, unit and detail id.

import type { PositionUnit } from '../../../domain/portfolio.js';
import { UsageError } from '../../context.js';
import { type AccountSelector, taipeiDate } from '../../parsers.js';

export const ACCOUNT_TYPES = ['S', 'F'] as const;
export type PortfolioAccountType = (typeof ACCOUNT_TYPES)[number];

export interface AccountOptions {
  account?: AccountSelector | undefined;
  accountType?: PortfolioAccountType | undefined;
}

export interface PortfolioOptions extends AccountOptions {
  unit?: PositionUnit | undefined;
  detailId?: number | undefined;
  beginDate?: string | undefined;
  endDate?: string | undefined;
}

export type PortfolioRequest = Record<string, string | number>;

/**
 * The account part of a body: account_type (the query's own type when it has one, else --account-type if given)
 * and the ids of --account. Nothing given: the daemon uses the default account of the type.
 */
export function accountRequest(options: AccountOptions, fixedType?: PortfolioAccountType): PortfolioRequest {
  const type = fixedType ?? options.accountType;
  return { ...(type === undefined ? {} : { account_type: type }), ...(options.account ?? {}) };
}

/** begin_date and end_date, each today in Taiwan unless given, in order. */
function dateRange(options: PortfolioOptions, today: string): PortfolioRequest {
  const begin = options.beginDate ?? today;
  const end = options.endDate ?? today;
  if (begin > end) throw new UsageError(`--begin-date ${begin} is after --end-date ${end}`);
  return { begin_date: begin, end_date: end };
}

const unitOf = (options: PortfolioOptions): PortfolioRequest =>
  options.unit === undefined ? {} : { unit: options.unit };

function detailIdOf(options: PortfolioOptions): PortfolioRequest {
  if (options.detailId === undefined) throw new UsageError('--detail-id is required');
  return { detail_id: options.detailId };
}

/** The body of each query, from the command's options. */
export const portfolioRequests = {
  positions: (options: PortfolioOptions) => ({ ...accountRequest(options), ...unitOf(options) }),
  positionDetail: (options: PortfolioOptions) => ({ ...accountRequest(options), ...detailIdOf(options) }),
  profitLoss: (options: PortfolioOptions, today = taipeiDate()) => ({
    ...accountRequest(options),
    ...dateRange(options, today),
    ...unitOf(options),
  }),
  profitLossDetail: (options: PortfolioOptions) => ({
    ...accountRequest(options),
    ...detailIdOf(options),
    ...unitOf(options),
  }),
  profitLossSummary: (options: PortfolioOptions, today = taipeiDate()) => ({
    ...accountRequest(options),
    ...dateRange(options, today),
  }),
};
