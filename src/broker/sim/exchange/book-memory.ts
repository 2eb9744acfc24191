// What the user's own orders did to the market's book, kept apart from the tape (which stays a pure function of
// seed, clock mode, code and day): the depth their marketable orders took at each price, which comes back with a
// half-life, and how much of each tape trade went to their resting orders, so that one trade's volume fills them
// once. It follows from the orders' fills alone, so a restart rebuilds it from the journal's deals: each book's when
// it is first read (`defer`), so that a restart builds no tape of a code nobody trades again.

export type BookSideName = 'bid' | 'ask';

/** What is still missing at a price: takes add up, and the sum decays as each of them would. */
interface Missing {
  quantity: number;
  /** The instant `quantity` is as of: the latest take. */
  at: number;
}

export class BookMemory {
  /** By book, side and price: the depth marketable orders took that has not come back. */
  private readonly missing = new Map<string, Missing>();
  /** By book, side and trade index: the volume of that tape trade the user's resting orders got. */
  private readonly shares = new Map<string, number>();
  /** By book: journaled fills not yet put back, in the order they were made; run before the book is read. */
  private readonly deferred = new Map<string, (() => void)[]>();

  clear(): void {
    this.missing.clear();
    this.shares.clear();
    this.deferred.clear();
  }

  /** Puts a journaled fill of a book back only when the book is first read or changed: `replay` takes or shares. */
  defer(book: string, replay: () => void): void {
    const replays = this.deferred.get(book);
    if (replays) replays.push(replay);
    else this.deferred.set(book, [replay]);
  }

  /** Runs the fills deferred for a book, oldest first, so that it reads as if they had been put back at once. */
  private catchUp(book: string): void {
    if (this.deferred.size === 0) return;
    const replays = this.deferred.get(book);
    if (!replays) return;
    this.deferred.delete(book);
    for (const replay of replays) replay();
  }

  /** A marketable order took `quantity` at `price` at an instant. */
  take(book: string, side: BookSideName, price: number, quantity: number, at: number, halfLifeMs: number): void {
    this.catchUp(book);
    const key = `${book}|${side}|${price}`;
    const before = this.missing.get(key);
    if (!before) {
      this.missing.set(key, { quantity, at });
    } else if (at >= before.at) {
      this.missing.set(key, { quantity: before.quantity * refillLeft(at - before.at, halfLifeMs) + quantity, at });
    } else {
      before.quantity += quantity * refillLeft(before.at - at, halfLifeMs);
    }
  }

  /**
   * The depth taken at a price that has not come back by an instant. An instant before the latest take there (a
   * reservation released at the open, met after a later order) sees what was missing as of that take.
   */
  takenAt(book: string, side: BookSideName, price: number, at: number, halfLifeMs: number): number {
    this.catchUp(book);
    const missing = this.missing.get(`${book}|${side}|${price}`);
    if (!missing) return 0;
    return missing.quantity * refillLeft(Math.max(0, at - missing.at), halfLifeMs);
  }

  /** How much of a tape trade's volume the user's resting orders on one side got already. */
  shared(book: string, side: BookSideName, trade: number): number {
    this.catchUp(book);
    return this.shares.get(`${book}|${side}|${trade}`) ?? 0;
  }

  share(book: string, side: BookSideName, trade: number, quantity: number): void {
    this.catchUp(book);
    const key = `${book}|${side}|${trade}`;
    this.shares.set(key, (this.shares.get(key) ?? 0) + quantity);
  }
}

/** The fraction of a take not yet refilled after some time: 2^(-elapsed/half-life). */
function refillLeft(elapsedMs: number, halfLifeMs: number): number {
  return 2 ** (-elapsedMs / halfLifeMs);
}
