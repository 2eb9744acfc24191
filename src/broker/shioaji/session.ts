// The session with SinoPac: one supervised sidecar, logged in. A sidecar that dies, or a session SinoPac drops or that
// falls silent, is replaced after a growing delay and logged in again within SinoPac's limits; listeners then restore
// what the old one held (subscriptions, the view of orders).

import { addDays, taipeiDate, taipeiInstant } from '../../domain/time.js';
import type { UpstreamState } from '../port.js';
import { BridgeError, type BridgeErrorBody, type Hello, Sidecar, type SidecarEvent } from './sidecar.js';

export interface Credentials {
  apiKey: string;
  secretKey: string;
}

export interface SessionOptions {
  python: string;
  env?: Record<string, string> | undefined;
  credentials: Credentials;
  ca: { path: string; password: string } | null;
  /** SinoPac's simulation environment (SJ_PRODUCTION=false) rather than production. */
  simulation: boolean;
  log: (line: string) => void;
  now?: () => number;
  /** Delays between attempts: doubling from the first to the last. */
  backoffMs?: { first: number; last: number } | undefined;
  /** Logins a day at most; past it the session stays down until the next day (SinoPac suspends abusive logins). */
  maxLoginsPerDay?: number | undefined;
  /** No quote for this long while subscriptions are held and the market is open: the session is silent. */
  silentAfterMs?: number | undefined;
  /** Whether the markets of the held subscriptions are open now. */
  expectQuotes?: (() => boolean) | undefined;
  /** Taiwan time of the daily session refresh (a new login, as the official server does), 'HH:MM'; null: none. */
  maintenanceAt?: string | null | undefined;
}

/** A start-up that cannot succeed by waiting: SinoPac's own message, and the fix. */
export class UpstreamStartError extends Error {
  constructor(
    message: string,
    readonly hint: string | undefined,
  ) {
    super(hint ? `${message}\n  fix: ${hint}` : message);
  }
}

const BAN_PATTERN = /操作異常|1分鐘|503/;
const BAN_DELAY_MS = 65_000;

export class BridgeSession {
  private sidecar: Sidecar | null = null;
  private readonly eventListeners = new Set<(event: SidecarEvent) => void>();
  private readonly reconnectListeners = new Set<() => Promise<void>>();
  private readonly now: () => number;
  private readonly backoff: { first: number; last: number };
  private delayMs: number;
  private timer: NodeJS.Timeout | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private maintenanceTimer: NodeJS.Timeout | null = null;
  /** The session being replaced is the daily maintenance's: its outcome is reported as the maintenance's. */
  private maintaining = false;
  private closing = false;
  private loginsDay = '';
  private lastQuoteAt = 0;
  private readonly state: UpstreamState;

  private constructor(private readonly options: SessionOptions) {
    this.now = options.now ?? Date.now;
    this.backoff = options.backoffMs ?? { first: 1_000, last: 60_000 };
    this.delayMs = this.backoff.first;
    this.state = {
      status: 'starting',
      environment: options.simulation ? 'simulation' : 'production',
      sdk: null,
      bridge: null,
      scripted: false,
      sidecar_pid: null,
      logged_in_at: null,
      logins_today: 0,
      restarts: 0,
      session_drops: 0,
      silent_recoveries: 0,
      last_error: null,
      last_error_hint: null,
      ca_expires_at: null,
      last_quote_at: null,
      last_maintenance: null,
      next_maintenance: null,
      last_maintenance_error: null,
    };
  }

  /** Starts the sidecar and logs in; rejects with UpstreamStartError (SinoPac's message and the fix) when it cannot. */
  static async open(options: SessionOptions): Promise<BridgeSession> {
    const session = new BridgeSession(options);
    try {
      await session.connect();
    } catch (error) {
      await session.close();
      const body = asBody(error);
      throw new UpstreamStartError(`cannot start the SinoPac session: ${body.message}`, body.hint);
    }
    session.startWatchdog();
    session.scheduleMaintenance();
    return session;
  }

