// The watchlists API: every route, the person's own lists only, the lists kept across a restart, and every bad
// input answered with its envelope and a message that says what to change.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { ManualClock } from '../../src/domain/time.js';
import type { Gateway } from '../../src/gateway/gateway.js';
import { MAX_WATCHLIST_CONTRACTS, MAX_WATCHLISTS } from '../../src/gateway/watchlists.js';
import { buildApp } from '../../src/server/app.js';
import { MONDAY_MORNING, testApp } from '../helpers/app.js';
import { assertErrorKind } from '../helpers/errors.js';
import { simGateway } from '../helpers/gateway.js';

type Json = Record<string, unknown>;
interface WatchlistJson {
  id: string;
  person_id: string;
  name: string;
  contracts: { security_type: string; region: string; exchange: string; code: string; target_code: string | null }[];
}

const identity = { version: 'test', scheme: 'http' as const, protocols: ['HTTP/1.1'], startedAt: Date.now() };
const open: { app: FastifyInstance; gateway: Gateway }[] = [];
const dirs: string[] = [];

/** An app over the simulator, logged in with `apiKey`, its journal at `journalPath` (in memory when omitted). */
async function appWith(apiKey: string | null, journalPath?: string) {
  const clock = new ManualClock(MONDAY_MORNING);
  const { gateway } = simGateway({ clock, seed: 1, clockMode: 'always-open', apiKey, journalPath });
  const app = await buildApp({ gateway, bindHost: '127.0.0.1', rateLimits: false, identity });
  await app.ready();
  open.push({ app, gateway });
  return app;
}

async function closeApp(app: FastifyInstance) {
  const index = open.findIndex((entry) => entry.app === app);
  const [entry] = open.splice(index, 1);
  await entry?.app.close();
  await entry?.gateway.close();
}

after(async () => {
  for (const { app } of [...open]) await closeApp(app);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const URL = '/api/v1/watchlist';
const call = async (
  app: FastifyInstance,
  method: NonNullable<InjectOptions['method']>,
  url: string,
  payload?: unknown,
) => {
  const response = await app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as Json }) });
  return { status: response.statusCode, body: response.json() as Json & WatchlistJson };
};
const listsOf = async (app: FastifyInstance) => (await call(app, 'GET', URL)).body as unknown as WatchlistJson[];
const codes = (list: WatchlistJson) => list.contracts.map((c) => c.code);

/** The answer is the envelope of `kind` at `status`, with a message matching `message`. */
function assertError(answer: { status: number; body: unknown }, status: number, kind: string, message: RegExp) {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assertErrorKind(answer.body, status, kind as never);
  assert.match((answer.body as Json).message as string, message);
}

