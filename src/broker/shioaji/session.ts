// The session with SinoPac: one supervised sidecar, logged in. A sidecar that dies, or a session SinoPac drops or that
// falls silent, is replaced after a growing delay and logged in again within SinoPac's limits; listeners then restore
// what the old one held (subscriptions, the view of orders).

import { DAILY_MAINTENANCE_AT } from '../../domain/sessions.js';
import { nextTaipeiTime } from '../../domain/time.js';
import type { UpstreamState } from '../port.js';
import { Backoff, LoginBudget, startUpkeep, type UpkeepOptions } from './session-upkeep.js';
import { BridgeError, type BridgeErrorBody, Sidecar, type SidecarEvent } from './sidecar.js';

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
  /** How far this clock may be from SinoPac's at login, in ms (default 30000). */
  receiveWindowMs?: number | undefined;
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

/** SinoPac's answer to too many calls or logins: a one-minute suspension that every retry extends. */
const BAN_PATTERN = /操作異常|1分鐘|503/;
const BAN_DELAY_MS = 65_000;
/** Calls in a row without an answer after which the sidecar is taken as stuck and replaced. */
const STUCK_AFTER_TIMEOUTS = 3;

export class BridgeSession {
  private sidecar: Sidecar | null = null;
  private readonly listeners = {
    events: new Set<(event: SidecarEvent) => void>(),
    reconnected: new Set<() => Promise<void>>(),
  };
  private readonly backoff: Backoff;
  private readonly logins: LoginBudget;
  private readonly state: UpstreamState;
  private stopUpkeep: () => void = () => undefined;
  private readonly marks = {
    /** The session being replaced is the daily maintenance's: its outcome is reported as the maintenance's. */
    maintaining: false,
    lastQuoteAt: 0,
    /** Silent recoveries since the last quote. */
    silentStreak: 0,
    /** Calls in a row that SinoPac did not answer in time. */
    timeouts: 0,
  };

  private readonly options: SessionOptions & { now: () => number };

  private constructor(options: SessionOptions) {
    this.options = { ...options, now: options.now ?? Date.now };
    this.backoff = new Backoff(options.backoffMs ?? { first: 1_000, last: 60_000 });
    this.logins = new LoginBudget(this.options.now, options.maxLoginsPerDay ?? 50);
    this.state = initialState(options.simulation);
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
    session.stopUpkeep = startUpkeep(session.upkeep());
    return session;
  }

  upstream(): UpstreamState {
    return {
      ...this.state,
      logins_today: this.logins.today,
      last_quote_at: this.marks.lastQuoteAt ? new Date(this.marks.lastQuoteAt).toISOString() : null,
    };
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
    return sidecar.call<T>(method, params, timeoutMs).then(
      (answer) => {
        this.marks.timeouts = 0;
        return answer;
      },
      (error: unknown) => {
        // The sidecar answers `ping` even while an SDK call hangs, so only calls themselves tell a stuck SDK.
        if (error instanceof BridgeError && error.kind === 'timeout' && ++this.marks.timeouts >= STUCK_AFTER_TIMEOUTS) {
          if (sidecar === this.sidecar) this.replace(`SinoPac answered none of the last ${STUCK_AFTER_TIMEOUTS} calls`);
        }
        throw error;
      },
    );
  }

  onEvent(listener: (event: SidecarEvent) => void): () => void {
    this.listeners.events.add(listener);
    return () => this.listeners.events.delete(listener);
  }

  /** Runs after every new login but the first (calls already pass while it runs). */
  onReconnected(listener: () => Promise<void>): () => void {
    this.listeners.reconnected.add(listener);
    return () => this.listeners.reconnected.delete(listener);
  }

  async close(): Promise<void> {
    this.state.status = 'closed';
    this.backoff.cancel();
    this.stopUpkeep();
    const sidecar = this.sidecar;
    this.sidecar = null;
    if (sidecar?.alive) {
      await sidecar.call('logout', {}, 5_000).catch(() => undefined);
      await sidecar.close();
    }
  }

