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

export interface StoredCheckpoint {
  /** Epoch ms it was written. */
  takenAt: number;
  /** Epoch ms: it covers the deals journaled with an earlier `at`. */
  before: number;
  /** How many deals the journal held before `before` when it was taken. */
  deals: number;
  state: string;
}

export class CheckpointTable {
  constructor(private readonly connection: Connection) {}

  /** Replaces the checkpoint kept, and archives its rows (one of the same account and id is replaced). */
  save(checkpoint: StoredCheckpoint, archive: readonly ArchivedRow[] = []): void {
    for (const row of archive) assertIsoDate(row.date, 'date');
    this.connection.guarded(() => {
      const insert = this.connection.prepared(
        'INSERT OR REPLACE INTO archived_rows (account_key, id, date, body) VALUES (@accountKey, @id, @date, @body)',
      );
      for (const row of archive) insert.run(row);
      this.connection.prepared('DELETE FROM checkpoints').run();
      this.connection
        .prepared('INSERT INTO checkpoints (taken_at, before, deals, state) VALUES (@takenAt, @before, @deals, @state)')
        .run(checkpoint);
    });
  }

  latest(): StoredCheckpoint | undefined {
    const sql = 'SELECT taken_at AS takenAt, before, deals, state FROM checkpoints ORDER BY id DESC LIMIT 1';
    return this.connection.guarded(() => this.connection.prepared(sql).get() as StoredCheckpoint | undefined);
  }

  /** How many deals the journal holds with an `at` before the instant (through the index of deals by time). */
  dealsBefore(before: number): number {
    const sql = 'SELECT count(*) AS count FROM deals WHERE at < ?';
    return this.connection.guarded(() => (this.connection.prepared(sql).get(before) as { count: number }).count);
  }

  /** The instant after the journal's last deal: a checkpoint taken now covers every deal before it. */
  afterLastDeal(): number {
    const sql = 'SELECT max(at) AS last FROM deals';
    const last = this.connection.guarded(() => (this.connection.prepared(sql).get() as { last: number | null }).last);
    return last === null ? 0 : last + 1;
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
