// One sidecar process: `python -m sjgate_bridge serve`, spoken to in newline-delimited JSON over its stdio
// (docs/bridge-protocol.md). It knows nothing of logins or restarts; the session (session.ts) supervises it.

import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export const BRIDGE_PROTOCOL = 1;
const HELLO_TIMEOUT_MS = 15_000;
const EXIT_GRACE_MS = 5_000;

export interface Hello {
  protocol: number;
  bridge: string;
  sdk: string | null;
  sdk_error?: string | undefined;
  python: string;
  pid: number;
  scripted?: boolean | undefined;
}

export interface BridgeErrorBody {
  kind: string;
  message: string;
  hint?: string | undefined;
}

/** An error the sidecar answered with, or one of talking to it (kind `exited`, `timeout` or `protocol`). */
export class BridgeError extends Error {
  readonly kind: string;
  readonly hint: string | undefined;
  constructor(body: BridgeErrorBody) {
    super(body.message);
    this.kind = body.kind;
    this.hint = body.hint;
  }
}

export interface SidecarEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface SidecarOptions {
  python: string;
  /** Added to the daemon's environment (SJGATE_BRIDGE_SCRIPT in tests). */
  env?: Record<string, string> | undefined;
  onEvent: (event: SidecarEvent) => void;
  /** Called once, when the process is gone, with why. */
  onExit: (reason: string) => void;
  /** The sidecar's own log lines (its stderr). */
  log: (line: string) => void;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class Sidecar {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private exited: string | null = null;

  private constructor(
    private readonly child: ChildProcess,
    readonly hello: Hello,
  ) {}

  /** Starts the process and waits for its hello; rejects, with the fix, when it cannot start or speaks another protocol. */
  static start(options: SidecarOptions): Promise<Sidecar> {
    const child = spawn(options.python, ['-m', 'sjgate_bridge', 'serve'], {
      env: { ...process.env, PYTHONUNBUFFERED: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // The daemon's server keeps it alive, not its sidecar: a process that fails to start can exit, and the sidecar,
    // its stdin closed, follows.
    child.unref();
    for (const pipe of [child.stdin, child.stdout, child.stderr]) (pipe as unknown as { unref?: () => void }).unref?.();
    return new Promise((resolve, reject) => {
      let sidecar: Sidecar | null = null;
      const fail = (message: string) => {
        clearTimeout(helloTimer);
        child.kill('SIGKILL');
        reject(new BridgeError({ kind: 'start', message, hint: SETUP_HINT }));
      };
      const helloTimer = setTimeout(
        () => fail(`the bridge did not say hello within ${HELLO_TIMEOUT_MS / 1000} s`),
        HELLO_TIMEOUT_MS,
      );
      child.once('error', (error) => fail(`cannot run ${options.python}: ${error.message}`));
      // A request written as the process dies fails with EPIPE: its call is failed by the exit, not thrown here.
      child.stdin!.on('error', (error) => options.log(`bridge: cannot write to the sidecar: ${error.message}`));
      createInterface({ input: child.stderr! }).on('line', (line) => options.log(line));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const message = parseLine(line);
        if (message === null) return options.log(`bridge: not a protocol line: ${line.slice(0, 200)}`);
        if (sidecar) return sidecar.receive(message, options.onEvent);
        if (message.type !== 'hello') return fail(`the bridge spoke before its hello: ${line.slice(0, 200)}`);
        clearTimeout(helloTimer);
        const hello = message as unknown as Hello;
        if (hello.protocol !== BRIDGE_PROTOCOL) {
          return fail(
            `the bridge at ${options.python} speaks protocol ${hello.protocol}, this sjgate speaks ${BRIDGE_PROTOCOL}`,
          );
        }
        sidecar = new Sidecar(child, hello);
        resolve(sidecar);
      });
      // 'close', not 'exit': the replies it wrote before it ended are read first.
      child.once('close', (code, signal) => {
        const reason = signal ? `killed by ${signal}` : `exited with code ${code}`;
        if (!sidecar) return fail(`the bridge ${reason} before its hello`);
        sidecar.gone(reason);
        options.onExit(reason);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.exited === null;
  }

  call<T = unknown>(method: string, params: object = {}, timeoutMs = 30_000): Promise<T> {
    if (this.exited !== null) {
      return Promise.reject(new BridgeError({ kind: 'exited', message: `the bridge ${this.exited}` }));
    }
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new BridgeError({ kind: 'timeout', message: `SinoPac did not answer ${method} within ${timeoutMs} ms` }),
        );
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.child.stdin!.write(`${JSON.stringify({ type: 'request', id, method, params })}\n`);
    });
  }

  /** Closes its stdin, which ends it; kills it if it has not gone after a grace period. */
  async close(): Promise<void> {
    if (this.exited !== null) return;
    const gone = new Promise<void>((resolve) => this.child.once('close', () => resolve()));
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), EXIT_GRACE_MS);
    await gone;
    clearTimeout(timer);
  }

  private receive(message: Record<string, unknown>, onEvent: (event: SidecarEvent) => void): void {
    if (message.type === 'event') {
      onEvent({ event: String(message.event), data: (message.data ?? {}) as Record<string, unknown> });
      return;
    }
    if (message.type !== 'reply') return;
    const pending = this.pending.get(Number(message.id));
    if (!pending) return;
    this.pending.delete(Number(message.id));
    clearTimeout(pending.timer);
    if (message.error) pending.reject(new BridgeError(message.error as BridgeErrorBody));
    else pending.resolve(message.result);
  }

  private gone(reason: string): void {
    this.exited = reason;
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new BridgeError({ kind: 'exited', message: `the bridge ${reason} before answering` }));
      this.pending.delete(id);
    }
  }
}

export const SETUP_HINT =
  'run `sjgate setup production` to install the bridge and the official shioaji package, then `sjgate doctor`';

function parseLine(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