  /** Starts a sidecar and logs it in: the one the session holds from then on. */
  private async connect(): Promise<void> {
    if (!this.logins.take()) {
      throw new BridgeError({
        kind: 'login_budget',
        message: `${this.logins.max} logins today already; the session stays down until tomorrow (SinoPac suspends repeated logins)`,
        hint: 'find why the session keeps dropping (the log, sjgate doctor), then restart the daemon',
      });
    }
    // Set once started: an event or an exit reported before then belongs to no session yet.
    let sidecar: Sidecar | null = null;
    const current = () => sidecar !== null && sidecar === this.sidecar;
    sidecar = await Sidecar.start({
      python: this.options.python,
      env: this.options.env,
      log: (line) => this.options.log(`bridge: ${line}`),
      onEvent: (event) => current() && this.receive(event),
      onExit: (reason) => current() && this.replace(`the bridge ${reason}`),
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
    this.state.ca_expires_at = await logIn(sidecar, this.options);
    if (this.state.status === 'closed') {
      void this.sidecar?.close();
      this.sidecar = null;
      throw new BridgeError({ kind: 'closed', message: 'the session was closed while logging in' });
    }
    Object.assign(this.state, {
      status: 'connected',
      logged_in_at: new Date(this.options.now()).toISOString(),
      last_error: null,
      last_error_hint: null,
    });
    this.backoff.reset();
    this.marks.lastQuoteAt = this.options.now();
    this.marks.timeouts = 0;
  }

  private receive(event: SidecarEvent): void {
    if (event.event === 'quote') {
      this.marks.lastQuoteAt = this.options.now();
      this.marks.silentStreak = 0;
    }
    if (event.event === 'session_down') {
      this.state.session_drops++;
      this.replace('SinoPac dropped the session');
      return;
    }
    for (const listener of this.listeners.events) listener(event);
  }

  /** Ends the current sidecar (if it still runs) and schedules a new one. */
  private replace(reason: string): void {
    if (this.state.status === 'closed' || this.state.status === 'reconnecting') return;
    this.state.status = 'reconnecting';
    this.state.last_error = reason;
    void this.sidecar?.close();
    this.sidecar = null;
    this.reconnectSoon(reason);
  }

  private reconnectSoon(reason: string): void {
    const delay = this.backoff.schedule(() => void this.reconnect());
    this.options.log(`bridge: ${reason}; starting a new session in ${delay / 1000} s`);
  }

  private async reconnect(): Promise<void> {
    if (this.state.status === 'closed') return;
    this.state.restarts++;
    try {
      await this.connect();
      for (const listener of this.listeners.reconnected) await listener();
      if (this.marks.maintaining) this.state.last_maintenance_error = null;
      this.marks.maintaining = false;
      this.options.log('bridge: session restored');
    } catch (error) {
      if (isClosed(this.state)) return;
      const body = asBody(error);
      Object.assign(this.state, { last_error: body.message, last_error_hint: body.hint ?? null });
      if (this.marks.maintaining) this.state.last_maintenance_error = body.message;
      void this.sidecar?.close();
      this.sidecar = null;
      if (body.kind === 'login_budget') {
        this.state.status = 'down';
        this.options.log(`bridge: ${body.message}`);
        return;
      }
      if (BAN_PATTERN.test(body.message)) this.backoff.atLeast(BAN_DELAY_MS);
      this.state.status = 'reconnecting';
      this.reconnectSoon(`login failed: ${body.message}`);
    }
  }

  /** The watchdog of a silent session and the daily refresh, both ending in a new session. */
  private upkeep(): UpkeepOptions {
    const maintenanceAt = this.options.maintenanceAt === undefined ? DAILY_MAINTENANCE_AT : this.options.maintenanceAt;
    // A session found silent again before any quote came back waits twice as long each time (at most 32 times):
    // quiet contracts, not a dead session, must not spend the day's logins.
    const silentAfterMs = () => (this.options.silentAfterMs ?? 60_000) * 2 ** Math.min(this.marks.silentStreak, 5);
    if (maintenanceAt !== null) {
      this.state.next_maintenance = new Date(nextTaipeiTime(maintenanceAt, this.options.now())).toISOString();
    }
    return {
      now: this.options.now,
      silentAfterMs,
      expectQuotes: this.options.expectQuotes,
      lastQuoteAt: () => this.marks.lastQuoteAt,
      connected: () => this.state.status === 'connected',
      onSilent: () => {
        const waited = silentAfterMs();
        this.state.silent_recoveries++;
        this.marks.silentStreak++;
        this.replace(`no quote for ${waited / 1000} s while subscribed and the market is open`);
      },
      maintenanceAt,
      onMaintenance: (next) => {
        Object.assign(this.state, {
          last_maintenance: new Date(this.options.now()).toISOString(),
          next_maintenance: new Date(next).toISOString(),
        });
        this.marks.maintaining = true;
        this.replace('daily maintenance: a new session');
      },
    };
  }
}

/** Logs a fresh sidecar in and activates the certificate; the certificate's expiry, when there is one. */
async function logIn(sidecar: Sidecar, options: SessionOptions): Promise<string | null> {
  if (sidecar.hello.sdk === null) {
    throw new BridgeError({
      kind: 'sdk_missing',
      message: `the official shioaji package cannot be imported by ${options.python}: ${sidecar.hello.sdk_error ?? ''}`,
      hint: 'run `sjgate setup production`, or set SJ_PYTHON to an interpreter that has shioaji 1.7 installed',
    });
  }
  checkSdkVersion(sidecar.hello.sdk, options);
  const { credentials, ca, simulation } = options;
  await sidecar.call(
    'login',
    {
      api_key: credentials.apiKey,
      secret_key: credentials.secretKey,
      simulation,
      receive_window: options.receiveWindowMs ?? 30_000,
      fetch_contracts: true,
    },
    120_000,
  );
  if (!ca) return null;
  const activated = await sidecar.call<{ expires_at: string | null }>('activate_ca', {
    ca_path: ca.path,
    ca_passwd: ca.password,
  });
  const expires = activated.expires_at === null ? null : Date.parse(activated.expires_at);
  if (expires !== null && expires <= (options.now ?? Date.now)()) {
    throw new BridgeError({
      kind: 'ca',
      message: `the certificate ${ca.path} expired on ${activated.expires_at}: SinoPac refuses orders signed with it`,
      hint: "download a new certificate with SinoPac's certificate tool and point SJ_CA_PATH at it",
    });
  }
  return activated.expires_at;
}

/** The bridge is written for the 1.7 line of the SDK: an older one lacks what it calls, a newer one is untried. */
function checkSdkVersion(sdk: string, options: SessionOptions): void {
  const [major, minor] = sdk.split('.').map(Number);
  if (major === 1 && minor === 7) return;
  if (major === undefined || minor === undefined || major < 1 || (major === 1 && minor < 7)) {
    throw new BridgeError({
      kind: 'sdk_version',
      message: `shioaji ${sdk} at ${options.python} is too old: this sjgate drives the 1.7 line of the SDK`,
      hint: 'run `sjgate setup production`, which installs a compatible shioaji',
    });
  }
  options.log(`bridge: shioaji ${sdk} is newer than the 1.7 line this sjgate was tested with; watch the log`);
}

function initialState(simulation: boolean): UpstreamState {
  return {
    status: 'starting',
    environment: simulation ? 'simulation' : 'production',
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

/** Read through a call, so a status the compiler narrowed before an await is read as it is now. */
const isClosed = (state: UpstreamState) => state.status === 'closed';

function asBody(error: unknown): BridgeErrorBody {
  if (error instanceof BridgeError) return { kind: error.kind, message: error.message, hint: error.hint };
  return { kind: 'sdk', message: error instanceof Error ? error.message : String(error) };
}
