// The journal's commits reach the disk off the event loop: one fsync at a time, each covering every commit made
// before it started, and an answer only once it is over.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Journal } from '../../src/store/journal.js';
import { WalSync } from '../../src/store/wal-sync.js';

const dir = mkdtempSync(join(tmpdir(), 'sjgate-wal-sync-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A WalSync over a real file whose fsyncs wait until the test lets each go. */
function heldSync() {
  const path = join(dir, `${Math.random()}-wal`);
  writeFileSync(path, 'log');
  const held: (() => void)[] = [];
  const sync = new WalSync(path, () => new Promise<void>((resolve) => held.push(resolve)));
  /** Lets the fsyncs started so far finish. */
  const release = async () => {
    for (const go of held.splice(0)) go();
    await new Promise((resolve) => setImmediate(resolve));
  };
  /** Waits (a few turns at most) until `count` fsyncs are held. */
  const started = async (count: number) => {
    for (let turn = 0; turn < 50 && held.length < count; turn++) await new Promise((r) => setTimeout(r, 2));
    return held.length;
  };
  return { sync, held, release, started };
}

describe('the journal on disk', () => {
  test('commits made while an fsync runs share the next one, answered in order once it is over', async () => {
    const { sync, release, started } = heldSync();
    const answered: string[] = [];
    const first = sync.synced().then(() => answered.push('first'));
    assert.equal(await started(1), 1, "the directory's fsync, once");
    await release();
    assert.equal(await started(1), 1, "the log's fsync");
    const second = sync.synced().then(() => answered.push('second'));
    const third = sync.synced().then(() => answered.push('third'));
    assert.equal(await started(2), 1, 'one fsync at a time');
    assert.deepEqual(answered, [], 'nothing is answered before its fsync is over');
    await release();
    await first;
    assert.deepEqual(answered, ['first']);
    assert.equal(await started(1), 1, 'one more fsync for the two commits made during the first');
    assert.equal(await started(2), 1);
    await release();
    await Promise.all([second, third]);
    assert.deepEqual(answered, ['first', 'second', 'third']);
    sync.close();
  });

  test('an fsync that fails rejects its waiters; a closed journal refuses to answer', async () => {
    const path = join(dir, 'failing-wal');
    writeFileSync(path, 'log');
    const failing = new WalSync(path, () => Promise.reject(new Error('EIO: i/o error, fsync')));
    await assert.rejects(failing.synced(), /EIO/);
    const { sync } = heldSync();
    sync.close();
    await assert.rejects(sync.synced(), /closed/);
  });

  test('a call after no change since the last fsync needs none; one after a change, or during a failed one, does', async () => {
    const path = join(dir, `${Math.random()}-wal`);
    writeFileSync(path, 'log');
    let changes = 1;
    let fsyncs = 0;
    let failNext = false;
    const fsync = async () => {
      fsyncs++;
      if (failNext) {
        failNext = false;
        throw new Error('EIO');
      }
    };
    const sync = new WalSync(path, fsync, () => changes);
    await sync.synced();
    const afterFirst = fsyncs; // the directory's and the log's
    await sync.synced();
    await sync.synced();
    assert.equal(fsyncs, afterFirst, 'nothing changed: no fsync');
    changes = 2;
    failNext = true;
    await assert.rejects(sync.synced(), /EIO/);
    await sync.synced();
    assert.equal(fsyncs, afterFirst + 2, 'a change is synced, again after a failed fsync');
    await sync.synced();
    assert.equal(fsyncs, afterFirst + 2);
    sync.close();
  });

  test('a journal on disk answers once its commits are synced; one in memory at once', async () => {
    const journal = Journal.open(join(dir, 'journal.db'));
    journal.meta.set('k', 'v');
    await journal.synced();
    journal.close();
    const memory = Journal.open(':memory:');
    await memory.synced();
    memory.close();
  });
});
