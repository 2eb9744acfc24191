// A journal of N trading days with M orders each, written straight into SQLite in seconds instead of placed one by one
// over HTTP: every generated order is a copy of a real one from a template day (template.ts), moved to its day and
// time, with its own id. Values are moved by what they are, not by field name, so the copy stays right when the
// record format changes: an epoch time of the template day (ms or s) moves by the day's offset, a date of the
// template's week moves by as many trading days, an order id (alone or as the prefix of an event id or a cash entry's
// ref) becomes the copy's, and the template's futures month (its code, delivery month and last trading day) becomes
// the month a continuous alias stands for on the copy's day, so that no deal names a contract not listed that day.

import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { nextTradingDay, previousTradingDay, tradingDaysBetween } from '../../src/domain/calendar.js';
import { futuresCode } from '../../src/domain/derivative-codes.js';
import { monthlyLastTradingDay, spotMonth } from '../../src/domain/listing.js';
import { taipeiInstant } from '../../src/domain/time.js';
import { JOURNAL_FILE } from '../../src/server/data-home.js';
import { FUTURES_ROOT, makeTemplateDay, type Row, removeTemplate, type TemplateDay } from './template.js';

export interface HistoryOptions {
  /** Trading days of history, the last one `lastDay`. */
  days: number;
  ordersPerDay: number;
  /** The newest day of the history (a trading day); the gateway's "today" is usually the next one. */
  lastDay: string;
}

export interface GeneratedHistory {
  home: string;
  orders: number;
  deals: number;
  events: number;
  firstDay: string;
  lastDay: string;
  generateMs: number;
}

const DAY_MS = 86_400_000;
/** Copies of the template's orders are spread over the stock session from 09:00 on, at most this far apart. */
const SESSION_SPREAD_MS = 4 * 3600_000;

/** Writes the history into a new data home (whose journal the gateway opens as is) and says what it holds. */
export async function generateHistory(options: HistoryOptions): Promise<GeneratedHistory> {
  const started = performance.now();
  const days = lastTradingDays(options.lastDay, options.days);
  const template = await makeTemplateDay(options.lastDay);
  try {
    const home = mkdtempSync(join(tmpdir(), 'sjgate-history-home-'));
    const path = join(home, JOURNAL_FILE);
    copyFileSync(join(template.home, JOURNAL_FILE), path);
    const db = new Database(path);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = OFF');
      const counts = writeDays(db, template, days, Math.ceil(options.ordersPerDay / template.orders.length));
      db.pragma('wal_checkpoint(TRUNCATE)');
      return {
        home,
        ...counts,
        firstDay: days[0]!,
        lastDay: days.at(-1)!,
        generateMs: Math.round(performance.now() - started),
      };
    } finally {
      db.close();
    }
  } finally {
    removeTemplate(template);
  }
}

/** The `count` trading days up to `lastDay`, oldest first. */
export function lastTradingDays(lastDay: string, count: number): string[] {
  let first = lastDay;
  for (let i = 1; i < count; i++) first = previousTradingDay(first);
  return tradingDaysBetween(first, lastDay);
}

/** Emptied before the copies are written; the template run's ledger checkpoint covered its own deals only. */
const TABLES = ['order_status_changes', 'deals', 'events', 'cash_entries', 'idempotency_keys', 'orders', 'checkpoints'];

function writeDays(db: Database.Database, template: TemplateDay, days: string[], copies: number) {
  const insert = insertStatements(db);
  let orders = 0;
  db.transaction(() => {
    for (const table of TABLES) db.exec(`DELETE FROM ${table}`);
    let serial = 0;
    const shapes = new Map<string, JsonShape>();
    for (const day of days) {
      const dayMoves = movesOfDay(template.day, day);
      for (let copy = 0; copy < copies; copy++) {
        const spacing = Math.floor(Math.min(SESSION_SPREAD_MS / copies, 30_000) / 1000) * 1000;
        const newId = () => (0x10000000 + serial++).toString(16);
        const mover = new Mover(template, day, dayMoves, copy * spacing, newId, shapes);
        writeCopy(insert, template, mover);
        orders += template.orders.length;
      }
    }
  })();
  const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  return { orders, deals: count('deals'), events: count('events') };
}

function insertStatements(db: Database.Database) {
  const statement = (table: string, columns: string[]) =>
    db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
  return {
    order: statement('orders', [
      'id',
      'account_key',
      'code',
      'status',
      'placed_at',
      'updated_at',
      'open',
      'record',
      'wire',
    ]),
    statusChange: statement('order_status_changes', ['order_id', 'at', 'status', 'message']),
    deal: statement('deals', ['order_id', 'seq', 'account_key', 'code', 'action', 'price', 'quantity', 'at', 'record']),
    event: statement('events', ['at', 'kind', 'account_key', 'payload']),
    cash: statement('cash_entries', ['account_key', 'at', 'amount', 'reason', 'ref', 'settle_date']),
  };
}

type Inserts = ReturnType<typeof insertStatements>;

