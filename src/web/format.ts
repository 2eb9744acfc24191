// Number and time formatting. Times are Taiwan wall clock (UTC+8, no DST) whatever the browser's time zone.

const TAIPEI_OFFSET_MS = 8 * 3600_000;

/** A decimal string of the stream (prices are strings there) as a number; null when absent or not a number. */
export function decimal(text: string | number | undefined | null): number | null {
  if (text === undefined || text === null || text === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** A Taiwan date and time (2026-11-23, 09:01:02.345678) as ms since 1970 read as if UTC: the chart shows it as is. */
export function taipeiWallMs(date: string, time: string): number {
  return Date.parse(`${date}T${time.slice(0, 12)}Z`);
}

/** Epoch seconds (order_ts, deal ts) as Taiwan HH:MM:SS. */
export function taipeiTimeOfEpoch(epochSeconds: number): string {
  return new Date(epochSeconds * 1000 + TAIPEI_OFFSET_MS).toISOString().slice(11, 19);
}

/** A wall-clock ms (see taipeiWallMs) as YYYY-MM-DD HH:MM:SS. */
export function wallDateTime(wallMs: number): string {
  return new Date(wallMs).toISOString().slice(0, 19).replace('T', ' ');
}

const priceFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });
const intFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export const price = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : priceFormat.format(value);

export const integer = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : intFormat.format(value);

export function signed(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined) return '—';
  const text = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits }).format(Math.abs(value));
  return value > 0 ? `+${text}` : value < 0 ? `−${text}` : text;
}

/** up, down or flat, for the colours: in Taiwan red is up and green is down. */
export const trend = (value: number | null | undefined): 'up' | 'down' | 'flat' =>
  !value ? 'flat' : value > 0 ? 'up' : 'down';

export function bytes(value: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let scaled = value;
  let unit = 0;
  while (scaled >= 1024 && unit < units.length - 1) {
    scaled /= 1024;
    unit++;
  }
  return `${scaled.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

export function duration(totalSeconds: number): string {
  const s = Math.floor(totalSeconds);
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days > 0) return `${days}d ${hours}h ${minutes}m`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  return `${minutes}m ${s % 60}s`;
}

/** What answers the gateway: the simulator, SinoPac's simulation environment, or production (real money). */
export function modeName(info: { simulation: boolean; backend?: 'simulator' | 'shioaji' | undefined }): string {
  if (info.backend === 'shioaji') return info.simulation ? 'SinoPac simulation' : 'Production';
  return info.simulation ? 'Simulation' : 'Production';
}
