// What the official CLI does to an answer before it prints it as TOON: it reads the answer into its own models and
// writes them out again, which puts some fields in another order and leaves some nulls out. `--format toon` does the
// same here (measured on 1.7.9 against one daemon, see docs/official-behaviour.md), so that both CLIs print the same
// bytes for the same answer. --format json keeps the API's answer as it is.

type Fields = { [key: string]: unknown };

const isObject = (value: unknown): value is Fields =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `fields` with `first` (those present) first, in that order, then the rest as they were. */
function withFirst(fields: Fields, first: readonly string[]): Fields {
  const out: Fields = {};
  for (const name of first) if (name in fields) out[name] = fields[name];
  for (const [name, value] of Object.entries(fields)) if (!(name in out)) out[name] = value;
  return out;
}

/** A contract inside another answer (a trade's, a watchlist's, a reserve's): region TW, target_code only when set. */
function contract({ target_code, ...fields }: Fields): Fields {
  const shaped = withFirst({ region: 'TW', ...fields }, ['security_type', 'region', 'exchange', 'code']);
  return target_code === null || target_code === undefined ? shaped : withFirst({ ...shaped, target_code }, []);
}

/** `fields` with the field `name` moved to right after `after`, when both are there. */
function movedAfter(fields: Fields, name: string, after: string): Fields {
  if (!(name in fields) || !(after in fields)) return fields;
  const out: Fields = {};
  for (const [field, value] of Object.entries(fields)) {
    if (field !== name) out[field] = value;
    if (field === after) out[name] = fields[name];
  }
  return out;
}

const IDENTITY = ['dataset', 'security_type', 'region', 'exchange', 'code', 'target_code', 'name'];
const LISTED = ['root', 'delivery_month', 'delivery_date', 'last_trading_date', 'begin_date'];
const UNDERLYING = ['underlying_kind', 'underlying_code', 'multiplier', 'contract_size', 'size_unit', 'quote_ccy'];
const TICKS = ['tick_basis', 'tick_rule', 'tick', 'tick_value', 'spec_kind', 'decimal_locator'];
const OPTION = ['strike_price', 'option_right', 'expiry_weekday', 'week_of_month'];

/** The field order of the official models of futures, options and warrant records, where it is not sjgate's. */
const RECORD_ORDER: Record<string, readonly string[]> = {
  'TW/FUT': [...IDENTITY, ...LISTED, ...UNDERLYING, ...TICKS],
  'TW/OPT': [...IDENTITY, ...LISTED, ...OPTION, ...UNDERLYING, ...TICKS, 'strike_decimal_locator'],
  'TW/WRT': [...IDENTITY.slice(0, -1), ...['underlying_code', 'underlying_type', 'call_put', 'financial']],
};

/** A row of `contracts list`: the base contract, target_code null when it has none. */
const listedContract = (fields: Fields) =>
  withFirst({ target_code: null, ...fields }, ['security_type', 'region', 'exchange', 'code', 'target_code']);

/**
 * An answer of named columns (ticks, kbars, daily quotes, regulatory lists: every field an array of values, all of
 * one length) as one row per index, as the official CLI prints them; null for any other value.
 */
function rowsOf(fields: Fields): Fields[] | null {
  const columns = Object.entries(fields);
  if (columns.length < 2) return null;
  const length = Array.isArray(columns[0]?.[1]) ? (columns[0][1] as unknown[]).length : -1;
  const flat = ([, column]: [string, unknown]) =>
    Array.isArray(column) &&
    column.length === length &&
    column.every((cell) => !isObject(cell) && !Array.isArray(cell));
  if (length < 0 || !columns.every(flat)) return null;
  return Array.from({ length }, (_, row) =>
    Object.fromEntries(columns.map(([name, column]) => [name, (column as unknown[])[row]])),
  );
}

function shaped(fields: Fields, key: string, parent: Fields | null): Fields {
  if (key === 'contract' && 'security_type' in fields && 'code' in fields) return contract(fields);
  // `contracts list` names the listed type beside its rows; a watchlist's contracts are plain contracts.
  if (key === 'contracts' && parent !== null && 'security_type' in parent) return listedContract(fields);
  if (key === 'contracts' && 'security_type' in fields) return contract(fields);
  // A trade's order: price_type right after order_type, as the official model declares it.
  if (key === 'order') return movedAfter(fields, 'price_type', 'order_type');
  if ('contracts' in fields && 'page' in fields) {
    return withFirst(fields, ['contracts', 'security_type', 'region', 'page', 'page_size', 'max_page', 'total']);
  }
  if ('underlying_code' in fields && 'warrant_count' in fields) {
    return withFirst(fields, ['underlying_code', 'name', 'warrant_count']);
  }
  // Contract info records (info, futures, options and warrants listings) lead with their dataset.
  if (typeof fields.dataset === 'string' && 'security_type' in fields) {
    const ordered = withFirst(fields, RECORD_ORDER[fields.dataset] ?? ['dataset']);
    // A warrant's name comes after its issue size, before its reference price.
    return fields.dataset === 'TW/WRT' ? movedAfter(ordered, 'name', 'issue_size') : ordered;
  }
  return fields;
}

/** The value as the official CLI's models write it out again. */
export function asOfficialModels(value: unknown, key = '', parent: Fields | null = null): unknown {
  if (Array.isArray(value)) return value.map((item) => asOfficialModels(item, key, parent));
  if (!isObject(value)) return value;
  if (key === '' && parent === null) {
    const rows = rowsOf(value);
    if (rows !== null) return rows;
  }
  const fields: Fields = {};
  for (const [name, inner] of Object.entries(value)) fields[name] = asOfficialModels(inner, name, value);
  return shaped(fields, key, parent);
}
