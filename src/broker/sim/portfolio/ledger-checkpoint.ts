// A checkpoint of the ledger: its whole state as text, written by the gateway into the journal, so that a restart
// puts it back and books only the deals after it instead of every deal of history. Booking is deterministic, so a
// checkpoint plus the rest of the deals gives the state booking them all gives, ids included.

import { previousTradingDay } from '../../../domain/calendar.js';
import { taipeiDate } from '../../../domain/time.js';
import type { ArchivedRow, CheckpointLots, SavedOrders, VenueCheckpoint } from '../../port.js';
import type { SimMarket } from '../market/market.js';
import type { AccountState, FuturePositionState, LedgerCashEntry, StockPositionState } from './account-state.js';
import type { Ledger } from './ledger.js';
import { type PackedRows, packRows, unpackRows } from './packed-rows.js';
import { forgetArchived, rowsToArchive } from './realized-history.js';
import { lotsText, storedLotsOf } from './stored-lots.js';

/**
 * Bumped whenever AccountState changes shape: a checkpoint of another version is not read (all deals are booked).
 * Version 4 keeps stock lots in the journal beside the state (stored-lots.ts); a version 3 checkpoint, with every lot in
 * its state, is read as it is (its lots are moved to the journal by the next checkpoint).
 */
export const LEDGER_CHECKPOINT_VERSION = 4;
const READABLE_VERSIONS = [3, LEDGER_CHECKPOINT_VERSION];

/** A position with its lots packed (packed-rows.ts). */
type Saved<P extends { lots: object[] }> = Omit<P, 'lots'> & { lots: PackedRows };

interface SavedAccount extends Omit<AccountState, 'stocks' | 'futures' | 'heldAtDayEnd'> {
  stocks: [string, Saved<StockPositionState>][];
  futures: [string, Saved<FuturePositionState>][];
  heldAtDayEnd: [string, { day: string; shares: number }[]][];
}

const packed = <P extends { lots: object[] }>([key, position]: [string, P]): [string, Saved<P>] => [
  key,
  { ...position, lots: packRows(position.lots) },
];

const unpacked = <P extends { lots: object[] }>([key, position]: [string, Saved<P>]): [string, P] => [
  key,
  { ...position, lots: unpackRows(position.lots) } as unknown as P,
];

interface SavedLedger {
  version: number;
  /** Cash entries and day-end shares of days before this one are compacted: it answers for this day and later. */
  compactedBefore: string;
  accounts: SavedAccount[];
  /** How many positions the venue had cash-settled at expiry by then (they are in the accounts already). */
  settlements: number;
}

/**
 * Compacts the ledger for queries of `earliestDay` and later (compactLedger) and returns its state as text, with how
 * many expiry settlements it holds, and the realized rows of days before `earliestDay` to archive: the state holds
 * the rest, and the ledger forgets them once the journal has both (`kept`).
 */
export function ledgerCheckpoint(ledger: Ledger, settlements: number, earliestDay: string): VenueCheckpoint {
  compactLedger(ledger, earliestDay);
  const archive: ArchivedRow[] = [];
  const lots: CheckpointLots[] = [];
  const forget: (() => void)[] = [];
  const accounts = [...ledger.accounts.values()].map((account): SavedAccount => {
    const { rows, through } = rowsToArchive(account, earliestDay);
    for (const row of rows) archive.push(row); // not push(...rows): a year of rows overflows the call stack
    forget.push(() => forgetArchived(account, rows.length, through));
    const stocks = storeStockLots(account);
    lots.push(stocks.lots);
    forget.push(stocks.kept);
    const archived = rows.length;
    return {
      ...account,
      stocks: stocks.saved.map(packed),
      futures: [...account.futures].map(packed),
      heldAtDayEnd: [...account.heldAtDayEnd],
      stockRealized: account.type === 'S' ? account.stockRealized.slice(archived) : account.stockRealized,
      futureRealized: account.type === 'F' ? account.futureRealized.slice(archived) : account.futureRealized,
      archivedThrough: through,
    };
  });
  const saved: SavedLedger = {
    version: LEDGER_CHECKPOINT_VERSION,
    compactedBefore: earliestDay,
    accounts,
    settlements,
  };
  const kept = () => {
    for (const forgetRows of forget) forgetRows();
  };
  return { state: JSON.stringify(saved), archive, lots, kept };
}

/**
 * Hands the lots in memory of each stock position to the journal: the saved positions hold only what their lots sum
 * to, and once the journal holds them (`kept`) the ledger forgets them too, unless they changed meanwhile.
 */
function storeStockLots(account: AccountState) {
  const lots: CheckpointLots = { accountKey: account.key, openPositionIds: [], written: [] };
  const forget: (() => void)[] = [];
  const saved = [...account.stocks].map(([key, position]): [string, StockPositionState] => {
    lots.openPositionIds.push(position.id);
    const inMemory = position.lots;
    if (inMemory.length === 0) return [key, position];
    // Lots opened since the last checkpoint are appended to those it kept; lots read back may have changed.
    const firstLot = position.stored?.count ?? 0;
    const stored = storedLotsOf(position);
    lots.written.push({ positionId: position.id, firstLot, body: lotsText(inMemory) });
    forget.push(() => {
      if (position.lots !== inMemory || inMemory.length + firstLot !== stored.count) return;
      position.lots = [];
      position.stored = stored;
    });
    return [key, { ...position, lots: [], stored }];
  });
  const kept = () => {
    for (const forgetLots of forget) forgetLots();
  };
  return { saved, lots, kept };
}

