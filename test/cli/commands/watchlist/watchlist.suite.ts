import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/context.js';
import { envelope, fakeDaemon, type Seen } from '../../../helpers/cli.js';

const contract = (code: string, security_type = 'STK', exchange = 'TSE') => ({
  security_type,
  region: 'TW',
  exchange,
  code,
  target_code: null,
});
const TECH = {
  id: 'wl-1',
  person_id: 'A123456789',
  name: 'tech',
  contracts: [contract('2330'), contract('TXFR1', 'FUT', 'TAIFEX')],
};
const EMPTY = { id: 'wl-2', person_id: 'A123456789', name: 'empty', contracts: [] };

/** The fake daemon answers wl-1 (and the list of both); any other id is WATCHLIST_NOT_FOUND. */
function answer({ method, url }: Seen): [number, unknown] {
  if (url === '/api/v1/watchlist') return method === 'GET' ? [200, [TECH, EMPTY]] : [200, TECH];
  if (url.startsWith('/api/v1/watchlist/wl-1')) return [200, TECH];
  return envelope('WATCHLIST_NOT_FOUND', `watchlist ${decodeURIComponent(url.split('/')[4] ?? '')} not found`);
}

describe('sjgate watchlist against a fake daemon', () => {
  const daemon = fakeDaemon(answer);
  const { seen, sjgate } = daemon;
  before(() => daemon.start());
  after(() => daemon.stop());

  test('list prints a row per list; --json as the API sent it', async () => {
    const run = await sjgate('watchlist', 'list');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(seen, [{ method: 'GET', url: '/api/v1/watchlist', body: null }]);
    assert.match(run.stdout, /wl-1\s.*tech\s.*2\s.*2330 TXFR1/);
    assert.match(run.stdout, /wl-2\s.*empty\s.*0/);
    const json = await sjgate('watchlist', 'list', '--json', 'id,name');
    assert.deepEqual(JSON.parse(json.stdout), [
      { id: 'wl-1', name: 'tech' },
      { id: 'wl-2', name: 'empty' },
    ]);
  });

  test('create sends the name and the codes in order', async () => {
    const run = await sjgate('watchlist', 'create', 'tech', '2330', 'TXFR1');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(seen, [
      {
        method: 'POST',
        url: '/api/v1/watchlist',
        body: { name: 'tech', contracts: [{ code: '2330' }, { code: 'TXFR1' }] },
      },
    ]);
    assert.match(run.stdout, /^wl-1 {2}tech {2}\(2 contracts\)\n/);
    assert.match(run.stdout, /FUT\s.*TAIFEX\s.*TXFR1/);
    const bare = await sjgate('watchlist', 'create', 'empty');
    assert.equal(bare.code, EXIT.ok, bare.stderr);
    assert.deepEqual(seen[0]?.body, { name: 'empty', contracts: [] });
  });

  test('show, sync, add, remove and delete send their method, path and body', async () => {
    const cases: [string[], Seen][] = [
      [['show', 'wl-1'], { method: 'GET', url: '/api/v1/watchlist/wl-1', body: null }],
      [
        ['sync', 'wl-1', '2330', 'TXFR1'],
        {
          method: 'PUT',
          url: '/api/v1/watchlist/wl-1',
          body: { contracts: [{ code: '2330' }, { code: 'TXFR1' }] },
        },
      ],
      [['sync', 'wl-1'], { method: 'PUT', url: '/api/v1/watchlist/wl-1', body: { contracts: [] } }],
      [
        ['add', 'wl-1', '2454'],
        {
          method: 'POST',
          url: '/api/v1/watchlist/wl-1/contracts',
          body: { contracts: [{ code: '2454' }] },
        },
      ],
      [
        ['remove', 'wl-1', '2454', '2317'],
        {
          method: 'DELETE',
          url: '/api/v1/watchlist/wl-1/contracts',
          body: { contracts: [{ code: '2454' }, { code: '2317' }] },
        },
      ],
      [['delete', 'wl-1'], { method: 'DELETE', url: '/api/v1/watchlist/wl-1', body: null }],
    ];
    for (const [args, request] of cases) {
      const run = await sjgate('watchlist', ...args);
      assert.equal(run.code, EXIT.ok, `${args.join(' ')}: ${run.stderr}`);
      assert.deepEqual(seen, [request], args.join(' '));
    }
    const shown = await sjgate('watchlist', 'show', 'wl-1');
    assert.match(shown.stdout, /^wl-1 {2}tech {2}\(2 contracts\)\n/);
    const deleted = await sjgate('watchlist', 'delete', 'wl-1');
    assert.equal(deleted.stdout, 'Deleted watchlist wl-1 (tech)\n');
    const json = await sjgate('watchlist', 'add', 'wl-1', '2454', '--json', 'id,contracts');
    assert.deepEqual(JSON.parse(json.stdout), { id: 'wl-1', contracts: TECH.contracts });
  });

  test("the official CLI's flags: --name, --id, --codes A,B and --security-type, as the arguments would", async () => {
    const sent: unknown[] = [];
    for (const args of [
      ['create', '--name', 'tech', '--codes', '2330, TXFR1'],
      ['add', '--id', 'wl-1', '--codes', '2454', '--security-type', 'STK'],
      ['show', '--id', 'wl-1'],
      ['sync', '--id', 'wl-1'],
      ['delete', '--id', 'wl-1'],
    ]) {
      const run = await sjgate('watchlist', ...args);
      assert.equal(run.code, EXIT.ok, `${args.join(' ')}: ${run.stderr}`);
      sent.push(...seen.map(({ method, url, body }) => [method, url, body]));
    }
    assert.deepEqual(sent, [
      ['POST', '/api/v1/watchlist', { name: 'tech', contracts: [{ code: '2330' }, { code: 'TXFR1' }] }],
      ['POST', '/api/v1/watchlist/wl-1/contracts', { contracts: [{ code: '2454', security_type: 'STK' }] }],
      ['GET', '/api/v1/watchlist/wl-1', null],
      ['PUT', '/api/v1/watchlist/wl-1', { contracts: [] }],
      ['DELETE', '/api/v1/watchlist/wl-1', null],
    ]);
  });

  test("an unknown id is the gateway's error, exit 1; missing arguments and a wrong --json field are exit 2", async () => {
    const run = await sjgate('watchlist', 'show', 'wl-9');
    assert.equal(run.code, EXIT.error);
    assert.equal(run.stderr, 'error: watchlist wl-9 not found\n');
    const json = await sjgate('--format', 'json', 'watchlist', 'delete', 'wl-9');
    assert.equal(JSON.parse(json.stdout).error, 'WATCHLIST_NOT_FOUND');

    for (const args of [['add', 'wl-1'], ['remove', 'wl-1'], ['create'], ['show']]) {
      const usage = await sjgate('watchlist', ...args);
      assert.equal(usage.code, EXIT.usage, args.join(' '));
      assert.match(usage.stderr, /give the (id|name)|name the contracts to (add|remove), as arguments or --codes/);
    }
    const twice = await sjgate('watchlist', 'show', 'wl-1', '--id', 'wl-2');
    assert.equal(twice.code, EXIT.usage);
    assert.match(twice.stderr, /the id is given twice, as wl-1 and as --id wl-2/);
    const badType = await sjgate('watchlist', 'add', '--id', 'wl-1', '--codes', '2330', '--security-type', 'XYZ');
    assert.equal(badType.code, EXIT.usage);
    assert.equal(seen.length, 0, 'nothing sent');
    const wrong = await sjgate('watchlist', 'show', 'wl-1', '--json', 'nope');
    assert.equal(wrong.code, EXIT.usage);
    assert.match(wrong.stderr, /unknown JSON field: "nope"/);
    assert.equal(seen.length, 0, 'a wrong field is refused before the request');
  });
});
