// The official server's upstream fields in simulation: a daily maintenance at 08:22 Taiwan time on the simulated
// clock that clients can watch for, a token it renews, a certificate valid to the end of the next year; and
// GET /auth/ca_expiretime for the accounts' person.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { ManualClock } from '../../src/domain/time.js';
import { taipeiInstant } from '../../src/domain/time.js';
import { MONDAY_MORNING, testApp } from '../helpers/app.js';

let app: FastifyInstance;
let clock: ManualClock;
before(async () => {
  ({ app, clock } = await testApp(MONDAY_MORNING));
});
after(() => app.close());

const get = async (url: string) => {
  const response = await app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};

describe('upstream fields of /health in simulation', () => {
  test('the maintenance moves with the simulated clock; the token is renewed by it', async () => {
    const first = (await get('/api/v1/health')).body;
    assert.equal(first.last_maintenance, null, 'none since the start (Monday 10:00)');
    assert.equal(first.next_maintenance, new Date(taipeiInstant('2026-11-24', '08:22')).toISOString());
    assert.equal(first.token_expires_in_seconds, 86_400);
    assert.deepEqual([first.token_stale, first.last_maintenance_error, first.ca_expired], [false, null, false]);
    assert.equal(first.ca_expires_in_days, 403, 'to the end of 2027');
    assert.equal(first.upstream, undefined, 'the bridge state is production only');

    clock.set(taipeiInstant('2026-11-24', '09:00'));
    const next = (await get('/api/v1/health')).body;
    assert.equal(next.last_maintenance, new Date(taipeiInstant('2026-11-24', '08:22')).toISOString());
    assert.equal(next.next_maintenance, new Date(taipeiInstant('2026-11-25', '08:22')).toISOString());
    assert.equal(next.token_expires_in_seconds, 86_400 - 38 * 60, 'renewed at 08:22');
  });
});

describe('GET /api/v1/auth/ca_expiretime', () => {
  test("answers for the accounts' person", async () => {
    const accounts = (await app.inject({ method: 'GET', url: '/api/v1/auth/accounts' })).json() as {
      person_id: string;
    }[];
    const personId = accounts[0]!.person_id;
    const { status, body } = await get(`/api/v1/auth/ca_expiretime?person_id=${personId}`);
    assert.equal(status, 200);
    assert.deepEqual(body, { person_id: personId, expire_time: '2027-12-31T23:59:59.000+08:00' });
  });

  test('another person is 404 naming whose the accounts are; no person_id is 422', async () => {
    const other = await get('/api/v1/auth/ca_expiretime?person_id=Z999999999');
    assert.equal(other.status, 404);
    assert.equal(other.body.error, 'ACCOUNT_NOT_FOUND');
    assert.match(String(other.body.message), /no certificate for person Z999999999; the accounts are A\d{9}'s/);
    const missing = await get('/api/v1/auth/ca_expiretime');
    assert.equal(missing.status, 422);
    assert.match(String(missing.body.message), /person_id/);
  });
});
