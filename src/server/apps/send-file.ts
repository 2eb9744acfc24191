// Sends one file of a hosted app: its type, caching that suits a front-end build, and revalidation by ETag or
// Last-Modified (304). Files are read from disk on each request, so an upload is served at once.

import type { BigIntStats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentTypeOf } from './content-types.js';

export const REVALIDATE = 'no-cache';
export const IMMUTABLE = 'public, max-age=31536000, immutable';

// A build hash as Vite and Rollup write it: 8 base64url characters after a '-' or '.', just before the extension
// (`index-kPfHlel1.js`, `logo.3f9a1c2b.svg`). Requiring a digit and a letter in it keeps ordinary names out, such as
// `data-20240101.json` or `my-settings.js`, whose content changes under the same name.
const BUILD_HASH = /[-.]([A-Za-z0-9_-]{8})\.[A-Za-z0-9]+$/;

/** Hashed build files never change under their name; anything else must be revalidated on each use. */
export function cacheControlOf(fileName: string): string {
  const hash = BUILD_HASH.exec(fileName)?.[1];
  return hash !== undefined && /[0-9]/.test(hash) && /[A-Za-z]/.test(hash) ? IMMUTABLE : REVALIDATE;
}

/** A strong validator: an upload writes new files, so a new inode, size or modification time means new content. */
export function etagOf(stat: BigIntStats): string {
  return `"${stat.ino.toString(36)}-${stat.size.toString(36)}-${stat.mtimeNs.toString(36)}"`;
}

function isNotModified(request: FastifyRequest, etag: string, modifiedMs: number): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch.split(',').some((tag) => {
      const trimmed = tag.trim();
      return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
    });
  }
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  // Last-Modified has whole seconds.
  return !Number.isNaN(since) && Math.floor(modifiedMs / 1000) * 1000 <= since;
}

export interface OpenFile {
  handle: FileHandle;
  stat: BigIntStats;
}

/** Answers with the file (or 304, or only the headers for HEAD) under the type of `fileName`; closes the file. */
export async function sendAppFile(
  request: FastifyRequest,
  reply: FastifyReply,
  { handle, stat }: OpenFile,
  fileName: string,
  cacheControl: string,
): Promise<FastifyReply> {
  const etag = etagOf(stat);
  const modifiedMs = Number(stat.mtimeMs);
  reply
    .header('cache-control', cacheControl)
    .header('etag', etag)
    .header('last-modified', new Date(modifiedMs).toUTCString())
    .header('x-content-type-options', 'nosniff');
  if (isNotModified(request, etag, modifiedMs)) {
    await handle.close();
    return reply.code(304).send();
  }
  reply.type(contentTypeOf(fileName)).header('content-length', String(stat.size));
  if (request.method === 'HEAD') {
    await handle.close();
    return reply.send();
  }
  return reply.send(handle.createReadStream());
}
