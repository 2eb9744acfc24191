// The exit codes of `sjgate` and the errors that choose one.

export const EXIT = { ok: 0, error: 1, usage: 2, notRunning: 3, refused: 4 } as const;

/** A mistake in how the command was called: exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The broker answered and refused the order or the change (the trade was printed): exit 4. */
export class RefusedError extends Error {
  override name = 'RefusedError';
  constructor(
    message: string,
    /** Further lines: what else is wrong, what to do. */
    readonly details: readonly string[] = [],
  ) {
    super(message);
  }
}
