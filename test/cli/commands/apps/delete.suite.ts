import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { appsGateway } from './gateway.js';

const gateway = appsGateway();
const { sjgate, served, folderWith } = gateway;

describe('sjgate apps delete', () => {
  before(async () => {
    for (const name of ['small']) {
      const run = await sjgate('apps', 'upload', '--name', name, '--dir', folderWith(name, { 'index.html': name }));
      assert.equal(run.code, 0, run.stderr);
    }
  });

  test('delete removes the app; deleting it again is an error from the gateway', async () => {
    const run = await sjgate('apps', 'delete', '--name', 'small');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'Deleted app small\n');
    assert.equal((await served('/apps/small/')).status, 404);
    const again = await sjgate('--format', 'json', 'apps', 'delete', '--name', 'small');
    assert.equal(again.code, 1);
    assert.deepEqual(JSON.parse(again.stdout), {
      code: 404,
      error: 'APP_NOT_FOUND',
      message: "no app 'small' is uploaded; GET /api/v1/apps lists the apps",
      details: null,
    });
    assert.match(again.stderr, /^error: no app 'small' is uploaded/);
  });
});
