// The real daemon on a disk that fills up: its data home (journal and log) is a small tmpfs in a private mount
// namespace (`unshare -Urm`, no root needed), filled to the last byte while the daemon runs. Orders that cannot be
// journaled answer 507 with the envelope and leave nothing behind (a retry under the same Idempotency-Key is not a
// second order), reads keep working, the log on the same full disk does not crash the daemon, and once space is
// freed the retry places exactly one order, which survives a SIGKILL and a restart.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { builtCli, simulatorEnv } from '../helpers/daemon.js';
import { freePort } from '../helpers/net.js';

const TMPFS_SIZE = '6m';
const WAIT_MS = 20_000;
/** More failed writes than the six after which the log's ENOSPC once crashed the daemon. */
const FAILURES_WANTED = 8;

const root = mkdtempSync(join(tmpdir(), 'sjgate-disk-full-'));
const home = join(root, 'home');
const control = join(root, 'control');
mkdirSync(home);
mkdirSync(control);
let shell: ChildProcess | undefined;
after(() => {
  if (shell?.pid !== undefined && shell.exitCode === null) process.kill(-shell.pid, 'SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

const namespacesWork = spawnSync('unshare', ['-Urm', 'true']).status === 0;

/**
 * Inside the namespace: mount the tmpfs on the home, run the daemon (again after a kill, while `again` exists),
 * and fill or free the disk when the test drops a `fill` or `free` file into the control folder.
 */
const SCRIPT = `
set -u
mount -t tmpfs -o size=${TMPFS_SIZE} sjgate-disk "$H" || exit 97
( while :; do
    if [ -e "$C/fill" ]; then rm "$C/fill"; dd if=/dev/zero of="$H/filler" bs=64k 2>/dev/null; touch "$C/filled"; fi
    if [ -e "$C/free" ]; then rm "$C/free"; rm -f "$H/filler"; touch "$C/freed"; fi
    sleep 0.05
  done ) &
while :; do
  "$NODE" "$CLI" server start --foreground >>"$H/daemon.log" 2>&1 &
  echo $! > "$C/pid.tmp"; mv "$C/pid.tmp" "$C/pid"
  wait $!
  echo "daemon exited ($?)" >&2; tail -n 30 "$H/daemon.log" >&2
  [ -e "$C/again" ] || exit 0
  rm "$C/again"
done
`;

function startShell(port: number): { output: () => string } {
  const env = simulatorEnv(home, port, { H: home, C: control, NODE: process.execPath, CLI: builtCli() });
  shell = spawn('unshare', ['-Urm', 'sh', '-c', SCRIPT], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  shell.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  shell.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  return { output: () => output };
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, context = () => '') {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`${what}: not within ${WAIT_MS} ms\n${context()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Answer {
  status: number;
  body: Record<string, unknown> & { status?: { status: string }; order?: { id: string } };
}

async function call(port: number, method: string, path: string, body?: unknown, key?: string): Promise<Answer> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  if (key !== undefined) headers['idempotency-key'] = key;
  const init: RequestInit = { method, headers, signal: AbortSignal.timeout(10_000) };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await fetch(`http://127.0.0.1:${port}${path}`, init);
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const ORDER = {
  contract: { code: 'TXFR1' },
  futures_order: { action: 'Buy', price: 0, quantity: 1, price_type: 'MKT', order_type: 'IOC' },
};

const place = (port: number, key: string) => call(port, 'POST', '/api/v1/order/place_order', ORDER, key);

async function tradeIds(port: number): Promise<string[]> {
  const answer = await call(port, 'POST', '/api/v1/order/trades', {});
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return (answer.body as unknown as { order: { id: string } }[]).map((trade) => trade.order.id).sort();
}

async function signal(name: string, done: string, context: () => string): Promise<void> {
  writeFileSync(join(control, name), '');
  await until(`the namespace to ${name} the disk`, () => (existsSync(join(control, done)) ? true : undefined), context);
  rmSync(join(control, done));
}

const daemonPid = () => Number(readFileSync(join(control, 'pid'), 'utf8'));

async function healthy(port: number, context: () => string): Promise<void> {
  await until(
    'the daemon to be healthy',
    async () => ((await call(port, 'GET', '/api/v1/health').catch(() => null))?.status === 200 ? true : undefined),
    context,
  );
}

test('a full disk: 507 and nothing kept, reads and the daemon live on, the retry after freeing places one order', {
  timeout: 120_000,
  skip: namespacesWork ? false : 'unshare -Urm (user and mount namespaces) is not available here',
}, async () => {
  const port = await freePort();
  const { output } = startShell(port);
  await healthy(port, output);
  const acknowledged: string[] = [];
  for (const key of ['before-1', 'before-2']) {
    const answer = await place(port, key);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.status?.status, 'Filled');
    acknowledged.push(answer.body.order!.id);
  }

  await signal('fill', 'filled', output);
  const failedKeys: string[] = [];
  for (let i = 0; failedKeys.length < FAILURES_WANTED; i++) {
    assert.ok(i < 400, 'no order failed on the full disk');
    const answer = await place(port, `full-${i}`);
    if (answer.status === 200) {
      acknowledged.push(answer.body.order!.id);
      continue;
    }
    assert.equal(answer.status, 507, JSON.stringify(answer.body));
    assert.equal(answer.body.code, 507);
    assert.equal(answer.body.error, 'DISK_FULL');
    assert.match(String(answer.body.message), /disk .* is full, so nothing of this request was kept/);
    assert.equal(answer.body.details, null);
    failedKeys.push(`full-${i}`);
  }
  const firstFailed = failedKeys[0]!;
  for (let retry = 0; retry < 3; retry++) {
    assert.equal((await place(port, firstFailed)).status, 507, 'the disk is still full');
  }
  assert.deepEqual(await tradeIds(port), [...acknowledged].sort(), 'a failed order is not live in memory');
  const info = await call(port, 'GET', '/api/v1/data/contracts/2330');
  assert.equal(info.status, 200, 'reads keep working');
  assert.equal(info.body.code, '2330');
  const pidOnFullDisk = daemonPid();

  await signal('free', 'freed', output);
  const retried = await place(port, firstFailed);
  assert.equal(retried.status, 200, JSON.stringify(retried.body));
  assert.equal(retried.body.status?.status, 'Filled');
  const again = await place(port, firstFailed);
  assert.equal(again.body.order?.id, retried.body.order?.id, 'the retry is answered with the order it placed');
  acknowledged.push(retried.body.order!.id);
  assert.equal(daemonPid(), pidOnFullDisk, 'the daemon never restarted');
  assert.deepEqual(await tradeIds(port), [...acknowledged].sort());

  writeFileSync(join(control, 'again'), '');
  process.kill(pidOnFullDisk, 'SIGKILL');
  await until('a new daemon', () =>
    existsSync(join(control, 'pid')) && daemonPid() !== pidOnFullDisk ? true : undefined,
  );
  await healthy(port, output);
  assert.deepEqual(await tradeIds(port), [...acknowledged].sort(), 'after a restart: every acknowledged order, once');
});
