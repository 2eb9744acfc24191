// Answers worked out from the venue's current contract listing, kept by request until the listing changes: a new
// listing day, or a refresh that replaced the list. The venue tells which listing is current by an object whose
// identity changes with it (ContractsPort.listing), so the cache never has to know when each market's day rolls.

/** At most this many answers are kept for one listing; the oldest is dropped first. */
export const LISTING_CACHE_ENTRIES = 10_000;

export class ListingCache<V> {
  private listing: object | null = null;
  private readonly answers = new Map<string, V>();

  constructor(
    private readonly currentListing: () => object,
    private readonly maxEntries = LISTING_CACHE_ENTRIES,
  ) {}

  /**
   * The answer kept for `key` under the current listing, if any. A key never kept costs one map lookup (the fast lane
   * asks for every GET); a kept one is checked against the current listing, and a new listing empties the cache.
   */
  get(key: string): V | undefined {
    const answer = this.answers.get(key);
    if (answer === undefined) return undefined;
    const kept = this.listing;
    return this.current() === kept ? answer : undefined;
  }

  /** The listing to pass to `set`, read before the answer is worked out; a new listing empties the cache. */
  current(): object {
    const listing = this.currentListing();
    if (listing !== this.listing) {
      this.answers.clear();
      this.listing = listing;
    }
    return listing;
  }

  /** Keeps an answer worked out under `listing`; dropped when the listing has changed meanwhile. */
  set(key: string, value: V, listing: object): void {
    if (listing !== this.listing) return;
    if (this.answers.size >= this.maxEntries) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(key, value);
  }

  get size(): number {
    return this.answers.size;
  }
}