/**
 * Puts a checkpoint's state into the ledger, replacing what it held; returns how many expiry settlements it holds, or
 * undefined (the ledger left empty) for a checkpoint that cannot be read, with one log line.
 */
export function restoreLedger(
  ledger: Ledger,
  state: string,
  log: (line: string) => void,
  earliestDay: string,
): number | undefined {
  ledger.clear();
  try {
    const saved = JSON.parse(state) as SavedLedger;
    if (!READABLE_VERSIONS.includes(saved?.version) || !Array.isArray(saved.accounts)) {
      throw new TypeError(`version ${String(saved?.version)}, this build reads ${LEDGER_CHECKPOINT_VERSION}`);
    }
    // A clock set back before the compaction would ask for days it no longer tells apart.
    if (!(earliestDay >= saved.compactedBefore)) {
      throw new RangeError(`it answers for ${saved.compactedBefore} and later, the clock is at ${earliestDay}`);
    }
    for (const account of saved.accounts) {
      // What an account starts with is configuration (SJ_SIM_STARTING_CASH), read at each start, not history.
      ledger.open(account.key, account.type);
      const { startingBalance } = ledger.accounts.get(account.key)!;
      ledger.accounts.set(account.key, {
        ...account,
        startingBalance,
        stocks: new Map(account.stocks.map(unpacked<StockPositionState>)),
        futures: new Map(account.futures.map(unpacked<FuturePositionState>)),
        heldAtDayEnd: new Map(account.heldAtDayEnd),
      });
    }
    return Number.isInteger(saved.settlements) ? saved.settlements : 0;
  } catch (error) {
    ledger.clear();
    log(`journal: the ledger's checkpoint left out at load (every deal is booked again): ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * Puts the journal's checkpoint into the ledger. Returns what to restore: the orders and deals handed back with it
 * (the deals it covers marked so), or, when it cannot be read, every order with deals and every deal (the ledger
 * empty).
 */
export function fromCheckpoint(
  saved: SavedOrders,
  ledger: Ledger,
  log: (line: string) => void,
  earliestDay: string,
): { saved: SavedOrders; inCheckpoint: number; fromCheckpoint: boolean } {
  const { checkpoint } = saved;
  if (!checkpoint) return { saved, inCheckpoint: 0, fromCheckpoint: false };
  const inCheckpoint = restoreLedger(ledger, checkpoint.state, log, earliestDay);
  if (inCheckpoint === undefined) return { saved: checkpoint.everything(), inCheckpoint: 0, fromCheckpoint: false };
  return { saved, inCheckpoint, fromCheckpoint: true };
}

/**
 * Keeps what queries of `earliestDay` and later can tell apart: the cash entries of earlier days that settled before
 * it become one carried entry per account (balances, settlements of T to T+2 and the margin statement's yesterday and
 * today read the same), and of each position's day-end shares before it only the last is kept.
 */
export function compactLedger(ledger: Ledger, earliestDay: string): void {
  for (const account of ledger.accounts.values()) {
    account.cash = compactCash(account.cash, earliestDay);
    for (const [key, history] of account.heldAtDayEnd) {
      const firstKept = Math.max(
        0,
        history.findLastIndex((entry) => entry.day < earliestDay),
      );
      if (firstKept > 0) account.heldAtDayEnd.set(key, history.slice(firstKept));
    }
  }
}

function compactCash(cash: LedgerCashEntry[], earliestDay: string): LedgerCashEntry[] {
  const settled = (entry: LedgerCashEntry) =>
    entry.day < earliestDay && (entry.settleDate === null || entry.settleDate < earliestDay);
  const old = cash.filter(settled);
  const last = old.at(-1);
  if (!last || (old.length === 1 && last.reason === CARRIED)) return cash;
  const carried: LedgerCashEntry = {
    accountKey: last.accountKey,
    at: last.at,
    amount: old.reduce((sum, entry) => sum + entry.amount, 0),
    reason: CARRIED,
    ref: null,
    settleDate: null,
    day: last.day,
  };
  return [carried, ...cash.filter((entry) => !settled(entry))];
}

/** The reason of the entry that sums an account's settled cash entries of past days. */
const CARRIED = 'carried';

/**
 * A day no query at `now` or later asks about as today: the trading day before the earliest of the stock market's,
 * the futures market's (a night session belongs to the next day) and the calendar's.
 */
export function earliestDayAt(market: Pick<SimMarket, 'dayAt'>, now: number): string {
  const days = [market.dayAt('stock', now), market.dayAt('futures', now), taipeiDate(now)].sort();
  return previousTradingDay(days[0]!);
}
