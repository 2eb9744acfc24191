// The gateway's clock, which in simulation may run at another time than the wall clock (SJ_SIM_START). The page
// reads it from /api/v1/info (sim_time) and runs it on from there.

const listeners = new Set<() => void>();
/** The gateway's Taiwan wall time as ms (read as if it were UTC) minus Date.now(); null until known. */
let offsetMs: number | null = null;

export const simClock = {
  /** `simTime`: /api/v1/info's sim_time, ISO 8601 in Taiwan time (…+08:00). */
  set(simTime: string): void {
    const wallMs = Date.parse(`${simTime.slice(0, 23)}Z`);
    if (!Number.isFinite(wallMs)) return;
    offsetMs = wallMs - Date.now();
    for (const listener of listeners) listener();
  },
  /** The gateway's Taiwan wall time now, or null when not known yet. */
  now: (): number | null => (offsetMs === null ? null : Date.now() + offsetMs),
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