describe('the watchlist routes', () => {
  let app: FastifyInstance;
  before(async () => {
    const made = await testApp();
    app = made.app;
    open.push(made);
  });

  test('create, list, show, replace, add, remove and delete', async () => {
    const empty = await call(app, 'GET', URL);
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, []);

    const created = await call(app, 'POST', URL, {
      name: '  tech  ',
      contracts: [{ code: '2330' }, { security_type: 'STK', exchange: 'TSE', code: '2317' }, { code: '2330' }],
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const list = created.body;
    assert.match(list.id, /^wl-\d+$/);
    assert.equal(list.name, 'tech', 'trimmed');
    assert.equal(list.person_id, 'A123456789');
    assert.deepEqual(codes(list), ['2330', '2317'], 'duplicates once, order kept');
    assert.deepEqual(list.contracts[0], {
      security_type: 'STK',
      region: 'TW',
      exchange: 'TSE',
      code: '2330',
      target_code: null,
    });
    const contract = await call(app, 'GET', '/api/v1/data/contracts/2330');
    assert.deepEqual(list.contracts[0], contract.body, 'the contract as the contracts API answers it');

    const bare = await call(app, 'POST', URL, { name: 'empty' });
    assert.equal(bare.status, 200);
    assert.deepEqual(bare.body.contracts, []);
    assert.notEqual(bare.body.id, list.id);

    assert.deepEqual(
      (await listsOf(app)).map((l) => l.id),
      [list.id, bare.body.id],
    );
    assert.deepEqual((await call(app, 'GET', `${URL}/${list.id}`)).body, list);

    const replaced = await call(app, 'PUT', `${URL}/${list.id}`, { contracts: [{ code: 'TXFR1' }, { code: '2317' }] });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    assert.deepEqual(codes(replaced.body), ['TXFR1', '2317']);
    assert.equal(replaced.body.name, 'tech');
    assert.equal(replaced.body.contracts[0]?.security_type, 'FUT');
    assert.notEqual(replaced.body.contracts[0]?.target_code, null, 'R1 carries its target');

    const renamed = await call(app, 'PUT', `${URL}/${list.id}`, { contracts: [{ code: '2317' }], name: 'renamed' });
    assert.equal(renamed.body.name, 'renamed');
    assert.deepEqual(codes(renamed.body), ['2317']);

    const added = await call(app, 'POST', `${URL}/${list.id}/contracts`, {
      contracts: [{ code: '2330' }, { code: '2317' }, { code: '2454' }],
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual(codes(added.body), ['2317', '2330', '2454'], 'new ones at the end, present ones stay');

    const removed = await call(app, 'DELETE', `${URL}/${list.id}/contracts`, {
      contracts: [{ code: '2317' }, { code: 'NOT-IN-LIST' }, { security_type: 'FUT', code: '2330' }],
    });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(codes(removed.body), ['2330', '2454'], 'by code, and by security type when given');

    const deleted = await call(app, 'DELETE', `${URL}/${list.id}`);
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, removed.body, 'answers the list as it was');
    assertError(await call(app, 'GET', `${URL}/${list.id}`), 404, 'WATCHLIST_NOT_FOUND', /watchlist wl-\d+ not found/);
    assert.deepEqual(
      (await listsOf(app)).map((l) => l.id),
      [bare.body.id],
    );
    const again = await call(app, 'POST', URL, { name: 'again' });
    assert.notEqual(again.body.id, list.id, 'a deleted id is never handed out again');
    await call(app, 'DELETE', `${URL}/${again.body.id}`);
    await call(app, 'DELETE', `${URL}/${bare.body.id}`);
  });

  test('an unknown id is a 404 on every route that names one', async () => {
    for (const id of ['wl-999', 'wl-0', 'nope', 'wl-1x', 'wl-99999999999999999999']) {
      const url = `${URL}/${encodeURIComponent(id)}`;
      const contracts = { contracts: [{ code: '2330' }] };
      for (const [method, path, body] of [
        ['GET', url, undefined],
        ['PUT', url, contracts],
        ['DELETE', url, undefined],
        ['POST', `${url}/contracts`, contracts],
        ['DELETE', `${url}/contracts`, contracts],
      ] as const) {
        const answer = await call(app, method, path, body);
        assertError(answer, 404, 'WATCHLIST_NOT_FOUND', new RegExp(`^watchlist ${id} not found$`));
      }
    }
  });

  test('an unknown contract is CONTRACT_NOT_FOUND with the contracts API message, and nothing is kept', async () => {
    const lookup = await call(app, 'GET', '/api/v1/data/contracts/NOPE');
    const refused = await call(app, 'POST', URL, { name: 'bad', contracts: [{ code: '2330' }, { code: 'NOPE' }] });
    assertError(refused, 404, 'CONTRACT_NOT_FOUND', /NOPE/);
    assert.equal(refused.body.message, lookup.body.message);
    assert.deepEqual((await call(app, 'GET', URL)).body, [], 'no list made');

    const list = (await call(app, 'POST', URL, { name: 'kept', contracts: [{ code: '2330' }] })).body;
    for (const [method, path] of [
      ['PUT', `${URL}/${list.id}`],
      ['POST', `${URL}/${list.id}/contracts`],
    ] as const) {
      const answer = await call(app, method, path, { contracts: [{ code: '2317' }, { code: 'NOPE' }] });
      assertError(answer, 404, 'CONTRACT_NOT_FOUND', /NOPE/);
    }
    const wrongExchange = await call(app, 'POST', `${URL}/${list.id}/contracts`, {
      contracts: [{ exchange: 'OTC', code: '2317' }],
    });
    assertError(wrongExchange, 404, 'CONTRACT_NOT_FOUND', /^2317 is listed on TSE, not OTC$/);
    const wrongType = await call(app, 'PUT', `${URL}/${list.id}`, {
      contracts: [{ security_type: 'FUT', code: '2317' }],
    });
    assertError(wrongType, 404, 'CONTRACT_NOT_FOUND', /2317/);
    assert.deepEqual(codes((await call(app, 'GET', `${URL}/${list.id}`)).body), ['2330'], 'the list unchanged');
    await call(app, 'DELETE', `${URL}/${list.id}`);
  });

  test('names: trimmed, 1 to 100 characters, not only spaces', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /body\.name field required/],
      [{ name: '' }, /body\.name must NOT have fewer than 1 characters/],
      [{ name: '   ' }, /body\.name must match pattern/],
      [{ name: 'x'.repeat(101) }, /body\.name must NOT have more than 100 characters/],
      [{ name: 7 }, /body\.name must be string/],
      [{ name: 'a', extra: 1 }, /body\.extra unknown field/],
      [{ name: 'a', contracts: [{}] }, /body\.contracts\[0\]\.code field required/],
      [{ name: 'a', contracts: [{ code: '2330', action: 'Buy' }] }, /unknown field/],
      [{ name: 'a', contracts: ' 2330' }, /body\.contracts must be array/],
    ];
    for (const [body, message] of cases) {
      const answer = await call(app, 'POST', URL, body);
      assertError(answer, 422, 'VALIDATION_FAILED', message);
      assert.ok(Array.isArray(answer.body.details) && answer.body.details.length > 0, JSON.stringify(answer.body));
    }
    const list = (await call(app, 'POST', URL, { name: 'x'.repeat(100) })).body;
    assert.equal(list.name.length, 100);
    assertError(
      await call(app, 'PUT', `${URL}/${list.id}`, { contracts: [], name: ' ' }),
      422,
      'VALIDATION_FAILED',
      /body\.name must match pattern/,
    );
    assertError(await call(app, 'PUT', `${URL}/${list.id}`, {}), 422, 'VALIDATION_FAILED', /body\.contracts field/);
    await call(app, 'DELETE', `${URL}/${list.id}`);
    assert.deepEqual((await call(app, 'GET', URL)).body, []);
  });

  test('malformed bodies and ids are 422 or 400, never a crash', async () => {
    const list = (await call(app, 'POST', URL, { name: 'kept', contracts: [{ code: '2330' }] })).body;
    const bad = await app.inject({
      method: 'POST',
      url: URL,
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    assertError({ status: bad.statusCode, body: bad.json() }, 400, 'INVALID_JSON', /not valid JSON/);
    const noBody = await call(app, 'DELETE', `${URL}/${list.id}/contracts`);
    assertError(noBody, 422, 'VALIDATION_FAILED', /body must be object/);
    const array = await call(app, 'POST', `${URL}/${list.id}/contracts`, [{ code: '2330' }]);
    assertError(array, 422, 'VALIDATION_FAILED', /body must be object/);
    const longId = await call(app, 'GET', `${URL}/${'w'.repeat(41)}`);
    assertError(longId, 422, 'VALIDATION_FAILED', /path\.id must NOT have more than 40 characters/);
    assert.deepEqual((await call(app, 'GET', `${URL}/${list.id}`)).body, list, 'the list unchanged');
    await call(app, 'DELETE', `${URL}/${list.id}`);
  });

  test(`at most ${MAX_WATCHLIST_CONTRACTS} contracts a list, the limit in the error`, async () => {
    const stocks = (await call(app, 'GET', '/api/v1/data/contracts?security_type=STK')).body.contracts as unknown as {
      code: string;
    }[];
    const refs = stocks.slice(0, MAX_WATCHLIST_CONTRACTS + 1).map(({ code }) => ({ code }));
    assert.equal(refs.length, MAX_WATCHLIST_CONTRACTS + 1, 'the catalog lists enough stocks');
    const tooMany = await call(app, 'POST', URL, { name: 'big', contracts: refs });
    assertError(tooMany, 422, 'VALIDATION_FAILED', /body\.contracts must NOT have more than 200 items/);

    const list = (await call(app, 'POST', URL, { name: 'big', contracts: refs.slice(0, MAX_WATCHLIST_CONTRACTS) }))
      .body;
    assert.equal(list.contracts.length, MAX_WATCHLIST_CONTRACTS);
    const more = await call(app, 'POST', `${URL}/${list.id}/contracts`, { contracts: [refs[MAX_WATCHLIST_CONTRACTS]] });
    assertError(more, 400, 'INVALID_REQUEST', /at most 200 contracts; wl-\d+ would hold 201/);
    const present = await call(app, 'POST', `${URL}/${list.id}/contracts`, { contracts: [refs[0]] });
    assert.equal(present.status, 200, 'adding one already in a full list is fine');
    assert.equal((await call(app, 'GET', `${URL}/${list.id}`)).body.contracts.length, MAX_WATCHLIST_CONTRACTS);
    await call(app, 'DELETE', `${URL}/${list.id}`);
  });

  test(`at most ${MAX_WATCHLISTS} lists a person, the limit in the error`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < MAX_WATCHLISTS; i++) ids.push((await call(app, 'POST', URL, { name: `list ${i}` })).body.id);
    const refused = await call(app, 'POST', URL, { name: 'one more' });
    assertError(refused, 400, 'INVALID_REQUEST', /at most 100 watchlists, and A123456789 has 100: delete one first/);
    assert.equal((await listsOf(app)).length, MAX_WATCHLISTS);
    await call(app, 'DELETE', `${URL}/${ids[0]}`);
    assert.equal((await call(app, 'POST', URL, { name: 'one more' })).status, 200);
  });
});

