// Makes the journal's commits durable off the event loop. The journal commits in WAL mode with synchronous NORMAL: a
// commit appends its pages to the log file and returns without waiting for the disk. This class then fsyncs the log
// on libuv's thread pool, and a caller that waits for synced() has its commit on disk, as with synchronous FULL
// (which fsyncs the log inside the commit, on the event loop, for 0.2 ms at the median and tens of ms on a busy disk).
// One fsync covers every commit made before it starts, so commits that arrive during one share the next.
//
// What SQLite documents for NORMAL in WAL mode keeps the rest safe: the log is synced before each checkpoint, the
// database after it, and the log's header when the log is reused. The log file's own directory entry is synced once,
// when this first opens it, so a log created since the last boot is found after a power loss.

import { closeSync, fsync, open, openSync } from 'node:fs';
import { dirname } from 'node:path';

export class WalSync {
  private fd: number | null = null;
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  private closed = false;
  /** The count of changes the running fsync covers, and that the last one to succeed covered. */
  private runningChanges = Number.NaN;
  private syncedChanges = Number.NaN;

  constructor(
    /** The journal's `-wal` file; null for a journal in memory, which has nothing to sync. */
    private readonly walPath: string | null,
    private readonly fsyncFd: (fd: number) => Promise<void> = fsyncFile,
    /**
     * How many changes the connection has committed or rolled back so far (SQLite's total_changes()): a call after
     * none since the last fsync needs none (a read-only request answered durably). Without it, every call fsyncs.
     */
    private readonly changes: () => number = () => Number.NaN,
  ) {}

  /** Resolves once every commit made before the call is on disk; rejects if the disk refused. */
  synced(): Promise<void> {
    if (this.walPath === null) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error(`the journal ${this.walPath} is closed`));
    const changes = this.changes();
    if (this.running === null) return changes === this.syncedChanges ? Promise.resolve() : this.start();
    if (changes === this.runningChanges) return this.running;
    // The fsync under way may have started before the latest commit: one more after it covers all that waits.
    this.next ??= this.running.then(
      () => this.start(),
      () => this.start(),
    );
    return this.next;
  }

  /** Closes the log's file once the fsync under way, if any, is over. */
  close(): void {
    this.closed = true;
    const release = () => {
      if (this.fd !== null) closeSync(this.fd);
      this.fd = null;
    };
    if (this.running) this.running.then(release, release);
    else release();
  }

  private start(): Promise<void> {
    this.next = null;
    const changes = this.changes();
    const run = this.fsyncLog().then(() => {
      this.syncedChanges = changes;
    });
    this.runningChanges = changes;
    this.running = run;
    const done = () => {
      if (this.running === run) this.running = null;
    };
    run.then(done, done);
    return run;
  }

  private async fsyncLog(): Promise<void> {
    if (this.closed) throw new Error(`the journal ${this.walPath} is closed`);
    if (this.fd === null) {
      this.fd = await openFile(this.walPath!);
      const directory = openSync(dirname(this.walPath!), 'r');
      try {
        await this.fsyncFd(directory);
      } finally {
        closeSync(directory);
      }
    }
    await this.fsyncFd(this.fd);
  }
}

function openFile(path: string): Promise<number> {
  return new Promise((resolve, reject) => open(path, 'r', (error, fd) => (error ? reject(error) : resolve(fd))));
}

function fsyncFile(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
}
