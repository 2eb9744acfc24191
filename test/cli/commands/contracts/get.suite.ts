import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/context.js';
import { envelope, fakeDaemon } from '../../../helpers/cli.js';

const TSMC = { security_type: 'STK', region: 'TW', exchange: 'TSE', code: '2330', target_code: null };

describe('sjgate contracts get against a fake daemon', () => {
  const daemon = fakeDaemon(({ url }) => {
    if (url === '/api/v1/data/contracts/2330/info') {
      return [200, { ...TSMC, name: '台積電', reference: 1000, limit_up: 1100, limit_down: 900 }];
    }
    if (url === '/api/v1/data/snapshots') {
      return [200, [{ code: '2330', close: 1005, change_price: 5, datetime: '2026-11-23T10:00:00' }]];
    }
    return url.startsWith('/api/v1/data/contracts/2330')
      ? [200, TSMC]
      : envelope('CONTRACT_NOT_FOUND', `${url.split('/').pop()} is not a listed contract`);
  });
  const { seen, sjgate } = daemon;
  before(() => daemon.start());
  after(() => daemon.stop());

  test('prints the contract with its name, limits and last price as key/value lines; --format json as the API sent it', async () => {
    const run = await sjgate('contracts', 'get', '2330', '--type', 'STK');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(seen[0], { method: 'GET', url: '/api/v1/data/contracts/2330?security_type=STK', body: null });
    assert.deepEqual(seen[2]?.body, { contracts: [{ security_type: 'STK', exchange: 'TSE', code: '2330' }] });
    assert.match(run.stdout, /^security_type\s+STK\n/);
    assert.match(
      run.stdout,
      /\ntarget_code +-\nname +台積電\nreference +1000\nlimit_up +1100\nlimit_down +900\nlast +1005\nchange +5\nat +2026-11-23T10:00:00\n$/,
    );
    const json = await sjgate('--format', 'json', 'contracts', 'get', '2330');
    assert.deepEqual(JSON.parse(json.stdout), TSMC);
    assert.equal(seen.length, 1);
  });

  test("--exchange, the official CLI's flag, asks for the contract listed there; an unknown one is exit 2", async () => {
    const run = await sjgate('contracts', 'get', '2330', '--exchange', 'OTC');
    assert.deepEqual(seen.slice(0, 1), [
      { method: 'GET', url: '/api/v1/data/contracts/2330?exchange=OTC', body: null },
    ]);
    assert.equal(run.code, EXIT.ok, run.stderr);
    const bad = await sjgate('contracts', 'get', '2330', '--exchange', 'NYSE');
    assert.equal(bad.code, EXIT.usage);
    assert.match(bad.stderr, /TSE, OTC, OES, TAIFEX/);
  });

  test('--json FIELDS prints only those fields, after the command or before it', async () => {
    const run = await sjgate('contracts', 'get', '2330', '--json', 'code,exchange');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.equal(run.stdout, '{\n  "code": "2330",\n  "exchange": "TSE"\n}\n');
    const before = await sjgate('--json', 'target_code', 'contracts', 'get', '2330');
    assert.deepEqual(JSON.parse(before.stdout), { target_code: null });
  });

  test('--json alone or a field the contract does not have is exit 2, listing its fields', async () => {
    const bare = await sjgate('contracts', 'get', '2330', '--json');
    assert.equal(bare.code, EXIT.usage);
    assert.equal(bare.stdout, '');
    assert.equal(
      bare.stderr,
      'error: specify one or more comma-separated fields for --json:\n' +
        '  security_type\n  region\n  exchange\n  code\n  target_code\n',
    );
    const wrong = await sjgate('contracts', 'get', '2330', '--json', 'code,name');
    assert.equal(wrong.code, EXIT.usage);
    assert.equal(wrong.stdout, '');
    assert.match(wrong.stderr, /^error: unknown JSON field: "name"\navailable fields:\n {2}security_type\n/);
  });

  test('an API error with --json prints the error envelope and exits 1', async () => {
    const run = await sjgate('contracts', 'get', 'NOPE', '--json', 'code');
    assert.equal(run.code, EXIT.error);
    assert.equal(JSON.parse(run.stdout).error, 'CONTRACT_NOT_FOUND');
    assert.match(run.stderr, /^error: NOPE is not a listed contract/);
  });
});
