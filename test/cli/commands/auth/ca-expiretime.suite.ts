// `sjgate auth ca-expiretime` against the gateway: the official CLI's command, its --person-id optional here.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sjgate, streamingGateway } from '../../streaming.js';

describe('sjgate auth ca-expiretime', () => {
  const streaming = streamingGateway();

  test("without --person-id it asks for the logged-in person's certificate", async () => {
    const run = await sjgate(streaming.port, ['auth', 'ca-expiretime']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^person_id\s+[A-Z]\d{9}$/m);
    assert.match(run.stdout, /^expire_time\s+\d{4}-\d\d-\d\dT/m);
  });

  test('with --person-id, as JSON', async () => {
    const accounts = await sjgate(streaming.port, ['--format', 'json', 'auth', 'accounts']);
    const [account] = JSON.parse(accounts.stdout) as { person_id: string }[];
    const run = await sjgate(streaming.port, [
      '--format',
      'json',
      'auth',
      'ca-expiretime',
      '--person-id',
      account!.person_id,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const answer = JSON.parse(run.stdout) as { person_id: string; expire_time: string };
    assert.equal(answer.person_id, account!.person_id);
    assert.ok(!Number.isNaN(Date.parse(answer.expire_time)), answer.expire_time);
  });

  test('a person nobody is logged in as is the 404 with its message, and a non-zero exit', async () => {
    const run = await sjgate(streaming.port, ['auth', 'ca-expiretime', '--person-id', 'Z999999999']);
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /Z999999999/);
  });
});
