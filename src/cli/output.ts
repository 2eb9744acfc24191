// How the CLI shows results: pretty JSON exactly as the API sent it, or for people tables and key/value lines.
// Every command renders through these helpers; none formats rows by itself.

import pc from 'picocolors';
import { boxTable, padDisplay } from './table.js';

export const FORMATS = ['human', 'json', 'toon'] as const;
export type Format = (typeof FORMATS)[number];

export type Row = Readonly<Record<string, unknown>>;

const ansi = pc.createColors(true);
const bold = (text: string, color: boolean) => (color ? ansi.bold(text) : text);

export function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** One value as table text: null as '-', legs and other contracts by their code, anything else nested as JSON. */
export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.map(formatCell).join(', ');
  if (typeof value === 'object') {
    const code = (value as { code?: unknown }).code;
    return typeof code === 'string' ? code : JSON.stringify(value);
  }
  return String(value);
}

/** Rows as a table; columns default to every key in order of first appearance. */
export function formatTable(objects: readonly object[], columns?: readonly string[], color = false): string {
  if (objects.length === 0) return '(none)';
  const rows = objects as readonly Row[];
  const keys = columns ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const head = keys.map((key) => bold(key, color));
  return boxTable(
    head,
    rows.map((row) => keys.map((key) => formatCell(row[key]))),
  );
}

/**
 * A column-oriented response (`{datetime: [...], close: [...]}`) as one row per entry, keys in the columns' order.
 * Keys whose value is not an array are left out; a shorter column leaves its cell empty.
 */
export function rowsOfColumns(columns: object): Row[] {
  const arrays = Object.entries(columns).filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]));
  const length = Math.max(0, ...arrays.map(([, values]) => values.length));
  return Array.from({ length }, (_, index) => Object.fromEntries(arrays.map(([key, values]) => [key, values[index]])));
}

/** Nested plain objects become dotted keys, so a record stays one line per value. */
function flatten(record: Row, prefix = ''): [string, unknown][] {
  return Object.entries(record).flatMap(([key, value]): [string, unknown][] =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? flatten(value as Row, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value]],
  );
}

export interface RecordStyle {
  /** A two-column bordered table instead of aligned lines. */
  table?: boolean;
  /** Spaces before each line. */
  indent?: number;
  /** Bold keys (default: none). */
  color?: boolean;
}

/** One object as `key  value` lines (or a two-column table). */
export function formatRecord(record: object, style: RecordStyle = {}): string {
  const color = style.color ?? false;
  const entries = flatten(record as Row);
  if (entries.length === 0) return '(none)';
  if (style.table) {
    return boxTable(
      null,
      entries.map(([key, value]) => [bold(key, color), formatCell(value)]),
    );
  }
  const width = Math.max(...entries.map(([key]) => key.length));
  const indent = ' '.repeat(style.indent ?? 0);
  return entries.map(([key, value]) => `${indent}${bold(key.padEnd(width), color)}  ${formatCell(value)}`).join('\n');
}

/**
 * One line of fixed-width cells (for rows printed one at a time, as a stream's): each cell as formatCell shows it,
 * padded to its width (a longer value is kept whole), two spaces apart. With `header`, the cells are bold.
 */
export function formatLine(
  cells: readonly unknown[],
  widths: readonly number[],
  style: { header?: boolean; color?: boolean } = {},
): string {
  const color = style.color ?? false;
  const texts = cells.map(formatCell);
  while (texts.length > 0 && texts[texts.length - 1] === '') texts.pop();
  return texts
    .map((text, index) => {
      const padded = index === texts.length - 1 ? text : padDisplay(text, widths[index] ?? 0);
      return style.header ? bold(padded, color) : padded;
    })
    .join('  ');
}

/** A heading line for human output. */
export function formatHeading(text: string, color = false): string {
  return bold(text, color);
}

/** `[#####...............]` with `width` cells for a fraction from 0 to 1. */
export function formatBar(fraction: number, width = 20): string {
  const clamped = Number.isFinite(fraction) ? Math.min(Math.max(fraction, 0), 1) : 0;
  const filled = Math.round(clamped * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

/** ✓ or ✗, green or red with colour. */
export function formatMark(ok: boolean, color = false): string {
  if (!color) return ok ? '✓' : '✗';
  return ok ? ansi.green('✓') : ansi.red('✗');
}
