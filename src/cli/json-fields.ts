// `--json FIELDS`, as gh has it: JSON with only the named fields of the answer (of each object of a list, of each
// line of a stream). `--json` alone, or a field the answer does not have, is a usage error that lists the fields.
// A command that changes something names its fields in advance, so a wrong field is refused before the request;
// the fields of any other command are those of its answer.

import { UsageError } from './errors.js';

/** What --json asked for: the fields, or (`--json` alone) the list of them. */
export type JsonRequest = { fields: readonly string[] } | { list: true };

/** The value of `--json [FIELDS]` (true when given without one); undefined when --json was not given. */
export function jsonRequest(value: string | boolean | undefined): JsonRequest | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return { list: true };
  const fields = value
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field !== '');
  return fields.length === 0 ? { list: true } : { fields: [...new Set(fields)] };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The fields of an answer: the keys of an object, or of the objects of a list, in order of first appearance. */
export function fieldsOf(value: unknown): string[] {
  const records = Array.isArray(value) ? value.filter(isRecord) : isRecord(value) ? [value] : [];
  return [...new Set(records.flatMap((record) => Object.keys(record)))];
}

const listed = (fields: readonly string[]) =>
  fields.length === 0 ? '  (none)' : fields.map((field) => `  ${field}`).join('\n');

/** The fields to print, when all of them are available; otherwise a UsageError listing the available ones. */
export function checkFields(request: JsonRequest, available: readonly string[]): readonly string[] {
  if ('list' in request) {
    throw new UsageError(`specify one or more comma-separated fields for --json:\n${listed(available)}`);
  }
  const unknown = request.fields.filter((field) => !available.includes(field));
  if (unknown.length > 0) {
    const names = unknown.map((field) => JSON.stringify(field)).join(', ');
    throw new UsageError(
      `unknown JSON field${unknown.length === 1 ? '' : 's'}: ${names}\navailable fields:\n${listed(available)}`,
    );
  }
  return request.fields;
}

/** Only `fields` of the object (of each object, for a list), in the order asked; a missing one is null. */
export function selectFields(value: unknown, fields: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => selectFields(item, fields));
  if (!isRecord(value)) return value;
  return Object.fromEntries(fields.map((field) => [field, value[field] ?? null]));
}
