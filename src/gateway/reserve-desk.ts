// Share and cash pre-collection as the server sees it: the venue's queries and requests, the share and price checked
// the same way for every venue, and a request's answer given only once the journal holds what the venue reported of
// it (the simulator's reserves are journaled with its orders' state and survive a restart).

import type { ReservePort } from '../broker/port.js';
import { requireEarmarkPrice, requireReserveShares } from '../domain/reserve.js';

export function durableReserve(venue: ReservePort, durable: () => Promise<void>): ReservePort {
  const durably = async <T>(answer: T): Promise<T> => {
    await durable();
    return answer;
  };
  return {
    summary: (account) => venue.summary(account),
    detail: (account) => venue.detail(account),
    earmarkingDetail: (account) => venue.earmarkingDetail(account),
    reserveStock: async (input) => {
      requireReserveShares(input.share);
      return durably(await venue.reserveStock(input));
    },
    reserveEarmarking: async (input) => {
      requireReserveShares(input.share);
      requireEarmarkPrice(input.price);
      return durably(await venue.reserveEarmarking(input));
    },
  };
}
