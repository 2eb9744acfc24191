// The dashboard's serving: the page, its hashed assets, the answer when it is not built, and that it leaves the
// API's own answers alone.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { API_PREFIX } from '../../src/contract/paths.js';
import { bearerAuthPlugin, tokenCheck } from '../../src/server/plugins/bearer-auth.js';
import { errorsPlugin } from '../../src/server/plugins/errors.js';
import { dashboardRoutes, packageRoot } from '../../src/server/routes/dashboard.js';
import { testApp } from '../helpers/app.js';

const THEME_SCRIPT = "document.documentElement.classList.toggle('dark', true);";
const INDEX = `<!doctype html><html><head><script>${THEME_SCRIPT}</script><script type="module" src="/assets/index-Ab12Cd.js"></script></head><body><div id="root"></div></body></html>`;

const folders: string[] = [];
const apps: FastifyInstance[] = [];
after(async () => {
  await Promise.all(apps.map((app) => app.close()));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function builtDashboard(): string {
  const root = mkdtempSync(join(tmpdir(), 'sjgate-web-'));
  folders.push(root);
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), INDEX);
  writeFileSync(join(root, 'assets', 'index-Ab12Cd.js'), 'console.log("dashboard")');
  return root;
}

function emptyFolder(): string {
  const root = mkdtempSync(join(tmpdir(), 'sjgate-web-'));
  folders.push(root);
  return root;
}

async function dashboardApp(root: string, credentials?: { apiKey: string; secretKey: string }) {
  const app = Fastify();
  await app.register(errorsPlugin);
  await app.register(dashboardRoutes({ root }));
  // The API's context, protected, beside the dashboard's public one (as buildApp registers them).
  await app.register(
    async (api) => {
      if (credentials) await api.register(bearerAuthPlugin, { check: tokenCheck(credentials) });
      api.get('/auth/accounts', async () => []);
    },
    { prefix: API_PREFIX },
  );
  await app.ready();
  apps.push(app);
  return app;
}

describe('dashboard serving', () => {
  test('GET / answers index.html, revalidated on every load', async () => {
    const app = await dashboardApp(builtDashboard());
    const response = await app.inject({ method: 'GET', url: '/' });
    assert.equal(response.statusCode, 200);
    assert.match(response.headers['content-type'] as string, /^text\/html/);
    assert.equal(response.headers['cache-control'], 'no-cache');
    assert.equal(response.body, INDEX);
  });

  test('the page may not be framed, and only its own scripts and the theme script run', async () => {
    const app = await dashboardApp(builtDashboard());
    const response = await app.inject({ method: 'GET', url: '/' });
    const policy = response.headers['content-security-policy'] as string;
    assert.match(policy, /frame-ancestors 'none'/);
    const hash = createHash('sha256').update(THEME_SCRIPT).digest('base64');
    assert.match(policy, new RegExp(`script-src 'self' 'sha256-${hash.replace(/[+/]/g, '\\$&')}'`));
    assert.equal(response.headers['x-frame-options'], 'DENY');
  });

  test('a hashed asset is cached for a year as immutable', async () => {
    const app = await dashboardApp(builtDashboard());
    const response = await app.inject({ method: 'GET', url: '/assets/index-Ab12Cd.js' });
    assert.equal(response.statusCode, 200);
    assert.match(response.headers['content-type'] as string, /javascript/);
    assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(response.body, 'console.log("dashboard")');
  });

  test('the icon is at /favicon.ico too, so a hosted app without one shows no 404, keys or not', async () => {
    const app = await dashboardApp(builtDashboard(), { apiKey: 'key', secretKey: 'secret' });
    const response = await app.inject({ method: 'GET', url: '/favicon.ico' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'image/svg+xml');
    assert.match(response.body, /^<svg xmlns='http:\/\/www.w3.org\/2000\/svg'.*<\/svg>$/);
  });

  test('a missing asset is the JSON 404 envelope', async () => {
    const app = await dashboardApp(builtDashboard());
    const response = await app.inject({ method: 'GET', url: '/assets/index-Zz99.js' });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().code, 404);
  });

  test('nothing outside the assets folder is served', async () => {
    const app = await dashboardApp(builtDashboard());
    for (const url of ['/assets/../index.html', '/assets/%2e%2e/index.html', '/index.html']) {
      const response = await app.inject({ method: 'GET', url });
      assert.notEqual(response.statusCode, 200, url);
    }
  });

  test('not built: a browser gets a 503 page saying to run npm run build', async () => {
    const app = await dashboardApp(emptyFolder());
    const response = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html,*/*' } });
    assert.equal(response.statusCode, 503);
    assert.match(response.headers['content-type'] as string, /^text\/html/);
    assert.match(response.body, /npm run build/);
  });

  test('not built: a program gets the 503 error envelope', async () => {
    const app = await dashboardApp(emptyFolder());
    const response = await app.inject({ method: 'GET', url: '/', headers: { accept: 'application/json' } });
    assert.equal(response.statusCode, 503);
    const body = response.json();
    assert.equal(body.code, 503);
    assert.equal(body.error, 'DASHBOARD_NOT_BUILT');
    assert.match(body.message, /npm run build/);
  });

  test('with keys required, the page and its assets need none (their API calls carry them)', async () => {
    const app = await dashboardApp(builtDashboard(), { apiKey: 'key', secretKey: 'secret' });
    assert.equal((await app.inject({ method: 'GET', url: '/' })).statusCode, 200);
    assert.equal((await app.inject({ method: 'GET', url: '/assets/index-Ab12Cd.js' })).statusCode, 200);
    assert.equal((await app.inject({ method: 'GET', url: '/api/v1/auth/accounts' })).statusCode, 401);
  });

  test('the package root is the nearest folder above this module with a package.json', () => {
    const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { name: string };
    assert.equal(manifest.name, 'sjgate');
    assert.throws(() => packageRoot(emptyFolder()), /no package\.json above/);
  });
});

describe('dashboard inside the gateway', () => {
  test('unknown API paths still get the JSON 404 envelope', async () => {
    const { app } = await testApp();
    apps.push(app);
    const response = await app.inject({ method: 'GET', url: '/api/v1/nope' });
    assert.equal(response.statusCode, 404);
    assert.match(response.headers['content-type'] as string, /^application\/json/);
    assert.deepEqual(response.json(), {
      code: 404,
      error: 'ROUTE_NOT_FOUND',
      message: 'no route GET /api/v1/nope; see /docs for the API',
      details: null,
    });
  });

  test('GET / is the dashboard (the page, or the 503 saying to build it), not the docs', async () => {
    const { app } = await testApp();
    apps.push(app);
    const response = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    assert.ok([200, 503].includes(response.statusCode), String(response.statusCode));
    assert.match(response.headers['content-type'] as string, /^text\/html/);
    assert.equal(response.headers['cache-control'], 'no-cache');
  });
});
