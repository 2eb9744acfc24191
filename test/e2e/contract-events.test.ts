// Contract refresh events through the real daemon: the SSE stream and `sjgate contracts watch`.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { type RunningGateway, startGateway } from '../../src/server/main.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const homes: string[] = [];
const gateways: RunningGateway[] = [];
after(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** A simulated clock that reaches the 14:45 refresh of an expiry day about two seconds from now. */
function justBeforeTheRoll(): string {
  const start = new Date(Date.parse('2026-12-16T06:45:00Z') - 2000);
  return start.toISOString();
}

async function gatewayBeforeTheRoll(): Promise<RunningGateway> {
  const home = mkdtempSync(join(tmpdir(), 'sjgate-events-'));
  homes.push(home);
  const gateway = await startGateway(
    loadConfig({ SJ_HOME_PATH: home, SJ_HTTP_ADDR: '127.0.0.1:0', SJ_SIM_START: justBeforeTheRoll() }),
    () => undefined,
  );
  gateways.push(gateway);
  return gateway;
}

const status = async (port: number) =>
  (await (await fetch(`http://127.0.0.1:${port}/api/v1/stream/status`)).json()) as { active_connections: number };

test('the contract_event stream delivers the roll, filtered by security type, and counts its clients', async () => {
  const gateway = await gatewayBeforeTheRoll();
  const text = await new Promise<string>((resolve, reject) => {
    const req = get(
      `http://127.0.0.1:${gateway.port}/api/v1/stream/data/contract_event?security_type=FUT`,
      { headers: { accept: 'text/event-stream' } },
      (res) => {
        assert.equal(res.statusCode, 200);
        assert.match(res.headers['content-type'] ?? '', /^text\/event-stream/);
        let received = '';
        res.setEncoding('utf8');
        res.on('data', async (chunk: string) => {
          received += chunk;
          if (received.includes('event: contract_event')) {
            assert.equal((await status(gateway.port)).active_connections, 1);
            req.destroy();
            resolve(received);
          }
        });
      },
    );
    req.on('error', reject);
  });
  const frame = /id: (\d+)\nevent: contract_event\ndata: (.*)\n\n/.exec(text);
  assert.ok(frame, text);
  const event = JSON.parse(frame[2]!);
  assert.equal(event.security_type, 'FUT', 'only the requested type arrives');
  assert.equal(event.base_changed, true);
  assert.equal(String(event.event_id), frame[1]);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal((await status(gateway.port)).active_connections, 0, 'the count goes back down');
});

test('a bad security_type on the stream is a 422 envelope', async () => {
  const gateway = gateways[0] ?? (await gatewayBeforeTheRoll());
  const response = await fetch(`http://127.0.0.1:${gateway.port}/api/v1/stream/data/contract_event?security_type=X`);
  assert.equal(response.status, 422);
  assert.equal(((await response.json()) as { code: number }).code, 422);
});

test('sjgate contracts watch prints each event as a JSON line and exits 0 on Ctrl+C', async () => {
  const gateway = await gatewayBeforeTheRoll();
  const env = { ...process.env, SJ_HOME_PATH: homes.at(-1), SJ_HTTP_ADDR: `127.0.0.1:${gateway.port}` };
  const child = spawn(process.execPath, [CLI, 'contracts', 'watch', '--type', 'OPT', '--format', 'json'], { env });
  let stdout = '';
  child.stdout.setEncoding('utf8');
  const firstLine = new Promise<string>((resolve) => {
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
    });
  });
  const line = await firstLine;
  child.kill('SIGINT');
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const event = JSON.parse(line);
  assert.equal(event.security_type, 'OPT');
  assert.equal(event.action, 'CHECK');
  assert.equal(event.base_changed, true);
  assert.equal(code, 0);
});
