// The monitor's settings (what is captured, how the metrics are kept) and where they are kept: `monitor.json` in the
// data home, written whole then renamed into place, owner-only. The metrics of the last day are saved beside them
// (`monitor-metrics.json`) every `flush_seconds` and at shutdown, and put back at start. A write that fails is
// reported in `persistence_error` rather than hidden; the gateway goes on with what it holds in memory.

import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

export type StreamCapture = boolean | 'auto';

export interface MonitorSettings {
  capture: { metrics: boolean; requests: boolean; streams: StreamCapture };
  storage: { flush_seconds: number; retention_days: number; max_mb: number };
}

export type SettingsPatch = {
  capture?: Partial<MonitorSettings['capture']>;
  storage?: Partial<MonitorSettings['storage']>;
};

export const DEFAULT_SETTINGS: MonitorSettings = {
  capture: { metrics: true, requests: false, streams: 'auto' },
  storage: { flush_seconds: 1800, retention_days: 7, max_mb: 1024 },
};

export const BOUNDS = {
  flush_seconds: { minimum: 1, maximum: 86_400 },
  retention_days: { minimum: 1, maximum: 90 },
  max_mb: { minimum: 1, maximum: 10_240 },
} as const;

export interface MonitorFiles {
  settings: string;
  metrics: string;
}

export class MonitorStorage {
  private settings: MonitorSettings = structuredClone(DEFAULT_SETTINGS);
  /** Epoch ms of the last successful write of the settings or the metrics; null before the first. */
  lastSavedMs: number | null = null;
  /** Why the last write (or the read at start) failed; null once one succeeds. */
  persistenceError: string | null = null;

  constructor(
    readonly files: MonitorFiles | null,
    private readonly now: () => number,
  ) {
    if (files) this.read(files.settings);
  }

  get current(): MonitorSettings {
    return this.settings;
  }

  /** Applies a deep-partial change (already validated against the bounds) and saves it. */
  update(patch: SettingsPatch): MonitorSettings {
    this.settings = {
      capture: { ...this.settings.capture, ...patch.capture },
      storage: { ...this.settings.storage, ...patch.storage },
    };
    this.write(this.files?.settings, { version: 1, settings: this.settings });
    return this.settings;
  }

  /** The saved metrics, or null when there are none (or they cannot be read: reported, not thrown). */
  readMetrics(): unknown {
    if (!this.files || !existsSync(this.files.metrics)) return null;
    try {
      const saved = JSON.parse(readFileSync(this.files.metrics, 'utf8')) as { version?: unknown; slots?: unknown };
      return saved.version === 1 ? saved.slots : null;
    } catch (error) {
      this.persistenceError = `could not read ${this.files.metrics}: ${(error as Error).message}`;
      return null;
    }
  }

  /** Saves the metrics unless they exceed storage.max_mb (then says so in persistence_error). */
  writeMetrics(slots: unknown): void {
    if (!this.files) return;
    const text = JSON.stringify({ version: 1, saved_ms: this.now(), slots });
    const limit = this.settings.storage.max_mb * 1024 * 1024;
    if (Buffer.byteLength(text) > limit) {
      this.persistenceError =
        `the metrics snapshot (${(Buffer.byteLength(text) / 1024 / 1024).toFixed(1)} MiB) is over storage.max_mb ` +
        `(${this.settings.storage.max_mb} MiB) and was not saved; raise max_mb or lower the traffic kept`;
      return;
    }
    this.write(this.files.metrics, null, text);
  }

  private read(file: string): void {
    if (!existsSync(file)) return;
    try {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown; settings?: SettingsPatch };
      if (saved.version !== 1 || typeof saved.settings !== 'object' || saved.settings === null) {
        throw new Error('not a monitor settings file of this version of sjgate');
      }
      this.settings = sanitized(saved.settings);
    } catch (error) {
      this.persistenceError = `could not read ${file}, the defaults apply: ${(error as Error).message}`;
    }
  }

  private write(file: string | undefined, value: unknown, text = `${JSON.stringify(value, null, 2)}\n`): void {
    if (file === undefined) return;
    try {
      writeFileSync(`${file}.tmp`, text, { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
      this.lastSavedMs = this.now();
      this.persistenceError = null;
    } catch (error) {
      this.persistenceError = `could not write ${file}: ${(error as Error).message}`;
    }
  }
}

/** Saved settings, each value kept only when it is of the right type and within its bounds. */
function sanitized(saved: SettingsPatch): MonitorSettings {
  const settings = structuredClone(DEFAULT_SETTINGS);
  const capture = saved.capture ?? {};
  if (typeof capture.metrics === 'boolean') settings.capture.metrics = capture.metrics;
  if (typeof capture.requests === 'boolean') settings.capture.requests = capture.requests;
  if (typeof capture.streams === 'boolean' || capture.streams === 'auto') settings.capture.streams = capture.streams;
  const storage = saved.storage ?? {};
  for (const name of Object.keys(BOUNDS) as (keyof typeof BOUNDS)[]) {
    const value = storage[name];
    const { minimum, maximum } = BOUNDS[name];
    if (Number.isInteger(value) && (value as number) >= minimum && (value as number) <= maximum) {
      settings.storage[name] = value as number;
    }
  }
  return settings;
}
