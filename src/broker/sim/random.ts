// Seeded, portable randomness: the same seed and keys give the same numbers on every machine.

/** FNV-1a over the keys' text, finished with a murmur3 mix: a 32-bit hash of any list of keys. */
export function hashKeys(...keys: (string | number)[]): number {
  let hash = 0x811c9dc5;
  const text = keys.join('\u0001');
  // By code point, as iterating the string would, but without its iterator (this runs for every simulated day of
  // every listed stock): a surrogate pair counts as its one code point.
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low < 0xe000) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    hash ^= code;
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
