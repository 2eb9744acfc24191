// Checkpoints of a venue's derived state (the simulator's ledger): only the latest is kept.
import type { Connection } from './connection.js';

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

  /** Replaces the checkpoint kept. */
  save(checkpoint: StoredCheckpoint): void {
    this.connection.guarded(() => {
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
}
