// What the portfolio views need to know about the market; the simulator's market implements it.

export interface PortfolioMarket {
  /** Latest trade price of the code at `at` (the reference before the day's first trade). */
  lastPrice(code: string, at: number): number;
  /** Initial and maintenance margin of one contract of a futures code, or of one short option. */
  marginOf(code: string): { initial: number; maintenance: number };
  /** The trading day an instant belongs to for stocks. */
  tradingDay(at: number): string;
}
