// An app being uploaded: its files are written into a folder of its own beside the live apps (made with the first
// file), flushed to disk, and only then moved into place by the store; a failed upload just removes the folder.

import { type FileHandle, mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Flushes a file, or a folder's entries (files created in it, renames into or out of it), to disk. */
export async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeAll(handle: FileHandle, chunk: Buffer): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) offset += (await handle.write(chunk, offset)).bytesWritten;
}

export class StagedApp {
  /** Files and sub-folders written so far, relative to the staging folder ('' is the folder itself). */
  readonly #files: string[] = [];
  readonly #folders = new Set<string>();

  constructor(readonly dir: string) {}

  /**
   * Writes one file (a relative path with '/') from its chunks. `onChunk` sees each chunk's size before it is
   * written and may throw to stop the upload.
   */
  async writeFile(path: string, chunks: AsyncIterable<Buffer>, onChunk: (bytes: number) => void): Promise<void> {
    const segments = path.split('/');
    await this.#makeFolders(segments.slice(0, -1));
    const handle = await open(join(this.dir, ...segments), 'wx');
    this.#files.push(path);
    try {
      for await (const chunk of chunks) {
        onChunk(chunk.length);
        await writeAll(handle, chunk);
      }
    } finally {
      await handle.close();
    }
  }

  /**
   * Flushes every file and folder to disk, so that once the app is moved into place no file can go missing or be
   * cut short by a crash. Done once the upload is complete, so a refused upload costs no flushes.
   */
  async seal(): Promise<void> {
    for (const path of [...this.#files, ...this.#folders]) await syncPath(join(this.dir, path));
  }

  async discard(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }

  async #makeFolders(segments: string[]): Promise<void> {
    for (let depth = 0; depth <= segments.length; depth++) {
      const folder = segments.slice(0, depth).join('/');
      if (this.#folders.has(folder)) continue;
      await mkdir(join(this.dir, folder));
      this.#folders.add(folder);
    }
  }
}
