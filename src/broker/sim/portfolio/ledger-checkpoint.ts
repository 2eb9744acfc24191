// A checkpoint of the ledger: its whole state as text, written by the gateway into the journal, so that a restart
// puts it back and books only the deals after it instead of every deal of history. Booking is deterministic, so a
// checkpoint plus the rest of the deals gives the state booking them all gives, ids included.

import type { SavedOrders } from '../../port.js';
import type { AccountState } from './account-state.js';
import type { Ledger } from './ledger.js';

/** Bumped whenever AccountState changes shape: a checkpoint of another version is not read (all deals are booked). */
export const LEDGER_CHECKPOINT_VERSION = 1;

interface SavedAccount extends Omit<AccountState, 'stocks' | 'futures' | 'heldAtDayEnd'> {
  stocks: [string, AccountState['stocks'] extends Map<string, infer V> ? V : never][];
  futures: [string, AccountState['futures'] extends Map<string, infer V> ? V : never][];
  heldAtDayEnd: [string, { day: string; shares: number }[]][];
}

interface SavedLedger {
  version: number;
  accounts: SavedAccount[];
  /** How many positions the venue had cash-settled at expiry by then (they are in the accounts already). */
  settlements: number;
}

/** The ledger's state as text, with how many expiry settlements it holds. */
export function ledgerCheckpoint(ledger: Ledger, settlements: number): string {
  const accounts = [...ledger.accounts.values()].map(
    (account): SavedAccount => ({
      ...account,
      stocks: [...account.stocks],
      futures: [...account.futures],
      heldAtDayEnd: [...account.heldAtDayEnd],
    }),
  );
  const saved: SavedLedger = { version: LEDGER_CHECKPOINT_VERSION, accounts, settlements };
  return JSON.stringify(saved);
}

/**
 * Puts a checkpoint's state into the ledger, replacing what it held; returns how many expiry settlements it holds, or
 * undefined (the ledger left empty) for a checkpoint that cannot be read, with one log line.
 */
export function restoreLedger(ledger: Ledger, state: string, log: (line: string) => void): number | undefined {
  ledger.clear();
  try {
    const saved = JSON.parse(state) as SavedLedger;
    if (saved?.version !== LEDGER_CHECKPOINT_VERSION || !Array.isArray(saved.accounts)) {
      throw new TypeError(`version ${String(saved?.version)}, this build reads ${LEDGER_CHECKPOINT_VERSION}`);
    }
    for (const account of saved.accounts) {
      ledger.accounts.set(account.key, {
        ...account,
        stocks: new Map(account.stocks),
        futures: new Map(account.futures),
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

/** Hands the checkpoint to the journal; one that cannot be written costs only a longer next start. */
export function keepLedgerCheckpoint(saved: SavedOrders, state: string, log: (line: string) => void): void {
  try {
    saved.keepCheckpoint?.(state);
  } catch (error) {
    log(`journal: the ledger's checkpoint was not written: ${(error as Error).message}`);
  }
}

/**
 * Puts the journal's checkpoint into the ledger. Returns what to restore: the orders and deals handed back with it and
 * the instant it covers up to, or, when it cannot be read, every order with deals and every deal (the ledger empty).
 */
export function fromCheckpoint(
  saved: SavedOrders,
  ledger: Ledger,
  log: (line: string) => void,
): { saved: SavedOrders; inCheckpoint: number; coveredBefore: number | undefined } {
  const { checkpoint } = saved;
  if (!checkpoint) return { saved, inCheckpoint: 0, coveredBefore: undefined };
  const inCheckpoint = restoreLedger(ledger, checkpoint.state, log);
  if (inCheckpoint === undefined) return { saved: checkpoint.everything(), inCheckpoint: 0, coveredBefore: undefined };
  return { saved, inCheckpoint, coveredBefore: checkpoint.before };
}
