import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { appsGateway } from './gateway.js';

const gateway = appsGateway();
const { sjgate, folderWith } = gateway;

describe('sjgate apps list', () => {
  before(async () => {
    for (const name of ['files', 'small', 'web']) {
      const run = await sjgate('apps', 'upload', '--name', name, '--dir', folderWith(name, { 'index.html': name }));
      assert.equal(run.code, 0, run.stderr);
    }
  });

  test('list shows names and addresses; json is the API answer', async () => {
    const table = await sjgate('apps', 'list');
    assert.equal(table.code, 0, table.stderr);
    for (const name of ['files', 'small', 'web']) {
      assert.ok(table.stdout.includes(`http://127.0.0.1:${gateway.port}/apps/${name}/`), table.stdout);
    }
    assert.match(table.stdout, /name\s.*url/);
    const json = await sjgate('--format', 'json', 'apps', 'list');
    assert.deepEqual(JSON.parse(json.stdout), { apps: ['files', 'small', 'web'] });
  });

  test('--json apps prints the names', async () => {
    const run = await sjgate('apps', 'list', '--json', 'apps');
    assert.deepEqual(JSON.parse(run.stdout), { apps: ['files', 'small', 'web'] });
    const bare = await sjgate('apps', 'list', '--json');
    assert.equal(bare.code, 2);
    assert.equal(bare.stderr, 'error: specify one or more comma-separated fields for --json:\n  apps\n');
  });
});
