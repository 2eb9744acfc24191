// An upload body in multipart/form-data, streamed from the files on disk one after the other, with its length
// computed from the file sizes beforehand (the server refuses uploads without Content-Length).

import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { StreamedBody } from './client.js';

export interface LocalFile {
  /** The path inside the app, with '/'. */
  name: string;
  /** Where the file is on disk. */
  path: string;
  size: number;
}

/** A quoted-string parameter value: backslash and quote escaped. Names hold no line breaks (checked before). */
const quoted = (text: string) => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

function partHead(boundary: string, file: LocalFile): Buffer {
  return Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename=${quoted(file.name)}\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
}

/** The file's bytes as they were when it was measured; an error if it shrank since. */
async function* contentOf(file: LocalFile): AsyncGenerator<Buffer> {
  if (file.size === 0) return;
  let read = 0;
  for await (const chunk of createReadStream(file.path, { start: 0, end: file.size - 1 })) {
    read += (chunk as Buffer).length;
    yield chunk as Buffer;
  }
  if (read !== file.size) throw new Error(`${file.path} changed while it was being uploaded; upload again`);
}

/** The body uploading `files`; `onSent` hears how many bytes have been handed to the connection so far. */
export function multipartBody(files: readonly LocalFile[], onSent?: (bytes: number) => void): StreamedBody {
  const boundary = `----sjgate-${randomBytes(12).toString('hex')}`;
  const heads = files.map((file) => partHead(boundary, file));
  const CRLF = Buffer.from('\r\n');
  const closing = Buffer.from(`--${boundary}--\r\n`);
  const length = files.reduce((sum, file, i) => sum + heads[i]!.length + file.size + CRLF.length, 0) + closing.length;
  async function* parts(): AsyncGenerator<Buffer> {
    for (const [i, file] of files.entries()) {
      yield heads[i]!;
      yield* contentOf(file);
      yield CRLF;
    }
    yield closing;
  }
  async function* counted(): AsyncGenerator<Buffer> {
    let sent = 0;
    for await (const chunk of parts()) {
      yield chunk;
      sent += chunk.length;
      onSent?.(sent);
    }
  }
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length,
    open: () => Readable.from(counted(), { objectMode: false }),
  };
}
