// The watchlists table: a person's named lists of contracts. The contracts are domain objects the store does not
// interpret, kept as JSON text in their order.
import type { Connection } from './connection.js';

export interface StoredWatchlist {
  /** The rowid; the gateway names it `wl-<id>`. */
  id: number;
  personId: string;
  name: string;
  contracts: unknown[];
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
}

interface WatchlistRow {
  id: number;
  personId: string;
  name: string;
  contracts: string;
  createdAt: number;
  updatedAt: number;
}

const COLUMNS = 'id, person_id AS personId, name, contracts, created_at AS createdAt, updated_at AS updatedAt';

const fromRow = (row: WatchlistRow): StoredWatchlist => ({ ...row, contracts: JSON.parse(row.contracts) as unknown[] });

export class WatchlistTable {
  constructor(private readonly connection: Connection) {}

  /** A person's lists, oldest first. */
  list(personId: string): StoredWatchlist[] {
    const sql = `SELECT ${COLUMNS} FROM watchlists WHERE person_id = ? ORDER BY id`;
    return this.connection.guarded(() => this.connection.prepared(sql).all(personId) as WatchlistRow[]).map(fromRow);
  }

  count(personId: string): number {
    const sql = 'SELECT count(*) FROM watchlists WHERE person_id = ?';
    return this.connection.guarded(() => this.connection.prepared(sql).pluck().get(personId) as number);
  }

  /** One list of the person; undefined when there is none by that id, or it is another person's. */
  get(personId: string, id: number): StoredWatchlist | undefined {
    const sql = `SELECT ${COLUMNS} FROM watchlists WHERE id = ? AND person_id = ?`;
    const row = this.connection.guarded(
      () => this.connection.prepared(sql).get(id, personId) as WatchlistRow | undefined,
    );
    return row && fromRow(row);
  }

  /** Returns the new list's id. */
  insert(personId: string, name: string, contracts: unknown[], at: number): number {
    const sql = `INSERT INTO watchlists (person_id, name, contracts, created_at, updated_at)
      VALUES (@personId, @name, @contracts, @at, @at)`;
    const params = { personId, name, contracts: JSON.stringify(contracts), at };
    return Number(this.connection.guarded(() => this.connection.prepared(sql).run(params)).lastInsertRowid);
  }

  /** Replaces the name and contracts of the person's list; false when it has no such list. */
  update(personId: string, id: number, name: string, contracts: unknown[], at: number): boolean {
    const sql = `UPDATE watchlists SET name = @name, contracts = @contracts, updated_at = @at
      WHERE id = @id AND person_id = @personId`;
    const params = { personId, id, name, contracts: JSON.stringify(contracts), at };
    return this.connection.guarded(() => this.connection.prepared(sql).run(params)).changes === 1;
  }

  /** False when the person has no such list. */
  delete(personId: string, id: number): boolean {
    const sql = 'DELETE FROM watchlists WHERE id = ? AND person_id = ?';
    return this.connection.guarded(() => this.connection.prepared(sql).run(id, personId)).changes === 1;
  }
}
