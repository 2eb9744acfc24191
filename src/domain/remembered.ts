// Remembering the answers of pure functions that are asked the same questions many times.

/** At most this many answers are remembered per function; past it, they are forgotten and remembered anew. */
const REMEMBERED_ANSWERS = 20_000;

/**
 * A pure function of one key that remembers its answers: listing every contract of a day asks the calendar about the
 * same few thousand dates and months over and over (it was about a third of a cold start of the daemon).
 */
export function remembered<K extends string | number, T>(compute: (key: K) => T): (key: K) => T {
  const answers = new Map<K, T>();
  return (key) => {
    const known = answers.get(key);
    if (known !== undefined || answers.has(key)) return known as T;
    const answer = compute(key);
    if (answers.size >= REMEMBERED_ANSWERS) answers.clear();
    answers.set(key, answer);
    return answer;
  };
}