describe('watchlists per person, in the journal', () => {
  test('a list made under one API key is not seen under another; lists survive a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-watchlists-'));
    dirs.push(dir);
    const journalPath = join(dir, 'journal.sqlite');

    const alice = await appWith('alice-key', journalPath);
    const made = (await call(alice, 'POST', URL, { name: 'alice', contracts: [{ code: 'TXFR1' }, { code: '2330' }] }))
      .body;
    const personA = made.person_id;
    assert.notEqual(personA, 'A123456789');
    await closeApp(alice);

    const bob = await appWith('bob-key', journalPath);
    assert.deepEqual((await call(bob, 'GET', URL)).body, [], "bob sees none of alice's lists");
    assertError(await call(bob, 'GET', `${URL}/${made.id}`), 404, 'WATCHLIST_NOT_FOUND', /not found/);
    assertError(await call(bob, 'DELETE', `${URL}/${made.id}`), 404, 'WATCHLIST_NOT_FOUND', /not found/);
    assertError(
      await call(bob, 'PUT', `${URL}/${made.id}`, { contracts: [] }),
      404,
      'WATCHLIST_NOT_FOUND',
      /not found/,
    );
    const bobs = (await call(bob, 'POST', URL, { name: 'bob' })).body;
    assert.notEqual(bobs.person_id, personA);
    await closeApp(bob);

    const aliceAgain = await appWith('alice-key', journalPath);
    assert.deepEqual(await listsOf(aliceAgain), [made], 'kept across the restart, as made');
    await closeApp(aliceAgain);
  });
});
