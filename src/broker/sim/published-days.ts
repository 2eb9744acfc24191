// What market data reads of an instrument: the contract a request names (a product by code, or a futures combo by
// its legs) and the ticks of one of its days as published by now.

import { isTradingDay } from '../../domain/calendar.js';
import type { ComboContract, ContractInfo } from '../../domain/contracts.js';
import { NotFoundError } from '../../domain/errors.js';
import {
  type ComboRef,
  type ContractRef,
  emptyTicks,
  type InstrumentRef,
  isComboRef,
  type Ticks,
} from '../../domain/market-data.js';
import type { Clock } from '../../domain/time.js';
import type { SimContracts } from './contracts.js';
import { HISTORY_START } from './market/daily.js';
import { ticksOf } from './market/history.js';
import { marketOf, type SimMarket } from './market/market.js';
import { publishedCount, type Tape } from './market/tape.js';

const FUTURES_HISTORY_START = '2020-03-22';

export class PublishedDays {
  constructor(
    private readonly market: SimMarket,
    private readonly contracts: SimContracts,
    private readonly clock: Clock,
  ) {}

  /** Resolves a contract named by code (security type and exchange optional) in today's catalog. */
  resolve(ref: ContractRef): ContractInfo {
    const info = this.contracts.info(ref.code, { securityType: ref.security_type });
    if (ref.exchange && ref.exchange !== info.exchange) {
      throw new NotFoundError('CONTRACT_NOT_FOUND', `${ref.code} is listed on ${info.exchange}, not ${ref.exchange}`);
    }
    return info;
  }

  combo(ref: ComboRef): ComboContract {
    const legs = ref.legs.map((leg) => {
      const info = this.resolve(leg);
      return { security_type: info.security_type, exchange: info.exchange, code: info.code };
    });
    return this.contracts.createCombo(legs, (ref.combo_type ?? undefined) as ComboContract['combo_type'] | undefined);
  }

  dayOrCurrent(date: string | undefined, type: ContractInfo['security_type']): string {
    return date ?? this.market.dayAt(type === 'FUT' || type === 'OPT' ? 'futures' : 'stock', this.clock.now());
  }

  /**
   * The ticks of a day as published by now: the whole day in the past, what has traded so far today, or only the
   * last `lastCount` of them. A stock day ends with its 14:30 fixed-price match once it printed, as the official
   * ticks do (it is in no minute bar).
   */
  dayTicks(ref: InstrumentRef, date: string | undefined, lastCount = Number.POSITIVE_INFINITY): Ticks {
    const board = this.publishedTape(ref, date);
    const fixed = isComboRef(ref) ? null : this.fixedPriceTape(this.resolve(ref), date);
    const fixedCount = fixed ? publishedCount(fixed, this.clock.now()) : 0;
    const boardCount = board?.count ?? 0;
    const boardFrom = Math.max(0, boardCount - Math.max(0, lastCount - fixedCount));
    const ticks = board ? ticksOf(board.tape, boardFrom, boardCount) : emptyTicks();
    const fixedFrom = Math.max(0, fixedCount - lastCount);
    if (!fixed || fixedFrom >= fixedCount) return ticks;
    const after = ticksOf(fixed, fixedFrom, fixedCount);
    for (const key of Object.keys(ticks) as (keyof Ticks)[]) (ticks[key] as unknown[]).push(...after[key]);
    return ticks;
  }

  /** A stock day's fixed-price match, when the day has one (never on the always-open clock); null otherwise. */
  fixedPriceTape(info: ContractInfo, date: string | undefined): Tape | null {
    if (info.security_type !== 'STK') return null;
    const day = this.dayOrCurrent(date, 'STK');
    if (this.market.session('stock', day).auctions[1] === undefined || !this.tapeOn(info, day)) return null;
    return this.market.fixedPriceTape(this.market.listings.stockOn(info.code, day), day);
  }

  /** A day's tape of an instrument with how many of its trades are published by now; null when it has no trading. */
  publishedTape(ref: InstrumentRef, date: string | undefined): { tape: Tape; count: number } | null {
    let tape: Tape | null;
    if (isComboRef(ref)) {
      tape = this.comboTapeOn(this.combo(ref), date);
    } else {
      const info = this.resolve(ref);
      tape = this.tapeOn(info, this.dayOrCurrent(date, info.security_type));
    }
    return tape && { tape, count: publishedCount(tape, this.clock.now()) };
  }

  /** A day's tape of a contract, or null when the day has no trading for it (holiday, future, before history). */
  private tapeOn(info: ContractInfo, day: string): Tape | null {
    const futures = marketOf(info) === 'futures';
    if (!isTradingDay(day) || day < (futures ? FUTURES_HISTORY_START : HISTORY_START)) return null;
    if (day > this.market.dayAt(marketOf(info), this.clock.now())) return null;
    const listed = this.market.listings.infoOn(info.code, day);
    return listed ? this.market.tape(listed, day, this.clock.now()) : null;
  }

  private comboTapeOn(combo: ComboContract, date: string | undefined): Tape | null {
    const day = this.dayOrCurrent(date, 'FUT');
    if (!isTradingDay(day) || day > this.market.dayAt('futures', this.clock.now())) return null;
    return this.market.comboTape(combo, day);
  }
}
