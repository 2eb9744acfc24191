import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { SimBroker } from '../../src/broker/sim/sim-broker.js';
import { MONDAY_MORNING, testApp } from '../helpers/app.js';
import { assertErrorKind } from '../helpers/errors.js';

let app: FastifyInstance;
let broker: SimBroker;
before(async () => {
  ({ app, broker } = await testApp());
});
after(async () => {
  await app.close();
});

type Json = Record<string, unknown>;

async function send(options: InjectOptions) {
  const response = await app.inject(options);
  return { status: response.statusCode, headers: response.headers, text: response.body };
}

async function json(options: InjectOptions) {
  const response = await send(options);
  return { ...response, body: JSON.parse(response.text) as Json };
}

function assertEnvelope(response: { status: number; body: Json }, status: number, message?: RegExp) {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assertErrorKind(response.body, status);
  assert.equal(response.body.code, status);
  assert.equal(typeof response.body.message, 'string');
  assert.ok(!/\bat .*\.(ts|js):\d+/.test(response.body.message as string), 'no stack trace');
  if (message) assert.match(response.body.message as string, message);
  if (status !== 422) assert.equal(response.body.details, null);
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const COMBO = '/api/v1/data/contracts/combo';
const goodCombo = {
  legs: [
    { security_type: 'FUT', exchange: 'TAIFEX', code: 'TXFL6' },
    { security_type: 'FUT', exchange: 'TAIFEX', code: 'TXFA7' },
  ],
};

describe('the error envelope', () => {
  test('an unknown route is a 404 envelope naming it', async () => {
    const response = await json({ method: 'GET', url: '/api/v1/nothing/here?x=1' });
    assertEnvelope(response, 404, /\/api\/v1\/nothing\/here/);
    assert.match(response.headers['content-type'] as string, /^application\/json/);
    assertEnvelope(await json({ method: 'DELETE', url: '/api/v1/info' }), 404);
  });

  test('invalid JSON is a 400 envelope', async () => {
    const response = await json({
      method: 'POST',
      url: COMBO,
      headers: { 'content-type': 'application/json' },
      payload: '{"legs": [',
    });
    assertEnvelope(response, 400, /JSON/);
  });

  test('a body that is not JSON is a 415 envelope asking for application/json', async () => {
    for (const type of ['application/xml', 'application/x-www-form-urlencoded', 'text/plain;charset=UTF-8']) {
      const response = await json({
        method: 'POST',
        url: COMBO,
        headers: { 'content-type': type },
        payload: JSON.stringify(goodCombo),
      });
      assertEnvelope(response, 415, /application\/json/);
    }
    // the same body as JSON works
    assert.equal((await json({ method: 'POST', url: COMBO, payload: goodCombo })).status, 200);
    const withCharset = await json({
      method: 'POST',
      url: COMBO,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: JSON.stringify(goodCombo),
    });
    assert.equal(withCharset.status, 200);
  });

  test('body values are never coerced: a number where a string belongs is 422', async () => {
    const response = await json({
      method: 'POST',
      url: COMBO,
      payload: { legs: [{ security_type: 'FUT', code: 123 }, goodCombo.legs[1]] },
    });
    assertEnvelope(response, 422);
    assert.deepEqual(response.body.details, [
      { loc: ['body', 'legs', 0, 'code'], msg: 'must be string', type: 'type' },
    ]);
    const page = await json({
      method: 'POST',
      url: '/api/v1/data/contracts',
      payload: { security_type: 'IND', page: '2' },
    });
    assertEnvelope(page, 422);
    assert.deepEqual(
      (page.body.details as Json[]).map((d) => d.loc),
      [['body', 'page']],
    );
  });

  test('query values are text and are read as their declared type', async () => {
    const response = await json({ method: 'GET', url: '/api/v1/data/contracts?security_type=IND&page=2&page_size=2' });
    assert.equal(response.status, 200);
    assert.equal(response.body.page, 2);
    assert.equal(response.body.page_size, 2);
  });

  test('422 lists every violation, not only the first', async () => {
    const response = await json({
      method: 'POST',
      url: '/api/v1/data/contracts',
      payload: { security_type: 'XXX', page: 'a', extra: 1 },
    });
    assertEnvelope(response, 422, /3 problems/);
    const details = response.body.details as Json[];
    assert.deepEqual(details.map((d) => (d.loc as unknown[]).join('.')).sort(), [
      'body.extra',
      'body.page',
      'body.security_type',
    ]);
    const byLoc = Object.fromEntries(details.map((d) => [(d.loc as unknown[]).join('.'), d]));
    assert.deepEqual(byLoc['body.extra'], { loc: ['body', 'extra'], msg: 'unknown field', type: 'extra_forbidden' });
    assert.equal((byLoc['body.security_type'] as Json).type, 'enum');
    assert.match((byLoc['body.security_type'] as Json).msg as string, /STK/);
    const query = await json({ method: 'GET', url: '/api/v1/data/contracts/options?strike_min=x&option_right=Q' });
    assertEnvelope(query, 422);
    assert.deepEqual((query.body.details as Json[]).map((d) => (d.loc as unknown[]).join('.')).sort(), [
      'query.option_right',
      'query.root',
      'query.strike_min',
    ]);
  });

  test('an oversized body is a 413 envelope', async () => {
    const response = await json({
      method: 'POST',
      url: COMBO,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...goodCombo, padding: 'x'.repeat(1024 * 1024) }),
    });
    assertEnvelope(response, 413, /too large/);
  });

  test('a malformed percent-escape or an overlong path segment is an envelope too, not the router default', async () => {
    assertEnvelope(await json({ method: 'GET', url: '/api/v1/data/contracts/%E0%A4%A' }), 400, /not a valid url/);
    assertEnvelope(await json({ method: 'GET', url: '/api/v1/data/contracts/%ZZ/info' }), 400, /not a valid url/);
    const long = await json({ method: 'GET', url: `/api/v1/data/contracts/${'A'.repeat(5000)}/info` });
    assertEnvelope(long, 414, /max param length/);
  });
});

