// Stock lots the journal keeps with the last checkpoint (issue 22): a long history of buys leaves hundreds of
// thousands of open lots, which a restart need not hold in memory. A position keeps what its stored lots sum to
// (StockPositionState.stored), and reads them when a deal closes them or they are asked for; the next checkpoint keeps
// them again (ledger-checkpoint.ts).

import type { StockLot, StockPositionState, StoredLots } from './account-state.js';
import { totalsOf } from './account-state.js';
import { type PackedRows, packRows, unpackRows } from './packed-rows.js';

/** Reads a position's lots as the journal's checkpoint keeps them: the texts lotsText wrote, oldest lots first. */
export type LotReader = (accountKey: string, positionId: number) => string[];

export class StoredLotReader {
  /** Set when the ledger is restored from a checkpoint. */
  read: LotReader | undefined;

  /** Every lot of the position, oldest first: its stored lots are read into memory (until the next checkpoint). */
  load(accountKey: string, position: StockPositionState): StockLot[] {
    const { stored } = position;
    if (stored === undefined) return position.lots;
    const lots = (this.read?.(accountKey, position.id) ?? []).flatMap((text) =>
      unpackRows<StockLot>(JSON.parse(text) as PackedRows),
    );
    if (lots.length !== stored.count) {
      throw new Error(
        `the journal holds ${lots.length} of the ${stored.count} lots of position ${position.id} of ${accountKey}`,
      );
    }
    position.lots = [...lots, ...position.lots];
    delete position.stored;
    return position.lots;
  }
}

/** The text a position's lots are kept as. */
export const lotsText = (lots: readonly StockLot[]): string => JSON.stringify(packRows(lots));

/** What a position's lots sum to once the journal keeps them too: its stored ones and those in memory (at least one). */
export function storedLotsOf(position: StockPositionState): StoredLots {
  const { lots, stored } = position;
  return { ...totalsOf(lots, stored), count: lots.length + (stored?.count ?? 0), lastDay: lots.at(-1)!.day };
}
