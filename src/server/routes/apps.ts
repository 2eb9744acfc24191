// Hosted apps: upload (multipart), list and delete under /api/v1/apps, and the public pages under /apps/<name>/.
// The multipart parser is registered for the upload route only, so every other route still refuses multipart.

import multipart, { type Multipart } from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { APP_PAGE_PATHS, APP_ROUTES } from '../../contract/paths.js';
import { APP_SIZE_LIMIT, MAX_APP_BYTES, MAX_APP_FILES, MAX_APP_FOLDERS, MB } from '../../domain/apps.js';
import { AppRefusal, checkAppName } from '../apps/paths.js';
import { sendAppFile } from '../apps/send-file.js';
import { appNotFound, fileToServe, requireApp } from '../apps/serve.js';
import type { AppStore } from '../apps/store.js';
import {
  CUT_SHORT,
  MAX_UPLOADS,
  MULTIPART_ALLOWANCE,
  PARSER_OPTIONS,
  PART_ADVICE,
  receiveUpload,
  tooLarge,
  UPLOAD_MIN_BYTES,
  UPLOAD_WINDOW_MS,
} from '../apps/upload.js';
import { sendError } from '../plugins/errors.js';
import {
  AppDeleteResponse,
  AppFileParams,
  AppListResponse,
  AppNameParam,
  AppUploadBody,
  AppUploadResponse,
} from '../schemas/apps.js';
import { errorResponses } from '../schemas/common.js';

const tags = ['apps'];

/** How uploads are received; the defaults suit a gateway, tests shorten them. */
export interface UploadLimits {
  /** Uploads received at once, across all names; the next is refused with 429. */
  maxUploads: number;
  /** An upload that sends fewer than `minBytes` of its body in any `windowMs` is dropped with its connection. */
  progress: UploadProgress;
}

export interface UploadProgress {
  windowMs: number;
  minBytes: number;
}

const DEFAULT_LIMITS: UploadLimits = {
  maxUploads: MAX_UPLOADS,
  progress: { windowMs: UPLOAD_WINDOW_MS, minBytes: UPLOAD_MIN_BYTES },
};

function answerRefusals(error: Error, _request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppRefusal) return sendError(reply, error.kind, error.message);
  throw error;
}

/** Upload, list and delete: registered under API_PREFIX, behind the bearer token when one is required. */
export function appsRoutes(store: AppStore, limits: UploadLimits = DEFAULT_LIMITS): FastifyPluginAsync {
  return async (fastify) => {
    fastify.setErrorHandler(answerRefusals);
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    await app.register(uploadRoute(store, limits));

    app.get(
      APP_ROUTES.apps,
      { schema: { tags, summary: 'Names of the uploaded apps', response: { 200: AppListResponse } } },
      async () => ({ apps: await store.list() }),
    );

    app.delete(
      APP_ROUTES.app,
      {
        schema: {
          tags,
          summary: 'Delete an app',
          params: AppNameParam,
          response: { 200: AppDeleteResponse, ...errorResponses(400, 404) },
        },
      },
      async ({ params: { name } }) => {
        checkAppName(name);
        if (!(await store.remove(name))) throw appNotFound(name);
        return { deleted: name };
      },
    );
  };
}

/** The pages of the hosted apps, outside the API's prefix and public. */
export function appPagesRoutes(store: AppStore): FastifyPluginAsync {
  return async (fastify) => {
    fastify.setErrorHandler(answerRefusals);
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.route({
      method: ['GET', 'HEAD'],
      url: APP_PAGE_PATHS.page,
      schema: {
        tags,
        summary: "An app's address without the trailing slash: redirects (308) to /apps/<name>/",
        params: AppNameParam,
        response: errorResponses(400, 404),
      },
      handler: async (request, reply) => {
        const { name } = request.params;
        await requireApp(store, name);
        const query = request.url.indexOf('?');
        return reply.redirect(`/apps/${name}/${query === -1 ? '' : request.url.slice(query)}`, 308);
      },
    });

    app.route({
      method: ['GET', 'HEAD'],
      url: APP_PAGE_PATHS.file,
      schema: {
        tags,
        summary: 'A file of an app (public, no authentication)',
        description:
          'index.html at /apps/<name>/. A path that is no file and whose last part has no extension answers ' +
          'index.html too, for client-side routes; a missing file with an extension is 404. Hashed build files ' +
          '(name-<hash>.ext or name.<hash>.ext, 8 characters with a digit and a letter) are cached for a year, ' +
          'everything else is revalidated (ETag, Last-Modified). A file asked for as a folder (a trailing /) is 404.',
        params: AppFileParams,
        response: errorResponses(400, 404),
      },
      handler: async (request, reply) => {
        const { name, '*': path } = request.params;
        const { file, fileName, cacheControl } = await fileToServe(store, name, path);
        return sendAppFile(request, reply, file, fileName, cacheControl);
      },
    });
  };
}