describe('request guards', () => {
  test('a Host naming another site is refused (DNS rebinding)', async () => {
    const response = await json({ method: 'GET', url: '/api/v1/info', headers: { host: 'evil.example.com' } });
    assertEnvelope(response, 403, /evil\.example\.com/);
    const withPort = await json({ method: 'GET', url: '/api/v1/info', headers: { host: 'attacker.test:8080' } });
    assertEnvelope(withPort, 403);
    // A local name followed by more than a port is another host (`[::1].evil.com` resolves wherever evil.com says).
    for (const host of ['[::1].evil.com', '[::1]evil.com:8080', 'localhost:8080.evil.com', 'localhost:x', '[::1']) {
      const response = await json({ method: 'GET', url: '/api/v1/info', headers: { host } });
      assertEnvelope(response, 403, /is not allowed/);
    }
  });

  test('local Host names are accepted', async () => {
    for (const host of ['localhost', 'localhost:8080', '127.0.0.1:8080', '[::1]:8080']) {
      assert.equal((await send({ method: 'GET', url: '/api/v1/info', headers: { host } })).status, 200, host);
    }
  });

  test('an Origin of another site is refused, even for a simple GET', async () => {
    const response = await json({
      method: 'GET',
      url: '/api/v1/auth/accounts',
      headers: { host: 'localhost:8080', origin: 'https://evil.example.com' },
    });
    assertEnvelope(response, 403, /evil\.example\.com/);
    const post = await json({
      method: 'POST',
      url: COMBO,
      headers: { host: 'localhost:8080', origin: 'http://localhost.evil.example.com:9999' },
      payload: goodCombo,
    });
    assertEnvelope(post, 403);
    const opaque = await json({
      method: 'GET',
      url: '/api/v1/info',
      headers: { host: 'localhost:8080', origin: 'null' },
    });
    assertEnvelope(opaque, 403);
  });

  test("the gateway's own pages (same origin) are allowed", async () => {
    const response = await json({
      method: 'POST',
      url: COMBO,
      headers: { host: 'localhost:8080', origin: 'http://localhost:8080' },
      payload: goodCombo,
    });
    assert.equal(response.status, 200);
    assert.equal(response.body.code, 'TXFL6/A7');
  });
});

