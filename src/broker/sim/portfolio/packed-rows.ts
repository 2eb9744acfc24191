// Rows of one shape written as their field names once and an array of values per row: a checkpoint holds every open
// lot, and the names repeated in each lot were most of its text (issue 22). Fields are never null in these rows; an
// absent or undefined field comes back absent, as through JSON.

export interface PackedRows {
  fields: string[];
  rows: unknown[][];
}

export function packRows(rows: readonly object[]): PackedRows {
  const seen = new Set<string>();
  for (const row of rows) for (const field of Object.keys(row)) seen.add(field);
  const fields = [...seen];
  return { fields, rows: rows.map((row) => fields.map((field) => (row as Record<string, unknown>)[field] ?? null)) };
}

export function unpackRows<T>(packed: PackedRows): T[] {
  return packed.rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < packed.fields.length; i++) if (values[i] !== null) row[packed.fields[i]!] = values[i];
    return row as T;
  });
}
