// Contract refresh events through the real daemon: the SSE stream and `sjgate contracts watch`. The gateway runs on a
// manual clock held before the 14:45 roll of an expiry day; each test connects its client first and only then moves
// the clock to the roll, so no client can miss it however slow the machine.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../src/config.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { type RunningGateway, startGateway } from '../../src/server/main.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
/** The 14:45 refresh of an expiry day (the third Wednesday of December 2026): the derivatives roll. */
const ROLL = taipeiInstant('2026-12-16', '14:45');
const LIMIT = { timeout: 20_000 };

const homes: string[] = [];
const gateways: RunningGateway[] = [];
after(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** A gateway whose simulated clock stands a minute before the roll until the test moves it. */
async function gatewayBeforeTheRoll() {
  const home = mkdtempSync(join(tmpdir(), 'sjgate-events-'));
  homes.push(home);
  const clock = new ManualClock(ROLL - 60_000);
  const gateway = await startGateway(loadConfig({ SJ_HOME_PATH: home, SJ_HTTP_ADDR: '127.0.0.1:0' }), () => undefined, {
    clock,
  });
  gateways.push(gateway);
  return { gateway, clock, home };
}

const status = async (port: number) =>
  (await (await fetch(`http://127.0.0.1:${port}/api/v1/stream/status`)).json()) as { active_connections: number };

/** Waits (within the test's time limit) until the gateway counts this many open streams. */
async function untilConnections(port: number, count: number): Promise<void> {
  while ((await status(port)).active_connections !== count) await sleep(20);
}

test(
  'the contract_event stream delivers the roll, filtered by security type, and counts its clients',
  LIMIT,
  async () => {
    const { gateway, clock } = await gatewayBeforeTheRoll();
    const url = `http://127.0.0.1:${gateway.port}/api/v1/stream/data/contract_event?security_type=FUT`;
    let response!: IncomingMessage;
    const req = get(url, { headers: { accept: 'text/event-stream' } });
    await new Promise<void>((resolve, reject) => {
      req.on('response', (res) => {
        response = res;
        resolve();
      });
      req.on('error', reject);
    });
    assert.equal(response.statusCode, 200);
    assert.match(response.headers['content-type'] ?? '', /^text\/event-stream/);
    let received = '';
    response.setEncoding('utf8');
    const rolled = new Promise<void>((resolve) => {
      response.on('data', (chunk: string) => {
        received += chunk;
        if (received.includes('event: contract_event')) resolve();
      });
    });
    assert.equal((await status(gateway.port)).active_connections, 1);
    assert.doesNotMatch(received, /contract_event/, 'nothing before 14:45');

    clock.set(ROLL);
    await rolled;
    req.destroy();
    // STK and IND are published before FUT at each refresh: the first frame is FUT only if the filter works.
    const frame = /id: (\d+)\nevent: contract_event\ndata: (.*)\n\n/.exec(received);
    assert.ok(frame, received);
    const event = JSON.parse(frame[2]!);
    assert.equal(event.security_type, 'FUT', 'only the requested type arrives');
    assert.equal(event.base_changed, true);
    assert.equal(event.published_at, new Date(ROLL).toISOString());
    assert.equal(String(event.event_id), frame[1]);
    await untilConnections(gateway.port, 0); // the count goes back down
  },
);

test('a bad security_type on the stream is a 422 envelope', LIMIT, async () => {
  const gateway = gateways[0] ?? (await gatewayBeforeTheRoll()).gateway;
  const response = await fetch(`http://127.0.0.1:${gateway.port}/api/v1/stream/data/contract_event?security_type=X`);
  assert.equal(response.status, 422);
  assert.equal(((await response.json()) as { code: number }).code, 422);
});

test('sjgate contracts watch prints each event as a JSON line and exits 0 on Ctrl+C', LIMIT, async () => {
  const { gateway, clock, home } = await gatewayBeforeTheRoll();
  const env = { ...process.env, SJ_HOME_PATH: home, SJ_HTTP_ADDR: `127.0.0.1:${gateway.port}` };
  const child = spawn(process.execPath, [CLI, 'contracts', 'watch', '--type', 'OPT', '--format', 'json'], { env });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const firstLine = new Promise<string>((resolve) => {
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
    });
  });
  const endedEarly = exited.then((code) => assert.fail(`the watch ended (${code}) before the roll:\n${stderr}`));
  try {
    await Promise.race([untilConnections(gateway.port, 1), endedEarly]);
    clock.set(ROLL);
    const line = await Promise.race([firstLine, endedEarly]);
    child.kill('SIGINT');
    const code = await exited;
    const event = JSON.parse(line);
    assert.equal(event.security_type, 'OPT');
    assert.equal(event.action, 'CHECK');
    assert.equal(event.base_changed, true);
    assert.equal(code, 0, stderr);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});
