// TAIFEX contract codes: root + (strike) + month letter + last digit of the year.
// Futures and calls use A-L for January-December, puts use M-X.

import type { OptionRight } from './contracts.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWX';

function monthLetter(yearMonth: string, right: OptionRight | null): string {
  const month = Number(yearMonth.slice(4, 6));
  return LETTERS[month - 1 + (right === 'P' ? 12 : 0)]!;
}

/** e.g. futuresCode('TXF', '202605') = 'TXFE6'. */
export function futuresCode(root: string, yearMonth: string): string {
  return `${root}${monthLetter(yearMonth, null)}${yearMonth.slice(3, 4)}`;
}

/** e.g. optionCode('TXO', 32400, 'C', '202605') = 'TXO32400E6'. */
export function optionCode(root: string, strike: number, right: OptionRight, yearMonth: string): string {
  return `${root}${String(strike).padStart(5, '0')}${monthLetter(yearMonth, right)}${yearMonth.slice(3, 4)}`;
}

/** The code of a continuous-month alias: 'TXF' + 1 = 'TXFR1'. */
export function continuousCode(root: string, rank: 1 | 2): string {
  return `${root}R${rank}`;
}
