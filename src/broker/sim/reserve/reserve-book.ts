// What the simulated broker has pre-collected (預收券款) today: shares set aside from a holding and cash earmarked for a
// buy. The order desk reads it (a sell may not take reserved shares, a buy not earmarked cash), the portfolio reads it
// (the bank balance and buying power drop by what is earmarked), and the reserve desk (sim-reserve.ts) writes it.
// Reserves hold for the trading day they were made; the rows are kept as one named value the gateway journals with
// the orders' state (RESERVES_STATE) and hands back at start.

import type { Contract } from '../../../domain/contracts.js';

/** The name of the value the rows are kept under in the gateway's journal. */
export const RESERVES_STATE = 'reserves';

export interface ReserveRow {
  kind: 'stock' | 'earmark';
  accountKey: string;
  contract: Contract;
  share: number;
  /** Earmarks: the price per share and the cash held (share x price); 0 for a share reserve. */
  price: number;
  amount: number;
  /** Epoch milliseconds of the request, and the stock market's trading day then. */
  at: number;
  day: string;
  /** Accepted (true) or refused, with the broker's reason in info. */
  status: boolean;
  info: string;
}

/** The order desk's view of what a stock account may sell and spend: net of working orders and of these reserves. */
export interface StockFunds {
  sellableShares(accountKey: string, code: string): number;
  availableCash(accountKey: string): number;
}

export class ReserveBook {
  private rows: ReserveRow[] = [];
  private readonly listeners = new Set<(state: Record<string, string>) => void>();
  /** Set by the order desk, which owns the working orders these are net of. */
  funds: StockFunds | null = null;

  /** `today`: the stock market's trading day now. */
  constructor(readonly today: () => string) {}

  onStateChange(listener: (state: Record<string, string>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Puts back the rows the journal kept; a value that cannot be read is left out with one log line. */
  restore(text: string | undefined, log: (line: string) => void): void {
    this.rows = [];
    if (text === undefined) return;
    try {
      const rows: unknown = JSON.parse(text);
      if (!Array.isArray(rows) || !rows.every(isReserveRow)) throw new Error('not a list of reserve rows');
      this.rows = rows;
    } catch (error) {
      log(`journal: ${RESERVES_STATE} left out at load: ${(error as Error).message}`);
    }
  }

  /** Records a request, accepted or refused; the rows of earlier days lapse. */
  add(row: ReserveRow): void {
    this.rows = [...this.rows.filter((r) => r.day >= row.day), row];
    const state = { [RESERVES_STATE]: JSON.stringify(this.rows) };
    for (const listener of this.listeners) listener(state);
  }

  /** Today's requests of an account, oldest first. */
  rowsOf(accountKey: string, kind: ReserveRow['kind']): ReserveRow[] {
    const today = this.today();
    return this.rows.filter((r) => r.accountKey === accountKey && r.kind === kind && r.day === today);
  }

  /** Shares of a stock reserved today. */
  reservedShares(accountKey: string, code: string): number {
    return this.accepted(accountKey, 'stock')
      .filter((r) => r.contract.code === code)
      .reduce((sum, r) => sum + r.share, 0);
  }

  /** Cash earmarked today, NT$. */
  earmarkedCash(accountKey: string): number {
    return this.accepted(accountKey, 'earmark').reduce((sum, r) => sum + r.amount, 0);
  }

  private accepted(accountKey: string, kind: ReserveRow['kind']): ReserveRow[] {
    return this.rowsOf(accountKey, kind).filter((r) => r.status);
  }
}

function isReserveRow(value: unknown): value is ReserveRow {
  if (typeof value !== 'object' || value === null) return false;
  const row = value as Record<string, unknown>;
  return (
    (row.kind === 'stock' || row.kind === 'earmark') &&
    typeof row.accountKey === 'string' &&
    typeof (row.contract as Contract | undefined)?.code === 'string' &&
    ['share', 'price', 'amount', 'at'].every((name) => Number.isFinite(row[name])) &&
    typeof row.day === 'string' &&
    typeof row.status === 'boolean' &&
    typeof row.info === 'string'
  );
}
