// Seeded, portable randomness: the same seed and keys give the same numbers on every machine.

/** FNV-1a over the keys' text, finished with a murmur3 mix: a 32-bit hash of any list of keys. */
export function hashKeys(...keys: (string | number)[]): number {
  let hash = 0x811c9dc5;
  for (const char of keys.join('\u0001')) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** A number in [0, 1) that depends only on the keys. */
export function unitOf(...keys: (string | number)[]): number {
  return hashKeys(...keys) / 2 ** 32;
}