describe('server endpoints', () => {
  test('GET /api/v1/info has every field of the spec', async () => {
    const { status, body } = await json({ method: 'GET', url: '/api/v1/info' });
    assert.equal(status, 200);
    assert.equal(body.name, 'sjgate');
    assert.equal(body.version, '1.7.9', 'the official server release clients compare with');
    assert.equal(body.sjgate_version, 'test');
    assert.equal(typeof body.description, 'string');
    assert.ok((body.description as string).length > 0);
    assert.deepEqual(body.protocols, ['HTTP/1.1']);
    assert.equal(body.scheme, 'http');
    assert.equal(body.uds_plaintext, true);
    assert.equal(body.simulation, true);
    assert.equal(body.sim_clock, 'always-open');
    assert.equal(body.sim_time, '2026-11-23T10:00:00.000+08:00', "the simulator's clock, not the wall clock");
  });

  test('GET /api/v1/health', async () => {
    const { status, body } = await json({ method: 'GET', url: '/api/v1/health' });
    assert.equal(status, 200);
    assert.equal(body.status, 'healthy');
    assert.equal(body.version, '1.7.9');
    assert.equal(body.sjgate_version, 'test');
    assert.match(body.timestamp as string, ISO_TIMESTAMP);
    assert.ok(!Number.isNaN(Date.parse(body.timestamp as string)));
    assert.equal(typeof body.uptime_seconds, 'number');
    assert.ok((body.uptime_seconds as number) >= 0);
    assert.ok((body.contract_count as number) > 2000, `${body.contract_count} contracts`);
    assert.equal(body.contract_count, broker.contracts.count());
    assert.equal(body.simulation, true);
  });

  test('GET /api/v1/stream/status', async () => {
    const { status, body } = await json({ method: 'GET', url: '/api/v1/stream/status' });
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body).sort(), [
      'active_connections',
      'dropped_clients',
      'queued_bytes',
      'refused_clients',
      'replay_buffer',
      'replays',
      'status',
      'streams',
      'subscriptions',
      'timestamp',
    ]);
    assert.equal(body.active_connections, 0);
    assert.equal(body.status, 'healthy');
    assert.match(body.timestamp as string, ISO_TIMESTAMP);
  });

  test('GET /docs serves the interactive documentation as HTML', async () => {
    const response = await send({ method: 'GET', url: '/docs' });
    assert.equal(response.status, 200);
    assert.match(response.headers['content-type'] as string, /^text\/html/);
    assert.match(response.text, /<html/i);
  });

  test('GET /openapi.json documents every route of the contracts API', async () => {
    const { status, body } = await json({ method: 'GET', url: '/openapi.json' });
    assert.equal(status, 200);
    assert.match(body.openapi as string, /^3\./);
    assert.equal((body.info as Json).title, 'sjgate');
    const paths = body.paths as Record<string, Record<string, Json>>;
    const routes: [string, string][] = [
      ['get', '/api/v1/data/contracts/{code}'],
      ['get', '/api/v1/data/contracts/{code}/info'],
      ['get', '/api/v1/data/contracts'],
      ['post', '/api/v1/data/contracts'],
      ['get', '/api/v1/data/contracts/futures/roots'],
      ['get', '/api/v1/data/contracts/futures'],
      ['get', '/api/v1/data/contracts/options/roots'],
      ['get', '/api/v1/data/contracts/options'],
      ['get', '/api/v1/data/contracts/warrants'],
      ['get', '/api/v1/data/contracts/warrants/underlyings'],
      ['post', '/api/v1/data/contracts/combo'],
      ['get', '/api/v1/data/contracts/combo/futures'],
      ['get', '/api/v1/data/contracts/tick-bands/{rule}'],
      ['get', '/api/v1/info'],
      ['get', '/api/v1/health'],
      ['get', '/api/v1/stream/status'],
      ['get', '/api/v1/auth/accounts'],
      ['get', '/api/v1/auth/usage'],
      ['post', '/api/v1/auth/default_account'],
      ['get', '/api/v1/auth/default_account'],
    ];
    for (const [method, path] of routes) {
      const operation = paths[path]?.[method];
      assert.ok(operation, `${method.toUpperCase()} ${path} is documented`);
      assert.ok((operation.responses as Json)['200'], `${method.toUpperCase()} ${path} documents its 200`);
      const url = path.replace('{code}', '2330').replace('{rule}', 'STK');
      assert.ok(app.hasRoute({ method: method.toUpperCase() as 'GET', url: path.replace(/\{(\w+)\}/g, ':$1') }), url);
    }
    // every documented contracts path is one of the routes above
    const documented = Object.keys(paths).filter((p) => p.startsWith('/api/v1/data/contracts'));
    assert.deepEqual(
      documented.sort(),
      [...new Set(routes.map(([, p]) => p).filter((p) => p.startsWith('/api/v1/data/contracts')))].sort(),
    );
    // parameters and errors are documented too
    const list = paths['/api/v1/data/contracts']!.get!;
    const params = (list.parameters as Json[]).map((p) => [p.name, p.in, p.required ?? false]);
    assert.ok(params.some(([name, where, required]) => name === 'security_type' && where === 'query' && required));
    assert.ok((paths['/api/v1/data/contracts/{code}']!.get!.responses as Json)['404']);
    assert.ok((paths['/api/v1/data/contracts/combo']!.post!.responses as Json)['400']);
  });

  test('/openapi.json documents the errors the gateway answers before a handler runs', async () => {
    const paths = (await json({ method: 'GET', url: '/openapi.json' })).body.paths as Record<
      string,
      Record<string, { responses: Json }>
    >;
    const statuses = (path: string, method = 'get') => Object.keys(paths[path]![method]!.responses).sort();
    // the router's 414 for an overlong path parameter
    const withParameters = Object.keys(paths).filter((path) => path.includes('{'));
    assert.ok(withParameters.length >= 3, withParameters.join());
    for (const path of withParameters) {
      for (const method of Object.keys(paths[path]!)) assert.ok(statuses(path, method).includes('414'), path);
    }
    // query validation of the roots lists and of the streams, the streams' Last-Event-ID check and their caps (503)
    assert.deepEqual(statuses('/api/v1/data/contracts/futures/roots'), ['200', '422']);
    assert.deepEqual(statuses('/api/v1/data/contracts/options/roots'), ['200', '422']);
    assert.deepEqual(statuses('/api/v1/stream/data'), ['200', '400', '422', '503']);
    assert.deepEqual(statuses('/api/v1/stream/data/order_event'), ['200', '400', '422', '503']);
    assert.deepEqual(statuses('/api/v1/stream/data/contract_event'), ['200', '422', '503']);
    // a change that cannot be journaled
    for (const path of ['/api/v1/order/place_order', '/api/v1/order/cancel_order']) {
      assert.ok(
        ['503', '507'].every((status) => statuses(path, 'post').includes(status)),
        path,
      );
    }
    const stream = paths['/api/v1/stream/data/tick_stk']!.get!.responses['200'] as { content: Json };
    assert.deepEqual(Object.keys(stream.content), ['text/event-stream']);
    const refused = paths['/api/v1/stream/data/tick_stk']!.get!.responses['400'] as { content: Json };
    assert.deepEqual(Object.keys(refused.content), ['application/json']);
    // links from a placed order to the operations on it, with the trade id of the answer
    const links = (paths['/api/v1/order/place_order']!.post!.responses['200'] as { links: Record<string, Json> }).links;
    assert.deepEqual(Object.keys(links).sort(), ['CancelOrder', 'UpdatePrice', 'UpdateQty']);
    assert.equal(links.CancelOrder!.operationRef, '#/paths/~1api~1v1~1order~1cancel_order/post');
    assert.deepEqual(links.CancelOrder!.requestBody, { trade_id: '$response.body#/order/id' });
    assert.ok(paths['/api/v1/order/cancel_order']?.post, 'the link points at a documented operation');
    const listed = (paths['/api/v1/data/contracts']!.get!.responses['200'] as { links: Record<string, Json> }).links;
    assert.deepEqual(listed.PlaceOrder!.requestBody, { contract: '$response.body#/contracts/0' });
    // every link of the document points at an operation it documents
    let linkCount = 0;
    for (const operations of Object.values(paths)) {
      for (const operation of Object.values(operations)) {
        for (const response of Object.values(operation.responses) as { links?: Record<string, Json> }[]) {
          for (const [name, link] of Object.entries(response.links ?? {})) {
            const [, path, method] = /^#\/paths\/([^/]+)\/(\w+)$/.exec(String(link.operationRef)) ?? [];
            const target = path?.replaceAll('~1', '/').replaceAll('~0', '~');
            assert.ok(
              target && method && paths[target]?.[method],
              `link ${name} points at ${String(link.operationRef)}`,
            );
            linkCount++;
          }
        }
      }
    }
    // 3 from a placed order, 1 from the contract list, 1 from a combo order, 5 from a new watchlist
    assert.equal(linkCount, 10);
    assertEnvelope(await json({ method: 'GET', url: '/api/v1/data/contracts/futures/roots?region=XX' }), 422, /region/);
    assertEnvelope(await json({ method: 'GET', url: '/api/v1/stream/data/tick_stk?last_event_id=zz' }), 400, /zz/);
  });
});

