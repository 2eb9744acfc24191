// TOON (Token-Oriented Object Notation), the official CLI's default output: YAML-like `key: value` lines, nested
// objects indented by two spaces, arrays with their length (`tags[2]: a,b`), arrays of objects with the same
// primitive fields as a header and one comma-separated row each (`items[2]{id,qty}:`), other arrays as `- ` items.
// Strings are quoted as the official 1.7.9 CLI quotes them (measured, see docs/official-behaviour.md), so that the
// two print the same bytes for the same answer.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const INDENT = '  ';

/** A value as JSON would carry it: undefined fields dropped, dates as ISO text, non-finite numbers null. */
function normalize(value: unknown): Json {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? (Object.is(value, -0) ? 0 : value) : null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(normalize);
  if (typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const [key, field] of Object.entries(value)) if (field !== undefined) out[key] = normalize(field);
    return out;
  }
  return null;
}

const isPrimitive = (value: Json): value is null | boolean | number | string =>
  value === null || typeof value !== 'object';

/** A number in plain decimal, without an exponent. */
function number(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

const quote = (text: string) =>
  `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`;

/**
 * A date and time, or a time, the official CLI leaves bare although it holds `:` and `-`: five characters or more of
 * digits, `:`, `-`, `.`, `+`, `T`, `Z` and spaces, with a colon (`2026-11-26T09:00:00`, `12:30`, not `1:2`).
 */
const timestampLike = (text: string) => text.length >= 5 && text.includes(':') && /^[\d:.+TZ -]+$/.test(text);

/** Read as a number by a loose reader: a digit, then only digits and `.eE+-` (`1.2.3`, `1e`, `2026-11-26`). */
const numberLike = (text: string) => /^\d[\d.eE+-]*$/.test(text);

/** A string as it is when it cannot be mistaken for something else, quoted otherwise. */
function string(text: string): string {
  if (timestampLike(text)) return text;
  const ambiguous =
    text === '' ||
    text !== text.trim() ||
    /^(true|false|null)$/.test(text) ||
    numberLike(text) ||
    /^0\d/.test(text) ||
    /[[\]{}:\-"\\,\n\r\t]/.test(text);
  return ambiguous ? quote(text) : text;
}

function primitive(value: null | boolean | number | string): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return number(value);
  if (typeof value === 'boolean') return String(value);
  return string(value);
}

const key = (name: string) => (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : quote(name));

/** The fields shared by every element, when all are objects with the same primitive fields in the same order. */
function tabularFields(items: Json[]): string[] | null {
  const first = items[0];
  if (first === undefined || first === null || typeof first !== 'object' || Array.isArray(first)) return null;
  const fields = Object.keys(first);
  if (fields.length === 0) return null;
  for (const item of items) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return null;
    const names = Object.keys(item);
    if (names.length !== fields.length || names.some((name, i) => name !== fields[i])) return null;
    if (Object.values(item).some((field) => !isPrimitive(field))) return null;
  }
  return fields;
}

/** The lines of `name` (a key, or '' at the root) holding `value`, at `depth`. */
function field(name: string, value: Json, depth: number, lines: string[]): void {
  const pad = INDENT.repeat(depth);
  const label = name === '' ? '' : key(name);
  if (isPrimitive(value)) {
    lines.push(`${pad}${label}: ${primitive(value)}`);
  } else if (Array.isArray(value)) {
    array(`${pad}${label}`, value, depth, lines);
  } else {
    lines.push(`${pad}${label}:`);
    object(value, depth + 1, lines);
  }
}

function object(value: { [key: string]: Json }, depth: number, lines: string[]): void {
  for (const [name, inner] of Object.entries(value)) field(name, inner, depth, lines);
}

function array(head: string, items: Json[], depth: number, lines: string[]): void {
  const pad = INDENT.repeat(depth + 1);
  if (items.every(isPrimitive)) {
    lines.push(`${head}[${items.length}]:${items.length === 0 ? '' : ` ${items.map(primitive).join(',')}`}`);
    return;
  }
  const fields = tabularFields(items);
  if (fields !== null) {
    lines.push(`${head}[${items.length}]{${fields.map(key).join(',')}}:`);
    for (const item of items as { [key: string]: Json }[]) {
      lines.push(`${pad}${fields.map((name) => primitive(item[name] as null | boolean | number | string)).join(',')}`);
    }
    return;
  }
  lines.push(`${head}[${items.length}]:`);
  for (const item of items) {
    if (isPrimitive(item)) {
      lines.push(`${pad}- ${primitive(item)}`);
    } else if (Array.isArray(item)) {
      array(`${pad}-`, item, depth + 1, lines);
      const last = lines.length - 1;
      lines[last] = (lines[last] as string).replace(`${pad}-[`, `${pad}- [`);
    } else {
      const inner: string[] = [];
      object(item, depth + 2, inner);
      if (inner.length === 0) {
        lines.push(`${pad}-`);
        continue;
      }
      // The first field goes on the dash's line; the rest line up under it.
      lines.push(`${pad}- ${(inner[0] as string).slice(INDENT.repeat(depth + 2).length)}`, ...inner.slice(1));
    }
  }
}

/** A value in TOON, without a trailing newline. */
export function toToon(input: unknown): string {
  const value = normalize(input);
  const lines: string[] = [];
  if (isPrimitive(value)) return primitive(value);
  if (Array.isArray(value)) array('', value, 0, lines);
  else object(value, 0, lines);
  return lines.join('\n');
}
