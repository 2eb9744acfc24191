// The daemon's side of the bridge protocol, against a stand-in sidecar that misbehaves on request: every way a start
// or a call can fail ends in a clear error, never a hang.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BridgeError, Sidecar, type SidecarEvent } from '../../../src/broker/shioaji/sidecar.js';
import { domainErrorOf } from '../../../src/broker/shioaji/upstream.js';
import type { DomainError } from '../../../src/domain/errors.js';

const FAKE = fileURLToPath(new URL('./fake-bridge.mjs', import.meta.url));

function start(mode: string, events: SidecarEvent[] = [], exits: string[] = [], python = FAKE) {
  const logged: string[] = [];
  const sidecar = Sidecar.start({
    python,
    env: { FAKE_BRIDGE_MODE: mode },
    onEvent: (event) => events.push(event),
    onExit: (reason) => exits.push(reason),
    log: (line) => logged.push(line),
  });
  return { sidecar, logged };
}

const failsWith = (kind: string, pattern: RegExp) => (error: unknown) =>
  error instanceof BridgeError && error.kind === kind && pattern.test(error.message);

describe('the bridge sidecar', () => {
  test('says hello, answers calls by id, and pushes events', async () => {
    const events: SidecarEvent[] = [];
    const sidecar = await start('normal', events).sidecar;
    try {
      assert.equal(sidecar.hello.sdk, '1.7.9');
      const [a, b] = await Promise.all([sidecar.call('echo', { n: 1 }), sidecar.call('echo', { n: 2 })]);
      assert.deepEqual([a, b], [{ n: 1 }, { n: 2 }]);
      await sidecar.call('quote');
      assert.deepEqual(events, [{ event: 'quote', data: { name: 'tick_stk', data: { code: '2330' } } }]);
      await assert.rejects(sidecar.call('nope'), failsWith('protocol', /unknown method nope/));
    } finally {
      await sidecar.close();
    }
    assert.equal(sidecar.alive, false);
  });

  test('a sidecar of another protocol version is refused with the command that fixes it', async () => {
    await assert.rejects(
      start('other-protocol').sidecar,
      (error: unknown) =>
        error instanceof BridgeError &&
        /speaks protocol 2, this sjgate speaks 1/.test(error.message) &&
        /sjgate setup production/.test(error.hint ?? ''),
    );
  });

  test('an interpreter that cannot run, or a bridge that dies before its hello, fails the start at once', async () => {
    await assert.rejects(start('normal', [], [], '/nonexistent/python3').sidecar, failsWith('start', /cannot run/));
    const { sidecar, logged } = start('exit-before-hello');
    await assert.rejects(sidecar, failsWith('start', /exited with code 1 before its hello/));
    assert.ok(
      logged.some((line) => line.includes('No module named sjgate_bridge')),
      'its stderr reaches the log',
    );
  });

  test('a call that SinoPac never answers times out; a sidecar that dies fails its pending calls', async () => {
    const exits: string[] = [];
    const sidecar = await start('normal', [], exits).sidecar;
    await assert.rejects(sidecar.call('hang', {}, 200), failsWith('timeout', /did not answer hang within 200 ms/));
    const pending = sidecar.call('hang', {}, 10_000);
    await assert.rejects(
      Promise.all([pending, sidecar.call('die')]),
      failsWith('exited', /exited with code 3 before answering/),
    );
    await assert.rejects(sidecar.call('ping'), failsWith('exited', /exited with code 3/));
    assert.deepEqual(exits, ['exited with code 3']);
  });
});

describe('what a bridge error means to a client', () => {
  test("only a request the sidecar found wrong is the client's to change; SinoPac's failures are 503", () => {
    const kindOf = (kind: string) =>
      (domainErrorOf(new BridgeError({ kind, message: 'x' }), 'ORDER_NOT_FOUND') as DomainError).kind;
    assert.deepEqual(
      ['invalid', 'not_found', 'timeout', 'protocol', 'sdk', 'login', 'ca', 'connection', 'unavailable', 'closed'].map(
        kindOf,
      ),
      [
        'INVALID_REQUEST',
        'ORDER_NOT_FOUND',
        'UPSTREAM_TIMEOUT',
        'INTERNAL',
        'UPSTREAM_UNAVAILABLE',
        'UPSTREAM_UNAVAILABLE',
        'UPSTREAM_UNAVAILABLE',
        'UPSTREAM_UNAVAILABLE',
        'UPSTREAM_UNAVAILABLE',
        'UPSTREAM_UNAVAILABLE',
      ],
    );
  });
});
