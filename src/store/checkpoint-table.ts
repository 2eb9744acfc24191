// Checkpoints of a venue's derived state (the simulator's ledger): only the latest is kept, with the rows of derived
// history the checkpoints moved out of the venue's memory (archived rows), which are kept for good.
import type { Connection } from './connection.js';
import { assertIsoDate } from './records.js';

/** A row of derived history, numbered per account; `body` is the venue's text. */
export interface ArchivedRow {
  accountKey: string;
  id: number;
  /** 'YYYY-MM-DD'. */
  date: string;
  body: string;
}

/**
 * The open lots of an account's positions at a checkpoint: the ids of every position open then (the rows of others
 * are deleted) and the lots of those whose lots changed since the last one (`body`: the venue's text).
 */
export interface CheckpointLots {
  accountKey: string;
  openPositionIds: number[];
  /** Lots from the position's lot `firstLot` on; 0 replaces every lot kept of the position. */
  written: { positionId: number; firstLot: number; body: string }[];
}

export interface StoredCheckpoint {
  /** Epoch ms it was written. */
  takenAt: number;
  /** Epoch ms after the `at` of its last deal. */
  before: number;
  /** It covers the deals of rowid up to this one (null: none, or a checkpoint of an older build, which is not used). */
  lastDealRowid: number | null;
  /** How many deals the journal held up to lastDealRowid when it was taken. */
  deals: number;
  state: string;
}

export class CheckpointTable {
  constructor(private readonly connection: Connection) {}

  /**
   * Replaces the checkpoint kept, archives its rows (one of the same account and id is replaced) and keeps its open
   * lots.
   */
  save(checkpoint: StoredCheckpoint, archive: readonly ArchivedRow[] = [], lots: readonly CheckpointLots[] = []): void {
    for (const row of archive) assertIsoDate(row.date, 'date');
    this.connection.guarded(() => {
      const insert = this.connection.prepared(
        'INSERT OR REPLACE INTO archived_rows (account_key, id, date, body) VALUES (@accountKey, @id, @date, @body)',
      );
      for (const row of archive) insert.run(row);
      for (const account of lots) this.saveLots(account);
      this.connection.prepared('DELETE FROM checkpoints').run();
      this.connection
        .prepared(
          'INSERT INTO checkpoints (taken_at, before, last_deal_rowid, deals, state) ' +
            'VALUES (@takenAt, @before, @lastDealRowid, @deals, @state)',
        )
        .run(checkpoint);
    });
  }

  private saveLots({ accountKey, openPositionIds, written }: CheckpointLots): void {
    this.connection
      .prepared(
        'DELETE FROM checkpoint_lots WHERE account_key = ? AND position_id NOT IN (SELECT value FROM json_each(?))',
      )
      .run(accountKey, JSON.stringify(openPositionIds));
    const replace = this.connection.prepared('DELETE FROM checkpoint_lots WHERE account_key = ? AND position_id = ?');
    const upsert = this.connection.prepared(
      'INSERT OR REPLACE INTO checkpoint_lots (account_key, position_id, first_lot, body) VALUES (?, ?, ?, ?)',
    );
    for (const { positionId, firstLot, body } of written) {
      if (firstLot === 0) replace.run(accountKey, positionId);
      upsert.run(accountKey, positionId, firstLot, body);
    }
  }

  /** The lots of a position as the latest checkpoint kept them: the bodies of its rows, oldest lots first. */
  lotsOf(accountKey: string, positionId: number): string[] {
    const sql = 'SELECT body FROM checkpoint_lots WHERE account_key = ? AND position_id = ? ORDER BY first_lot';
    const rows = this.connection.guarded(() => this.connection.prepared(sql).all(accountKey, positionId)) as {
      body: string;
    }[];
    return rows.map((row) => row.body);
  }

  latest(): StoredCheckpoint | undefined {
    const sql =
      'SELECT taken_at AS takenAt, before, last_deal_rowid AS lastDealRowid, deals, state FROM checkpoints ' +
      'ORDER BY id DESC LIMIT 1';
    return this.connection.guarded(() => this.connection.prepared(sql).get() as StoredCheckpoint | undefined);
  }

  /**
   * How many deals the journal held up to a rowid when last counted in a committed state (`counted`). Deals are only
   * ever appended, so a later count starts from it and reads only the rows after it.
   */
  private known: { rowid: number; deals: number } | undefined;

  /**
   * How many deals the journal holds up to a rowid: from the last count known up to a rowid before it, the rows since
   * (a range of the table); without one, all of them (counted through an index, not the table's rows) less those
   * after it.
   */
  dealsThrough(rowid: number): number {
    const count = (sql: string, ...params: number[]) =>
      (this.connection.prepared(sql).get(...params) as { count: number }).count;
    const known = this.known && this.known.rowid <= rowid ? this.known : undefined;
    return this.connection.guarded(() =>
      known
        ? known.deals + count('SELECT count(*) AS count FROM deals WHERE rowid > ? AND rowid <= ?', known.rowid, rowid)
        : count('SELECT count(*) AS count FROM deals') -
          count('SELECT count(*) AS count FROM deals WHERE rowid > ?', rowid),
    );
  }

  /** Remembers a count of the deals up to a rowid, once the rows it counted are committed (dealsThrough). */
  counted(rowid: number, deals: number): void {
    this.known = { rowid, deals };
  }

  /** The journal's last deal: its rowid (a checkpoint taken now covers every deal up to it) and the instant after it. */
  lastDeal(): { rowid: number; after: number } | undefined {
    const sql = 'SELECT rowid, at FROM deals ORDER BY rowid DESC LIMIT 1';
    const last = this.connection.guarded(() => this.connection.prepared(sql).get()) as
      | { rowid: number; at: number }
      | undefined;
    return last && { rowid: last.rowid, after: last.at + 1 };
  }

  /** The order id and seq of each deal after a rowid (those a checkpoint up to it does not cover). */
  dealsAfter(rowid: number): { orderId: string; seq: number }[] {
    const sql = 'SELECT order_id AS orderId, seq FROM deals WHERE rowid > ?';
    return this.connection.guarded(() => this.connection.prepared(sql).all(rowid)) as {
      orderId: string;
      seq: number;
    }[];
  }

  /** The bodies of an account's archived rows dated `begin` to `end` (inclusive) with ids up to `through`, by id. */
  archivedWithin(accountKey: string, begin: string, end: string, through: number): string[] {
    const sql =
      'SELECT body FROM archived_rows WHERE account_key = @accountKey AND date >= @begin AND date <= @end ' +
      'AND id <= @through ORDER BY id';
    return this.connection.guarded(() =>
      (this.connection.prepared(sql).all({ accountKey, begin, end, through }) as { body: string }[]).map(
        (row) => row.body,
      ),
    );
  }

  /** The body of an account's archived row, if its id is at most `through`. */
  archivedById(accountKey: string, id: number, through: number): string | undefined {
    if (id > through) return undefined;
    const sql = 'SELECT body FROM archived_rows WHERE account_key = ? AND id = ?';
    const row = this.connection.guarded(() => this.connection.prepared(sql).get(accountKey, id)) as
      | { body: string }
      | undefined;
    return row?.body;
  }
}
