// The open database as every part of the journal reads and writes it: through the same prepared statements, and
// with SQLite's errors explained for the journal's path.
import type Database from 'better-sqlite3';
import { explainStoreError } from './errors.js';
import { prepareStatements, type Statements } from './statements.js';

export class Connection {
  readonly statements: Statements;
  /** Queries whose WHERE depends on the filter given, and the statements of smaller tables: each prepared on first use. */
  private readonly lazyStatements = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    readonly path: string,
  ) {
    this.statements = prepareStatements(db);
  }

  /** Runs `work` on the prepared statements; a failure of the file or its lock comes out explained. */
  guarded<T>(work: (statements: Statements) => T): T {
    try {
      return work(this.statements);
    } catch (error) {
      throw explainStoreError(error, this.path);
    }
  }

  /** Runs a query built from a filter; `params` may hold undefined for conditions the filter left out. */
  filtered<Row>(sql: string, params: Record<string, unknown>): Row[] {
    const bound = Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));
    return this.guarded(() => {
      const statement = this.prepared(sql);
      return (Object.keys(bound).length === 0 ? statement.all() : statement.all(bound)) as Row[];
    });
  }

  /** The statement of `sql`, prepared once, on first use; run it inside guarded(). */
  prepared(sql: string): Database.Statement {
    const known = this.lazyStatements.get(sql);
    if (known) return known;
    const statement = this.db.prepare(sql);
    this.lazyStatements.set(sql, statement);
    return statement;
  }
}