describe('accounts', () => {
  const ACCOUNT_FIELDS = ['account_id', 'account_type', 'broker_id', 'person_id', 'signed', 'username'];

  test('one stock and one futures account, signed, for the demo person without an API key', async () => {
    const { status, body } = await json({ method: 'GET', url: '/api/v1/auth/accounts' });
    assert.equal(status, 200);
    const accounts = body as unknown as Json[];
    assert.deepEqual(
      accounts.map((a) => a.account_type),
      ['S', 'F'],
    );
    for (const a of accounts) {
      assert.deepEqual(Object.keys(a).sort(), ACCOUNT_FIELDS);
      assert.equal(a.person_id, 'A123456789');
      assert.equal(a.signed, true);
      assert.match(a.broker_id as string, /\S/);
      assert.match(a.account_id as string, /^\d+$/);
    }
  });

  test('with an API key the person id is another, stable one', async () => {
    const personOf = async (apiKey: string) => {
      const { app: keyed } = await testApp(MONDAY_MORNING, apiKey);
      try {
        const accounts = (await keyed.inject({ method: 'GET', url: '/api/v1/auth/accounts' })).json() as Json[];
        assert.equal(accounts.length, 2);
        assert.equal(accounts[0]!.person_id, accounts[1]!.person_id);
        return { person: accounts[0]!.person_id as string, ids: accounts.map((a) => a.account_id) };
      } finally {
        await keyed.close();
      }
    };
    const first = await personOf('my-api-key');
    const again = await personOf('my-api-key');
    const other = await personOf('another-key');
    assert.notEqual(first.person, 'A123456789');
    assert.match(first.person, /^[A-Z][12]\d{8}$/);
    assert.deepEqual(again, first);
    assert.notEqual(other.person, first.person);
  });

  test('default_account accepts the flat and the nested form; GET reads the default of a type', async () => {
    const [stock, futures] = (await json({ method: 'GET', url: '/api/v1/auth/accounts' })).body as unknown as Json[];
    const flat = await json({
      method: 'POST',
      url: '/api/v1/auth/default_account',
      payload: { account_type: 'S', broker_id: stock!.broker_id, account_id: stock!.account_id },
    });
    assert.equal(flat.status, 200);
    assert.deepEqual(flat.body, stock);
    const nested = await json({
      method: 'POST',
      url: '/api/v1/auth/default_account',
      payload: { account: { broker_id: futures!.broker_id, account_id: futures!.account_id } },
    });
    assert.equal(nested.status, 200);
    assert.deepEqual(nested.body, futures);
    const read = await json({ method: 'GET', url: '/api/v1/auth/default_account?account_type=F' });
    assert.deepEqual([read.status, read.body], [200, futures]);
    const bad = await json({ method: 'GET', url: '/api/v1/auth/default_account?account_type=X' });
    assert.equal(bad.status, 422);
    assert.match(String(bad.body.message), /account_type must be one of "S", "F", "H"/);
    for (const payload of [stock!, { account: stock! }]) {
      const echoed = await json({ method: 'POST', url: '/api/v1/auth/default_account', payload });
      assert.equal(echoed.status, 200, 'an Account from /auth/accounts is accepted as it is');
      assert.deepEqual(echoed.body, stock);
    }
  });

  test('default_account: unknown account 404, both forms 400, no ids 400, unknown field 422', async () => {
    const [stock] = (await json({ method: 'GET', url: '/api/v1/auth/accounts' })).body as unknown as Json[];
    const unknown = await json({
      method: 'POST',
      url: '/api/v1/auth/default_account',
      payload: { broker_id: stock!.broker_id, account_id: '0000000' },
    });
    assertEnvelope(unknown, 404, /0000000/);
    const both = await json({
      method: 'POST',
      url: '/api/v1/auth/default_account',
      payload: {
        broker_id: stock!.broker_id,
        account_id: stock!.account_id,
        account: { broker_id: stock!.broker_id, account_id: stock!.account_id },
      },
    });
    assertEnvelope(both, 400, /account/);
    assertEnvelope(await json({ method: 'POST', url: '/api/v1/auth/default_account', payload: {} }), 400);
    const extra = await json({
      method: 'POST',
      url: '/api/v1/auth/default_account',
      payload: { broker_id: stock!.broker_id, account_id: stock!.account_id, nickname: 'x' },
    });
    assertEnvelope(extra, 422);
    assert.deepEqual(
      (extra.body.details as Json[]).map((d) => d.loc),
      [['body', 'nickname']],
    );
  });

  test('GET /api/v1/auth/usage: remaining is the limit minus what was used', async () => {
    const { status, body } = await json({ method: 'GET', url: '/api/v1/auth/usage' });
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body).sort(), ['bytes', 'connections', 'limit_bytes', 'remaining_bytes']);
    for (const value of Object.values(body)) assert.ok(Number.isInteger(value) && (value as number) >= 0);
    assert.equal(body.remaining_bytes, (body.limit_bytes as number) - (body.bytes as number));
    // the lowest tier of the spec: 500 MB a day
    assert.equal(body.limit_bytes, 500 * 1024 * 1024);
    assert.ok((body.connections as number) >= 1 && (body.connections as number) <= 5);
  });
});
