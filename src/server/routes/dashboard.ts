// The dashboard: the single page built by Vite into dist/web, served at / with its hashed assets under /assets/.
// index.html is read on every request (it is small) so that a rebuild shows up without restarting the daemon.

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { STATUS_OF_KIND, sendError } from '../plugins/errors.js';

export interface DashboardOptions {
  /** The folder holding the built index.html and assets/; dist/web of the package by default. */
  root?: string | undefined;
}

const NOT_BUILT = 'the dashboard is not built; run `npm run build` in the sjgate folder, then reload';

/**
 * The dashboard's icon, also at /favicon.ico: a browser asks the site's root for it on every page without an icon of
 * its own (hosted apps among them), and a 404 there shows in the app's network log as a failure.
 */
const ICON =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><rect width='16' height='16' rx='3' fill='#c2410c'/>" +
  "<path d='M3 11l3-4 3 2 4-5' stroke='white' stroke-width='1.6' fill='none'/></svg>";

/** The folder of the package.json above this module: the sources under tsx and dist/ under node both work. */
export function packageRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export function dashboardRoutes(options: DashboardOptions = {}): FastifyPluginAsync {
  const root = options.root ?? join(packageRoot(), 'dist', 'web');
  // The policy depends on index.html's inline script, which changes only with a rebuild: hashed once per page.
  let policy = { html: '', header: '' };
  const policyOf = (html: string) => {
    if (policy.html !== html) policy = { html, header: contentSecurityPolicy(html) };
    return policy.header;
  };
  return async (app) => {
    await app.register(fastifyStatic, {
      root: join(root, 'assets'),
      prefix: '/assets/',
      decorateReply: false,
      index: false,
      // Names carry a content hash, so a file under a name never changes.
      maxAge: '365d',
      immutable: true,
      suppressWarning: true,
    });

    app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(ICON),
    );

    app.get('/', { schema: { hide: true } }, async (request, reply) => {
      const html = await readFile(join(root, 'index.html'), 'utf8').catch(() => null);
      if (html === null) return notBuilt(reply, request.headers.accept);
      return reply
        .header('cache-control', 'no-cache')
        .header('content-security-policy', policyOf(html))
        .header('x-frame-options', 'DENY')
        .header('x-content-type-options', 'nosniff')
        .type('text/html; charset=utf-8')
        .send(html);
    });
  };
}

function notBuilt(reply: FastifyReply, accept: string | undefined) {
  if (!accept?.includes('text/html')) return sendError(reply, 'DASHBOARD_NOT_BUILT', NOT_BUILT);
  const page = `<!doctype html><meta charset="utf-8"><title>sjgate</title><p>sjgate: ${NOT_BUILT}. The API is up: <a href="/docs">/docs</a>.</p>`;
  return reply
    .code(STATUS_OF_KIND.DASHBOARD_NOT_BUILT)
    .header('cache-control', 'no-cache')
    .type('text/html; charset=utf-8')
    .send(page);
}

/**
 * Only this page's own scripts run, and no other site may frame it (an order ticket under a clickjacking overlay).
 * The inline theme script, which must run before first paint, is allowed by its hash.
 */
function contentSecurityPolicy(html: string): string {
  const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (match) => `'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`,
  );
  return [
    "default-src 'self'",
    `script-src 'self' ${inline.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}
