// One trading day of real orders, placed through a real gateway on a manual clock: the rows every generated day of
// history is cloned from, so the generated journal holds exactly what sjgate writes (whatever its record format).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../../src/config.js';
import { continuousCode } from '../../src/domain/derivative-codes.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { JOURNAL_FILE } from '../../src/server/data-home.js';
import { startGateway } from '../../src/server/main.js';

export type Row = Record<string, unknown>;

/** The journal's tables a day of orders writes, as read back: what is cloned. */
export interface TemplateDay {
  day: string;
  orders: Row[];
  statusChanges: Row[];
  deals: Row[];
  events: Row[];
  cashEntries: Row[];
  /** The home the template was made in, with its journal: the generated history starts as a copy of it. */
  home: string;
}

const STOCK = { security_type: 'STK', exchange: 'TSE' };
/** The futures the template trades, as its continuous alias (the generator renames the month per day). */
export const FUTURES_ROOT = 'TXF';
const FUTURES = { security_type: 'FUT', exchange: 'TAIFEX', code: continuousCode(FUTURES_ROOT, 1) };

interface Placement {
  contract: Row;
  side: 'stock_order' | 'futures_order';
  order: Row;
  cancel?: boolean;
}

/** A day's mix: stock buys and futures round trips that fill at once, and resting orders cancelled later. */
function placements(limitDown: number): Placement[] {
  const ioc = (action: string) => ({ action, quantity: 1, price: 0, price_type: 'MKT', order_type: 'IOC' });
  return [
    { contract: { ...STOCK, code: '2330' }, side: 'stock_order', order: ioc('Buy') },
    { contract: { ...STOCK, code: '2317' }, side: 'stock_order', order: ioc('Buy') },
    { contract: { ...STOCK, code: '2303' }, side: 'stock_order', order: ioc('Buy') },
    { contract: FUTURES, side: 'futures_order', order: { ...ioc('Buy'), octype: 'Auto' } },
    { contract: FUTURES, side: 'futures_order', order: { ...ioc('Sell'), octype: 'Auto' } },
    { contract: FUTURES, side: 'futures_order', order: { ...ioc('Buy'), octype: 'Auto' } },
    { contract: FUTURES, side: 'futures_order', order: { ...ioc('Sell'), octype: 'Auto' } },
    {
      contract: { ...STOCK, code: '2330' },
      side: 'stock_order',
      order: { action: 'Buy', quantity: 1, price: limitDown, price_type: 'LMT', order_type: 'ROD' },
      cancel: true,
    },
  ];
}

async function post(base: string, path: string, body: unknown): Promise<Row> {
  const response = await fetch(`${base}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Row;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Places a day of orders on `day` (a trading day) from 09:30 on, in a fresh home, and reads back what was written. */
export async function makeTemplateDay(day: string): Promise<TemplateDay> {
  const home = mkdtempSync(join(tmpdir(), 'sjgate-history-'));
  const clock = new ManualClock(taipeiInstant(day, '09:30'));
  const config = loadConfig({
    SJ_HOME_PATH: home,
    SJ_HTTP_ADDR: '127.0.0.1:0',
    SJ_SIM_CLOCK: 'exchange',
    SJ_SIM_LIMITS: 'off',
  });
  const gateway = await startGateway(config, () => undefined, { clock });
  const base = `http://127.0.0.1:${gateway.port}`;
  try {
    const info = await (await fetch(`${base}/api/v1/data/contracts/2330/info`)).json();
    for (const placement of placements((info as { limit_down: number }).limit_down)) {
      clock.advance(7_000);
      const trade = await post(base, '/order/place_order', {
        contract: placement.contract,
        [placement.side]: placement.order,
      });
      if (placement.cancel) {
        clock.advance(3_000);
        await post(base, '/order/cancel_order', { trade_id: (trade.order as Row).id });
      }
    }
  } finally {
    await gateway.close();
  }
  return { day, home, ...readDay(join(home, JOURNAL_FILE)) };
}

function readDay(path: string): Omit<TemplateDay, 'day' | 'home'> {
  const db = new Database(path, { readonly: true });
  try {
    const all = (table: string) => db.prepare(`SELECT * FROM ${table}`).all() as Row[];
    return {
      orders: all('orders'),
      statusChanges: all('order_status_changes'),
      deals: all('deals'),
      events: all('events'),
      cashEntries: all('cash_entries'),
    };
  } finally {
    db.close();
  }
}

export function removeTemplate(template: TemplateDay): void {
  rmSync(template.home, { recursive: true, force: true });
}