/** One copy of the template day: its rows in the order they were written, events and cash in time order. */
function writeCopy(insert: Inserts, template: TemplateDay, mover: Mover): void {
  for (const row of template.orders) {
    const wire = row.wire === null ? null : mover.json(row.wire);
    insert.order.run({ ...mover.row(row), open: 0, record: mover.json(row.record), wire });
  }
  for (const row of template.statusChanges) insert.statusChange.run(mover.row(row));
  for (const row of template.deals) insert.deal.run({ ...mover.row(row), record: mover.json(row.record) });
  for (const row of template.events) insert.event.run({ ...mover.row(row), payload: mover.json(row.payload) });
  for (const row of template.cashEntries) insert.cash.run(mover.row(row));
}

/**
 * The template's futures month named as the one a continuous alias (R1) stands for on `day` (the template orders
 * during the day session, whose contract day is the calendar day): code, delivery month, last trading day.
 */
function futuresMonthWords(templateDay: string, day: string): Map<string, string> {
  const from = spotMonth(templateDay);
  const to = spotMonth(day);
  return new Map([
    [futuresCode(FUTURES_ROOT, from), futuresCode(FUTURES_ROOT, to)],
    [from, to],
    [monthlyLastTradingDay(from), monthlyLastTradingDay(to)],
  ]);
}

/** What moves the same way for every copy on a day: dates and the futures month's words. */
interface DayMoves {
  /** The dates a day's rows name: the day itself and the settlement days after it. */
  dates: Map<string, string>;
  /** Whole strings replaced as they are: the futures month's code, delivery month and last trading day. */
  words: Map<string, string>;
}

function movesOfDay(templateDay: string, day: string): DayMoves {
  const dates = new Map<string, string>();
  let from = templateDay;
  let to = day;
  for (let i = 0; i < 5; i++) {
    dates.set(from, to);
    from = nextTradingDay(from);
    to = nextTradingDay(to);
  }
  return { dates, words: futuresMonthWords(templateDay, day) };
}

/**
 * A template row's JSON split once around the values a copy may move (`holes`), so that a copy is written by
 * joining the fixed text with its moved values instead of parsing and writing the whole JSON again.
 */
interface JsonShape {
  parts: string[];
  holes: unknown[];
}

const HOLE = /"\\u0001(\d+)\\u0001"/;

/** Moves the template day's values to a copy on another day: times, dates and order ids. */
class Mover {
  private readonly fromMs: number;
  private readonly shiftMs: number;
  private readonly ids = new Map<string, string>();
  private readonly dates: Map<string, string>;
  private readonly words: Map<string, string>;

  constructor(
    template: TemplateDay,
    day: string,
    moves: DayMoves,
    withinDayMs: number,
    newId: () => string,
    private readonly shapes: Map<string, JsonShape>,
  ) {
    this.fromMs = taipeiInstant(template.day);
    this.shiftMs = taipeiInstant(day) - this.fromMs + withinDayMs;
    const reused = day === template.day && withinDayMs === 0;
    for (const row of template.orders) {
      const id = row.id as string;
      this.ids.set(id, reused ? id : newId());
    }
    this.dates = moves.dates;
    this.words = moves.words;
  }

  /** A row's plain columns moved (the JSON columns are the caller's). */
  row(row: Row): Row {
    const moved: Row = {};
    for (const [key, value] of Object.entries(row)) moved[key] = this.value(value);
    return moved;
  }

  json(text: unknown): string {
    const shape = this.shapeOf(text as string);
    let json = shape.parts[0]!;
    for (let i = 0; i < shape.holes.length; i++) {
      json += JSON.stringify(this.value(shape.holes[i])) + shape.parts[i + 1]!;
    }
    return json;
  }

  private shapeOf(text: string): JsonShape {
    const known = this.shapes.get(text);
    if (known) return known;
    const holes: unknown[] = [];
    const marked = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(marked);
      if (value !== null && typeof value === 'object') {
        return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, marked(item)]));
      }
      if (this.value(value, true) === undefined) return value;
      holes.push(value);
      return `\u0001${holes.length - 1}\u0001`;
    };
    const pieces = JSON.stringify(marked(JSON.parse(text))).split(new RegExp(HOLE, 'g'));
    const shape = { parts: pieces.filter((_, i) => i % 2 === 0), holes };
    this.shapes.set(text, shape);
    return shape;
  }

  /** The value moved; with `ifMovable`, undefined for a value no copy moves (its kind says so, not this copy's map). */
  private value(value: unknown, ifMovable = false): unknown {
    const kept = ifMovable ? undefined : value;
    if (typeof value === 'number') {
      const moved = this.time(value);
      return this.isTemplateTime(value) ? moved : kept;
    }
    if (typeof value !== 'string') return kept;
    const word = this.words.get(value);
    if (word) return word;
    const id = this.ids.get(value.slice(0, 8));
    if (id && (value.length === 8 || value[8] === '-' || value[8] === ':')) return id + value.slice(8);
    const date = value.length >= 10 ? this.dates.get(value.slice(0, 10)) : undefined;
    return date ? date + value.slice(10) : kept;
  }

  private isTemplateTime(value: number): boolean {
    const inDay = (ms: number) => ms >= this.fromMs && ms < this.fromMs + DAY_MS;
    return inDay(value) || inDay(value * 1000);
  }

  /** An epoch time of the template day, in ms or in s, moved; any other number as it is. */
  private time(value: number): number {
    if (value >= this.fromMs && value < this.fromMs + DAY_MS) return value + this.shiftMs;
    const seconds = value * 1000;
    if (seconds >= this.fromMs && seconds < this.fromMs + DAY_MS) return value + this.shiftMs / 1000;
    return value;
  }
}
