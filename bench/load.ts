// HTTP load generation for throughput benchmarks: wrk (C, pinned to its own core) when installed, otherwise
// autocannon. Both sides of a comparison always use the same tool in the same run.

import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

const run = promisify(execFile);

export interface LoadResult {
  tool: string;
  rps: number;
  p99_ms: number;
  errors: number;
}

const has = (command: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

export const WRK = has('wrk');
const TASKSET = has('taskset');

/** On a 2-core machine, server and load generator each get a core, so neither steals from the other. */
export function pinToServerCore(pid: number): void {
  if (TASKSET) execFileSync('taskset', ['-cp', '0', String(pid)], { stdio: 'ignore' });
}

/** wrk's script for a POST of `body` (JSON). */
function postScript(body: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'sjgate-wrk-')), 'post.lua');
  const lua = `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = ${JSON.stringify(body)}\n`;
  writeFileSync(path, lua);
  return path;
}

async function wrk(url: string, seconds: number, connections: number, post: PostBody): Promise<LoadResult> {
  const command = TASKSET ? 'taskset' : 'wrk';
  const script = post === undefined ? [] : ['-s', postScript(post)];
  const args = [
    ...(TASKSET ? ['-c', '1', 'wrk'] : []),
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
    ...script,
    url,
  ];
  const { stdout } = await run(command, args);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(stdout);
  const scale = { us: 0.001, ms: 1, s: 1000 } as const;
  const errors = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  return { tool: 'wrk', rps, p99_ms: p99 ? Number(p99[1]) * scale[p99[2] as keyof typeof scale] : Number.NaN, errors };
}

function autocannonLoad(url: string, seconds: number, connections: number, post: PostBody): Promise<LoadResult> {
  const request =
    post === undefined ? {} : { method: 'POST' as const, body: post, headers: { 'content-type': 'application/json' } };
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, pipelining: 1, duration: seconds, ...request }, (error, result) =>
      error
        ? reject(error)
        : resolve({
            tool: 'autocannon',
            rps: result.requests.average,
            p99_ms: result.latency.p99,
            errors: result.errors + result.non2xx,
          }),
    );
  });
}

/**
 * CPU time a process has used so far, in ms (Linux: /proc/<pid>/stat, user and system, at 100 ticks a second). A
 * server's CPU per request is steadier than its requests a second on a shared machine.
 */
export function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A JSON body to POST instead of a GET. */
export type PostBody = string | undefined;

export function load(url: string, seconds: number, connections = 50, post?: PostBody): Promise<LoadResult> {
  return WRK ? wrk(url, seconds, connections, post) : autocannonLoad(url, seconds, connections, post);
}
