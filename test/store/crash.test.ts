import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Journal } from '../../src/store/journal.js';

const WRITER = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ACKNOWLEDGEMENTS_BEFORE_KILL = 300;

interface Run {
  acknowledged: string[];
  signal: NodeJS.Signals | null;
}

/** Collects the ids the writer acknowledges and kills it with SIGKILL once it has acknowledged `count`. */
function acknowledgementsUntilKilled(child: ChildProcess, count: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (!child.killed && stdout.split('\n').length - 1 >= count) child.kill('SIGKILL');
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`the writer ended by itself (code ${code}): ${stderr}`));
      // Only a whole line is an acknowledgement.
      const acknowledged = stdout.split('\n').slice(0, -1);
      resolve({ acknowledged, signal });
    });
  });
}

test('every acknowledged order survives a SIGKILL mid-burst, whole, and event seqs stay contiguous', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sjgate-crash-'));
  try {
    const path = join(dir, 'journal.db');
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, path], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { acknowledged, signal } = await acknowledgementsUntilKilled(child, ACKNOWLEDGEMENTS_BEFORE_KILL);
    assert.equal(signal, 'SIGKILL');
    assert.ok(acknowledged.length >= ACKNOWLEDGEMENTS_BEFORE_KILL);

    const journal = Journal.open(path);
    const orders = journal.orders.list();
    const stored = new Set(orders.map((order) => order.id));
    assert.deepEqual(
      acknowledged.filter((id) => !stored.has(id)),
      [],
      'acknowledged orders missing after the crash',
    );
    // The writer may die between a commit and its acknowledgement, so one order may be stored unacknowledged.
    assert.ok(orders.length - acknowledged.length <= 1, `${orders.length} stored, ${acknowledged.length} acked`);

    for (const order of orders) {
      assert.equal(journal.orders.statusChanges(order.id).length, 1, `status change of ${order.id}`);
      assert.equal(journal.orders.deals({ orderId: order.id }).length, 1, `deal of ${order.id}`);
    }
    assert.equal(journal.orders.deals().length, orders.length);
    const events = journal.events.after(0);
    assert.deepEqual(
      events.map((event) => event.seq),
      orders.map((_, i) => i + 1),
    );
    assert.deepEqual(
      events.map((event) => (event.payload as { orderId: string }).orderId),
      orders.map((order) => order.id),
    );
    assert.deepEqual(
      journal.ledger.cashEntries('S1').map((entry) => entry.ref),
      orders.map((order) => order.id),
    );
    assert.equal(journal.events.lastSeq(), orders.length);
    assert.equal(
      journal.events.append({ at: 0, kind: 'after-restart', accountKey: 'S1', payload: null }),
      orders.length + 1,
    );
    journal.close();

    const raw = new Database(path, { readonly: true });
    assert.equal(raw.pragma('integrity_check', { simple: true }), 'ok');
    raw.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