function uploadRoute(store: AppStore, { maxUploads, progress }: UploadLimits): FastifyPluginAsync {
  return async (fastify) => {
    await fastify.register(multipart, PARSER_OPTIONS);
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    let uploads = 0;

    /** Refusals that need only the headers, answered before any of the body is read; then the upload takes a place. */
    const admitUpload = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      checkAppName((request.params as { name: string }).name);
      if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) {
        throw new AppRefusal('UNSUPPORTED_MEDIA_TYPE', `send the app as multipart/form-data: ${PART_ADVICE}`);
      }
      const length = request.headers['content-length'];
      if (length === undefined) {
        throw new AppRefusal(
          'LENGTH_REQUIRED',
          'an upload needs a Content-Length header (a chunked upload is refused); send the body with its length, ' +
            'as curl -F and sjgate apps upload do',
        );
      }
      if (Number(length) > MAX_APP_BYTES + MULTIPART_ALLOWANCE) {
        throw tooLarge(`the upload is ${(Number(length) / MB).toFixed(1)} MB`);
      }
      if (uploads >= maxUploads) {
        reply.header('retry-after', String(RETRY_AFTER_SECONDS));
        throw new AppRefusal(
          'UPLOAD_CAPACITY',
          `at most ${maxUploads} uploads may run at once; try again in a few seconds`,
        );
      }
      // The place is held until the answer is sent or the connection closes; either ends the upload.
      uploads++;
      reply.raw.once('close', () => uploads--);
    };

    app.post(
      APP_ROUTES.app,
      {
        schema: {
          tags,
          summary: 'Upload an app, replacing any app of the same name',
          description:
            `multipart/form-data with one part named 'files' per file; the part's filename is the file's path ` +
            `inside the app (e.g. assets/app.js), and index.html must be at the root. At most ${MAX_APP_FILES} ` +
            `files in ${MAX_APP_FOLDERS} folders, and ${APP_SIZE_LIMIT}; Content-Length is required (411 without ` +
            `it, 413 when too large). ${maxUploads} uploads run at once (429 with Retry-After beyond), and one ` +
            `that sends less than ${progress.minBytes / 1024} KB of its body in ${progress.windowMs / 1000} s is ` +
            'dropped. The old app stays served until the new one is complete.',
          consumes: ['multipart/form-data'],
          params: AppNameParam,
          body: AppUploadBody,
          response: { 200: AppUploadResponse, ...errorResponses(400, 411, 413, 415, 429, 507) },
        },
        // The body is a stream, checked part by part while it is read, and the name is checked in onRequest with
        // the rule in the message; the schemas above are for the documentation.
        validatorCompiler: () => () => true,
        onRequest: admitUpload,
        onSend: closeIfUnread,
      },
      async (request) => {
        const { name } = request.params;
        const staged = store.stage(name);
        try {
          const files = await receiveUpload(partsOf(request, progress), staged);
          await store.replace(name, staged);
          return { name, files: files.map((path) => `${name}/${path}`) };
        } catch (error) {
          await staged.discard();
          throw error;
        }
      },
    );
  };
}

const RETRY_AFTER_SECONDS = 5;

/**
 * The parts of the upload. The parser starts at once: it ends the parts with an error when the request closes early,
 * but only if it is listening by then, so nothing may be awaited before; a request closed even earlier (while the
 * hooks ran) is refused here. While the parts are read, a body that sends less than `minBytes` in a window has its
 * request destroyed, which closes the connection and ends the parts with an error.
 */
function partsOf(request: FastifyRequest, { windowMs, minBytes }: UploadProgress): AsyncIterable<Multipart> {
  const { raw } = request;
  if (raw.destroyed || raw.aborted) throw new AppRefusal('INVALID_REQUEST', CUT_SHORT);
  const parts = request.parts();
  const first = parts.next();
  let received = 0;
  const onData = (chunk: Buffer) => {
    received += chunk.length;
  };
  const check = setInterval(() => {
    if (received < minBytes && !raw.complete) raw.destroy();
    received = 0;
  }, windowMs);
  raw.on('data', onData);
  return (async function* () {
    try {
      for (let part = await first; part.done !== true; part = await parts.next()) yield part.value;
    } finally {
      clearInterval(check);
      raw.off('data', onData);
    }
  })();
}

// A refusal may come while the client is still sending: the connection is closed after the answer, or the unread
// body would stall it. (Over HTTP/2, Node drops the header and resets the stream itself.)
function closeIfUnread(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  const { raw } = request;
  if (!raw.complete && !raw.readableEnded) reply.header('connection', 'close');
  done(null, payload);
}
