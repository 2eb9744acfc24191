// What the user's own orders did to the market's book, kept apart from the tape (which stays a pure function of
// seed, clock mode, code and day): the depth their marketable orders took at each price, which comes back with a
// half-life, and how much of each tape trade went to their resting orders, so that one trade's volume fills them
// once. It follows from the orders' fills alone, so a restart rebuilds it from the journal's deals.

export type BookSideName = 'bid' | 'ask';

interface Taken {
  at: number;
  price: number;
  quantity: number;
}

/** Below this fraction left, a take has come back: it is dropped (2^-20, twenty half-lives). */
const FORGOTTEN = 2 ** -20;

export class BookMemory {
  /** By book (tape) and side: the takes of marketable orders, oldest first. */
  private readonly takes = new Map<string, Taken[]>();
  /** By book, side and trade index: the volume of that tape trade the user's resting orders got. */
  private readonly shares = new Map<string, number>();

  clear(): void {
    this.takes.clear();
    this.shares.clear();
  }

  /** A marketable order took `quantity` at `price` at an instant. */
  take(book: string, side: BookSideName, price: number, quantity: number, at: number, halfLifeMs: number): void {
    const key = `${book}|${side}`;
    const list = (this.takes.get(key) ?? []).filter((t) => refillLeft(t, at, halfLifeMs) > FORGOTTEN);
    list.push({ at, price, quantity });
    list.sort((a, b) => a.at - b.at);
    this.takes.set(key, list);
  }

  /** The depth taken at a price that has not come back by an instant; takes after the instant do not count. */
  takenAt(book: string, side: BookSideName, price: number, at: number, halfLifeMs: number): number {
    let taken = 0;
    for (const t of this.takes.get(`${book}|${side}`) ?? []) {
      if (t.price === price && t.at <= at) taken += t.quantity * refillLeft(t, at, halfLifeMs);
    }
    return taken;
  }

  /** How much of a tape trade's volume the user's resting orders on one side got already. */
  shared(book: string, side: BookSideName, trade: number): number {
    return this.shares.get(`${book}|${side}|${trade}`) ?? 0;
  }

  share(book: string, side: BookSideName, trade: number, quantity: number): void {
    const key = `${book}|${side}|${trade}`;
    this.shares.set(key, (this.shares.get(key) ?? 0) + quantity);
  }
}

/** The fraction of a take not yet refilled at an instant: 2^(-elapsed/half-life). */
function refillLeft(taken: Taken, at: number, halfLifeMs: number): number {
  return 2 ** (-Math.max(0, at - taken.at) / halfLifeMs);
}
