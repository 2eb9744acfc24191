// The supervised SinoPac session over the real sidecar and the scripted SinoPac: a session that falls silent while
// quotes are expected is replaced; a login budget spent keeps it down with the reason; close ends the sidecar.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BridgeSession, type SessionOptions } from '../../../src/broker/shioaji/session.js';
import { ManualClock, TAIPEI_OFFSET_MS } from '../../../src/domain/time.js';
import { BRIDGE_PYTHON, eventually, KEYS, productionSkip } from '../../helpers/production.js';

const FAKE = fileURLToPath(new URL('./fake-bridge.mjs', import.meta.url));

const skip = productionSkip();
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function scenarioEnv(scenario: Record<string, unknown>): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'sjgate-session-'));
  dirs.push(dir);
  const path = join(dir, 'scenario.json');
  writeFileSync(path, JSON.stringify({ state_path: join(dir, 'sinopac.json'), ...scenario }));
  return { SJGATE_BRIDGE_SCRIPT: path };
}

function options(scenario: Record<string, unknown>, extra: Partial<SessionOptions> = {}): SessionOptions {
  return {
    python: BRIDGE_PYTHON,
    env: scenarioEnv(scenario),
    credentials: { apiKey: KEYS.SJ_API_KEY, secretKey: KEYS.SJ_SEC_KEY },
    ca: null,
    simulation: true,
    log: () => undefined,
    backoffMs: { first: 100, last: 400 },
    maintenanceAt: null,
    ...extra,
  };
}

describe('the SinoPac session', { skip }, () => {
  test('a session that falls silent while quotes are expected is replaced, and quotes come back', async () => {
    const lines: string[] = [];
    const session = await BridgeSession.open(
      options(
        { quotes: { interval_ms: 20 }, silent_after_ms: 300 },
        { silentAfterMs: 500, expectQuotes: () => true, log: (line) => lines.push(line) },
      ),
    );
    let quotes = 0;
    session.onEvent((event) => {
      if (event.event === 'quote') quotes++;
    });
    session.onReconnected(() => session.call('subscribe', stream));
    const stream = { security_type: 'STK', exchange: 'TSE', code: '2330', quote_type: 'Tick', intraday_odd: false };
    try {
      await session.call('subscribe', stream);
      const firstPid = session.upstream().sidecar_pid;
      const state = await eventually(
        async () => session.upstream(),
        (u) => u.silent_recoveries === 1 && u.status === 'connected' && u.sidecar_pid !== firstPid,
        20_000,
      );
      assert.equal(state.restarts, 1);
      assert.ok(
        lines.some((line) => /no quote for 0.5 s while subscribed and the market is open/.test(line)),
        lines.join('\n'),
      );
      const before = quotes;
      await eventually(
        async () => quotes,
        (n) => n >= before + 3,
        5_000,
      );
    } finally {
      await session.close();
    }
    assert.equal(session.upstream().status, 'closed');
  });

  test('the daily maintenance renews the session at its time and says when the next one is', async () => {
    // The session's clock stands still at a real instant (SinoPac's receive window) until the test moves it past the
    // maintenance: however long the sidecar takes to start, the maintenance is still a second ahead.
    const clock = new ManualClock(Math.ceil(Date.now() / 1000) * 1000);
    const planned = clock.now() + 1_000;
    const at = new Date(planned + TAIPEI_OFFSET_MS).toISOString().slice(11, 19);
    const session = await BridgeSession.open(
      options({ quotes: { interval_ms: 20 } }, { maintenanceAt: at, now: () => clock.now() }),
    );
    try {
      const firstPid = session.upstream().sidecar_pid;
      assert.equal(session.upstream().next_maintenance, new Date(planned).toISOString());
      clock.advance(planned + 1 - clock.now());
      const state = await eventually(
        async () => session.upstream(),
        (u) => u.last_maintenance !== null && u.status === 'connected' && u.sidecar_pid !== firstPid,
        30_000,
      );
      assert.equal(state.last_maintenance_error, null);
      assert.equal(state.next_maintenance, new Date(planned + 86_400_000).toISOString(), 'the next one a day later');
    } finally {
      await session.close();
    }
  });

  test('past the day’s login budget the session stays down and says why', async () => {
    const session = await BridgeSession.open(options({ session_down_after_ms: 200 }, { maxLoginsPerDay: 1 }));
    try {
      const state = await eventually(
        async () => session.upstream(),
        (u) => u.status === 'down',
        10_000,
      );
      assert.match(String(state.last_error), /1 logins today already; the session stays down until tomorrow/);
      assert.equal(state.session_drops, 1);
      await assert.rejects(session.call('accounts'), /the SinoPac session is down/);
    } finally {
      await session.close();
    }
  });
});

describe('the SDK the sidecar brings', () => {
  const openWith = (mode: string) =>
    BridgeSession.open({
      python: FAKE,
      env: { FAKE_BRIDGE_MODE: mode },
      credentials: { apiKey: KEYS.SJ_API_KEY, secretKey: KEYS.SJ_SEC_KEY },
      ca: null,
      simulation: true,
      log: () => undefined,
      maintenanceAt: null,
    });

  test('shioaji missing from the interpreter stops the start with the command that installs it', async () => {
    await assert.rejects(openWith('no-sdk'), (error: Error) => {
      assert.match(
        error.message,
        /the official shioaji package cannot be imported by .*fake-bridge\.mjs: No module named 'shioaji'/,
      );
      assert.match(error.message, /fix: run `sjgate setup production`/);
      return true;
    });
  });

  test('an SDK older than the 1.7 line is refused, naming its version', async () => {
    await assert.rejects(openWith('old-sdk'), /shioaji 1\.2\.5 at .* is too old: this sjgate drives the 1\.7 line/);
  });
});

describe('a sidecar that stops answering', () => {
  test('three calls in a row without an answer replace it with a new one', async () => {
    const lines: string[] = [];
    const session = await BridgeSession.open({
      python: FAKE,
      env: { FAKE_BRIDGE_MODE: 'normal' },
      credentials: { apiKey: KEYS.SJ_API_KEY, secretKey: KEYS.SJ_SEC_KEY },
      ca: null,
      simulation: true,
      log: (line) => lines.push(line),
      backoffMs: { first: 50, last: 200 },
      maintenanceAt: null,
    });
    try {
      const first = session.upstream().sidecar_pid;
      for (let i = 0; i < 2; i++) await assert.rejects(session.call('hang', {}, 100), /did not answer hang/);
      assert.equal(session.upstream().restarts, 0, 'two timeouts may be a slow SinoPac');
      await assert.rejects(session.call('hang', {}, 100), /did not answer hang/);
      const state = await eventually(
        async () => session.upstream(),
        (u) => u.status === 'connected' && u.sidecar_pid !== first,
        5_000,
      );
      assert.equal(state.restarts, 1);
      assert.ok(
        lines.some((line) => /SinoPac answered none of the last 3 calls/.test(line)),
        lines.join('\n'),
      );
      assert.deepEqual(await session.call('ping'), { sdk: '1.7.9' });
    } finally {
      await session.close();
    }
  });
});
