// The exit codes of `sjgate` and the error that means the command was called wrongly.

export const EXIT = { ok: 0, error: 1, usage: 2, notRunning: 3 } as const;

/** A mistake in how the command was called: exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