  upstream(): UpstreamState {
    return {
      ...this.state,
      last_quote_at: this.lastQuoteAt ? new Date(this.lastQuoteAt).toISOString() : null,
    };
  }

  get hello(): Hello | null {
    return this.sidecar?.hello ?? null;
  }

  /** Calls the SDK through the sidecar; rejects at once with kind `unavailable` while no session is up. */
  call<T = unknown>(method: string, params: object = {}, timeoutMs?: number): Promise<T> {
    const sidecar = this.sidecar;
    if (!sidecar?.alive || this.state.status !== 'connected') {
      const why = this.state.last_error ? `: ${this.state.last_error}` : '';
      return Promise.reject(
        new BridgeError({
          kind: 'unavailable',
          message: `the SinoPac session is ${this.state.status}${why}`,
          hint: 'retry in a few seconds; GET /api/v1/health shows the upstream state',
        }),
      );
    }
    return sidecar.call<T>(method, params, timeoutMs);
  }

  onEvent(listener: (event: SidecarEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Runs after every new login but the first (calls already pass while it runs). */
  onReconnected(listener: () => Promise<void>): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closing = true;
    this.state.status = 'closed';
    if (this.timer) clearTimeout(this.timer);
    if (this.watchdog) clearInterval(this.watchdog);
    if (this.maintenanceTimer) clearTimeout(this.maintenanceTimer);
    const sidecar = this.sidecar;
    this.sidecar = null;
    if (sidecar?.alive) {
      await sidecar.call('logout', {}, 5_000).catch(() => undefined);
      await sidecar.close();
    }
  }

  private async connect(): Promise<void> {
    this.countLogin();
    const sidecar = await Sidecar.start({
      python: this.options.python,
      env: this.options.env,
      log: (line) => this.options.log(`bridge: ${line}`),
      onEvent: (event) => this.receive(sidecar, event),
      onExit: (reason) => this.lost(sidecar, `the bridge ${reason}`),
    });
    this.sidecar = sidecar;
    const { hello } = sidecar;
    Object.assign(this.state, {
      sdk: hello.sdk,
      bridge: hello.bridge,
      scripted: hello.scripted === true,
      sidecar_pid: sidecar.pid ?? null,
    });
    if (hello.scripted) this.options.log('bridge: SCRIPTED session (SJGATE_BRIDGE_SCRIPT): nothing reaches SinoPac');
    if (hello.sdk === null) {
      throw new BridgeError({
        kind: 'sdk_missing',
        message: `the official shioaji package cannot be imported by ${this.options.python}: ${hello.sdk_error ?? ''}`,
        hint: 'run `sjgate setup production`, or set SJ_PYTHON to an interpreter that has shioaji 1.7 installed',
      });
    }
    const { credentials, ca, simulation } = this.options;
    await sidecar.call(
      'login',
      {
        api_key: credentials.apiKey,
        secret_key: credentials.secretKey,
        simulation,
        receive_window: 30_000,
        fetch_contracts: true,
      },
      120_000,
    );
    if (ca) {
      const activated = await sidecar.call<{ expires_at: string | null }>('activate_ca', {
        ca_path: ca.path,
        ca_passwd: ca.password,
      });
      this.state.ca_expires_at = activated.expires_at;
    }
    this.state.status = 'connected';
    this.state.logged_in_at = new Date(this.now()).toISOString();
    this.state.last_error = null;
    this.state.last_error_hint = null;
    this.delayMs = this.backoff.first;
    this.lastQuoteAt = this.now();
  }

  private receive(sidecar: Sidecar, event: SidecarEvent): void {
    if (sidecar !== this.sidecar) return;
    if (event.event === 'quote') this.lastQuoteAt = this.now();
    if (event.event === 'session_down') {
      this.state.session_drops++;
      this.replace('SinoPac dropped the session');
      return;
    }
    for (const listener of this.eventListeners) listener(event);
  }

  private lost(sidecar: Sidecar, reason: string): void {
    if (sidecar !== this.sidecar || this.closing) return;
    this.replace(reason);
  }

  /** Ends the current sidecar (if it still runs) and schedules a new one. */
  private replace(reason: string): void {
    if (this.closing || this.state.status === 'reconnecting') return;
    this.options.log(`bridge: ${reason}; starting a new session in ${this.delayMs / 1000} s`);
    this.state.status = 'reconnecting';
    this.state.last_error = reason;
    const old = this.sidecar;
    this.sidecar = null;
    void old?.close();
    this.schedule();
  }

  private schedule(): void {
    const delay = this.delayMs;
    this.delayMs = Math.min(this.delayMs * 2, this.backoff.last);
    this.timer = setTimeout(() => void this.reconnect(), delay);
  }

  private async reconnect(): Promise<void> {
    if (this.closing) return;
    const max = this.options.maxLoginsPerDay ?? 50;
    if (this.loginsToday() >= max) {
      this.fail({
        kind: 'login_budget',
        message: `${max} logins today already; the session stays down until tomorrow (SinoPac suspends repeated logins)`,
        hint: 'find why the session keeps dropping (the log, sjgate doctor), then restart the daemon',
      });
      return;
    }
    this.state.restarts++;
    try {
      await this.connect();
      for (const listener of this.reconnectListeners) await listener();
      if (this.maintaining) this.state.last_maintenance_error = null;
      this.maintaining = false;
      this.options.log('bridge: session restored');
    } catch (error) {
      const body = asBody(error);
      this.state.last_error = body.message;
      this.state.last_error_hint = body.hint ?? null;
      if (this.maintaining) this.state.last_maintenance_error = body.message;
      this.options.log(`bridge: login failed: ${body.message}`);
      const old = this.sidecar;
      this.sidecar = null;
      void old?.close();
      if (BAN_PATTERN.test(body.message)) this.delayMs = Math.max(this.delayMs, BAN_DELAY_MS);
      this.state.status = 'reconnecting';
      this.schedule();
    }
  }

  private fail(body: BridgeErrorBody): void {
    this.state.status = 'down';
    this.state.last_error = body.message;
    this.state.last_error_hint = body.hint ?? null;
    this.options.log(`bridge: ${body.message}`);
  }

  private startWatchdog(): void {
    const silentAfter = this.options.silentAfterMs ?? 60_000;
    const expectQuotes = this.options.expectQuotes;
    if (!expectQuotes) return;
    this.watchdog = setInterval(
      () => {
        if (this.state.status !== 'connected' || !expectQuotes()) return;
        if (this.now() - this.lastQuoteAt < silentAfter) return;
        this.state.silent_recoveries++;
        this.replace(`no quote for ${Math.round(silentAfter / 1000)} s while subscribed and the market is open`);
      },
      Math.min(silentAfter, 5_000),
    );
    this.watchdog.unref();
  }

  /** The daily refresh: a planned new session, so a token never runs out and a stale session never lingers. */
  private scheduleMaintenance(): void {
    const at = this.options.maintenanceAt === undefined ? '08:22' : this.options.maintenanceAt;
    if (at === null || this.closing) return;
    const now = this.now();
    let next = taipeiInstant(taipeiDate(now), at);
    if (next <= now) next = taipeiInstant(addDays(taipeiDate(now), 1), at);
    this.state.next_maintenance = new Date(next).toISOString();
    this.maintenanceTimer = setTimeout(() => {
      this.state.last_maintenance = new Date(this.now()).toISOString();
      this.maintaining = true;
      this.replace('daily maintenance: a new session');
      this.scheduleMaintenance();
    }, next - now);
    this.maintenanceTimer.unref();
  }

  private countLogin(): void {
    const day = taipeiDate(this.now());
    if (day !== this.loginsDay) {
      this.loginsDay = day;
      this.state.logins_today = 0;
    }
    this.state.logins_today++;
  }

  private loginsToday(): number {
    return taipeiDate(this.now()) === this.loginsDay ? this.state.logins_today : 0;
  }
}

function asBody(error: unknown): BridgeErrorBody {
  if (error instanceof BridgeError) return { kind: error.kind, message: error.message, hint: error.hint };
  return { kind: 'sdk', message: error instanceof Error ? error.message : String(error) };
}
