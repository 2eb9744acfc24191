// Hosted apps on disk: one folder per app under the apps folder of the data home, and two private folders beside
// them: `.staging` (uploads in progress) and `.trash` (apps being replaced or deleted).
//
// An upload is written to staging and flushed, then replaces the live app by two renames (Linux cannot rename a
// folder over a non-empty one): the old app to the trash, the staged one into place. Changes of one app are
// serialized, so two uploads of the same name cannot interleave. Readers of an app wait while its renames are under
// way, and look again when they found nothing while renames began, so a request sees the old app or the new one,
// never a gap between them. Opening the store repairs what a crash left: staging leftovers are removed, and an app
// caught between the two renames is put back.

import { randomUUID } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { constants, type FileHandle, lstat, mkdir, open, readdir, realpath, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isAppName } from '../../domain/apps.js';
import { StagedApp, syncPath } from './staging.js';

const STAGING = '.staging';
const TRASH = '.trash';
/** Trash entries are `<reason>~<name>~<random>`; '~' cannot occur in an app name. */
type TrashReason = 'replaced' | 'deleted';
/** How many times a reader looks for a file that keeps vanishing while its app is swapped. */
const MAX_LOOKUPS = 4;

/** What a path inside an app is: a regular file (opened), nothing servable, or a path that leaves the app. */
export type AppFile =
  | { kind: 'file'; handle: FileHandle; stat: BigIntStats }
  | { kind: 'missing' }
  | { kind: 'outside' };

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

export class AppStore {
  /** The last change queued for each app name. */
  readonly #queues = new Map<string, Promise<void>>();
  /** The renames under way for each app name, and how many have begun (see #read). */
  readonly #swaps = new Map<string, Promise<unknown>>();
  readonly #generations = new Map<string, number>();

  private constructor(
    /** The apps folder, with symbolic links resolved, so paths inside it can be compared with their real paths. */
    readonly root: string,
  ) {}

  /** The apps folder and its working folders are owner-only: an app is the user's own code. */
  static async open(dir: string): Promise<AppStore> {
    await mkdir(join(dir, STAGING), { recursive: true, mode: 0o700 });
    await mkdir(join(dir, TRASH), { recursive: true, mode: 0o700 });
    const store = new AppStore(await realpath(dir));
    await store.#recover();
    return store;
  }

  /** Names of the uploaded apps, sorted. */
  async list(): Promise<string[]> {
    const entries = await readdir(this.root, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isDirectory() && isAppName(entry.name))
      .map((entry) => entry.name)
      .sort();
  }

  /** Whether an app of this (valid) name exists: a real folder, not a symbolic link. */
  has(name: string): Promise<boolean> {
    const lookup = async () => {
      try {
        return (await lstat(this.#live(name))).isDirectory();
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return false;
        throw error;
      }
    };
    return this.#read(name, lookup, (found) => !found);
  }

  /** A staging folder for an upload of `name`, made when the first file is written. */
  stage(name: string): StagedApp {
    return new StagedApp(join(this.root, STAGING, `${name}~${randomUUID()}`));
  }

  /** Makes a sealed staged app the live app `name`, replacing the one before it. */
  async replace(name: string, staged: StagedApp): Promise<void> {
    const previous = await this.#exclusive(name, () =>
      this.#swap(name, async () => {
        const previous = await this.#moveToTrash(name, 'replaced');
        try {
          await rename(staged.dir, this.#live(name));
        } catch (error) {
          if (previous !== null) await rename(previous, this.#live(name));
          throw error;
        }
        return previous;
      }),
    );
    await this.#empty(previous);
  }

  /** Deletes the app `name`; false when there is none. */
  async remove(name: string): Promise<boolean> {
    const previous = await this.#exclusive(name, async () =>
      (await this.has(name)) ? this.#swap(name, () => this.#moveToTrash(name, 'deleted')) : null,
    );
    await this.#empty(previous);
    return previous !== null;
  }

  /**
   * Opens the file at `segments` inside the app for reading. No symbolic link is followed: a path whose real
   * location differs from itself (a link anywhere on the way) is `outside`, and the file is opened with O_NOFOLLOW.
   */
  findFile(name: string, segments: readonly string[]): Promise<AppFile> {
    const path = join(this.#live(name), ...segments);
    const lookup = async (): Promise<AppFile> => {
      try {
        if ((await realpath(path)) !== path) return { kind: 'outside' };
        const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
        const stat = await handle.stat({ bigint: true });
        if (stat.isFile()) return { kind: 'file', handle, stat };
        await handle.close();
        return { kind: 'missing' };
      } catch (error) {
        const code = errorCode(error);
        if (code === 'ELOOP') return { kind: 'outside' };
        if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
        throw error;
      }
    };
    return this.#read(name, lookup, (file) => file.kind === 'missing');
  }

  #live(name: string): string {
    return join(this.root, name);
  }

  /**
   * Runs `renames`, which move the app `name` away and maybe another in its place, as a swap: readers of the app wait
   * for it, and a reader that found nothing while it began looks again. Flushes the apps folder after.
   */
  async #swap<T>(name: string, renames: () => Promise<T>): Promise<T> {
    this.#generations.set(name, (this.#generations.get(name) ?? 0) + 1);
    const swap = renames();
    const ended = swap.catch(() => undefined); // what readers wait for: its failure is the writer's to report
    this.#swaps.set(name, ended);
    try {
      return await swap;
    } finally {
      this.#swaps.delete(name);
      await syncPath(this.root);
    }
  }

  /**
   * A lookup in the app `name` that sees it before or after a swap, never between its renames: it starts once no
   * swap of the app is under way, and is repeated (a few times) when it found nothing and a swap began meanwhile.
   */
  async #read<T>(name: string, lookup: () => Promise<T>, missing: (result: T) => boolean): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      for (let swap = this.#swaps.get(name); swap !== undefined; swap = this.#swaps.get(name)) await swap;
      const generation = this.#generations.get(name);
      const result = await lookup();
      if (!missing(result) || this.#generations.get(name) === generation || attempt === MAX_LOOKUPS) return result;
    }
  }

  /** Removes an app moved to the trash; outside the app's changes, so neither readers nor the next upload wait. */
  async #empty(trashed: string | null): Promise<void> {
    if (trashed !== null) await rm(trashed, { recursive: true, force: true });
  }

  /** Moves whatever is at the app's place into the trash; its new path, or null when nothing was there. */
  async #moveToTrash(name: string, reason: TrashReason): Promise<string | null> {
    const target = join(this.root, TRASH, `${reason}~${name}~${randomUUID()}`);
    try {
      await rename(this.#live(name), target);
      return target;
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      throw error;
    }
  }

  /** Runs `change` after every change of the same app queued before it. */
  #exclusive<T>(name: string, change: () => Promise<T>): Promise<T> {
    const result = (this.#queues.get(name) ?? Promise.resolve()).then(change);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.#queues.set(name, settled);
    void settled.then(() => {
      if (this.#queues.get(name) === settled) this.#queues.delete(name);
    });
    return result;
  }

  async #recover(): Promise<void> {
    const staging = join(this.root, STAGING);
    for (const entry of await readdir(staging)) await rm(join(staging, entry), { recursive: true, force: true });
    const trash = join(this.root, TRASH);
    for (const entry of await readdir(trash)) {
      const [reason, name] = entry.split('~');
      const interruptedReplace = reason === 'replaced' && name !== undefined && isAppName(name);
      if (interruptedReplace && !(await this.has(name))) await rename(join(trash, entry), this.#live(name));
      else await rm(join(trash, entry), { recursive: true, force: true });
    }
    await syncPath(this.root);
  }
}
