import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { daemonPid, ensureDaemon, processAlive, stopDaemon } from '../../src/cli/daemon.js';
import { type GatewayConfig, loadConfig } from '../../src/config.js';
import { freePort } from '../helpers/net.js';

const runtime = { entry: '/nonexistent/sjgate-should-not-be-started.js', version: '0.0.0-test' };

/** A process that looks like a daemon (`--foreground` in its command line) and exits on SIGTERM. */
function fakeDaemonProcess(): Promise<ChildProcess> {
  const script = "process.on('SIGTERM', () => process.exit(0)); console.log('ready'); setInterval(() => {}, 1000);";
  const child = spawn(process.execPath, ['-e', script, 'server', 'start', '--foreground'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve) => child.stdout?.once('data', () => resolve(child)));
}

describe('daemon control', () => {
  let home: string;
  let config: GatewayConfig;
  const children: ChildProcess[] = [];

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'sjgate-daemon-'));
    config = loadConfig({ SJ_HOME_PATH: home, SJ_HTTP_ADDR: `127.0.0.1:${await freePort()}` });
    mkdirSync(dirname(config.pidPath), { recursive: true });
  });
  after(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(home, { recursive: true, force: true });
  });

  test('processAlive tells a live process from a finished one', async () => {
    assert.equal(processAlive(process.pid), true);
    const child = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(processAlive(child.pid as number), false);
  });

  test('no pid file: no daemon', () => {
    rmSync(config.pidPath, { force: true });
    assert.equal(daemonPid(config), null);
  });

  test('a pid file naming a finished process is stale and removed', async () => {
    const child = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => child.once('exit', resolve));
    writeFileSync(config.pidPath, `${child.pid}\n`);
    assert.equal(daemonPid(config), null);
    assert.equal(existsSync(config.pidPath), false);
  });

  test('a pid file naming a live process that is not a daemon is stale', { skip: process.platform !== 'linux' }, () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    children.push(child);
    writeFileSync(config.pidPath, `${child.pid}\n`);
    assert.equal(daemonPid(config), null);
    child.kill('SIGKILL');
  });

  test('stop: SIGTERM to the daemon of the pid file, then it is gone', async () => {
    const daemon = await fakeDaemonProcess();
    children.push(daemon);
    writeFileSync(config.pidPath, `${daemon.pid}\n`);
    assert.equal(daemonPid(config), daemon.pid);
    const stopped = await stopDaemon(config);
    assert.deepEqual(stopped, { pid: daemon.pid, forced: false });
    assert.equal(processAlive(daemon.pid as number), false);
  });

  test('stop with no daemon reports none', async () => {
    rmSync(config.pidPath, { force: true });
    assert.equal(await stopDaemon(config), null);
  });

  test('start finds a healthy daemon on the socket and starts no other', async () => {
    const daemon = await fakeDaemonProcess();
    children.push(daemon);
    writeFileSync(config.pidPath, `${daemon.pid}\n`);
    mkdirSync(dirname(config.socketPath), { recursive: true });
    const server: Server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.url === '/api/v1/info' ? { simulation: true } : { status: 'healthy' }));
    });
    await new Promise<void>((resolve) => server.listen(config.socketPath, resolve));
    try {
      const { started, info } = await ensureDaemon(config, runtime);
      assert.equal(started, false);
      assert.deepEqual(info, {
        pid: daemon.pid,
        simulation: true,
        host: '127.0.0.1',
        port: config.port,
        url: `http://127.0.0.1:${config.port}`,
        socketPath: config.socketPath,
        logPath: config.logPath,
      });
      assert.equal(readFileSync(config.pidPath, 'utf8').trim(), String(daemon.pid));
      assert.equal(existsSync(config.logPath), false, 'nothing was started, so nothing was logged');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('start reports a daemon that exits while starting, with the log', async () => {
    rmSync(config.pidPath, { force: true });
    await assert.rejects(ensureDaemon(config, runtime), (error: Error) => {
      assert.equal(error.name, 'DaemonStartError');
      assert.match(error.message, /sjgate exited while starting \(exit code 1\)/);
      assert.ok(error.message.includes(config.logPath));
      assert.match(error.message, /last lines of the log[\s\S]*sjgate-should-not-be-started/);
      return true;
    });
  });
});
