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
   * The ticks of a day as published by now: the whole day in the past, what has traded so far today. A stock day
   * ends with its 14:30 fixed-price match once it printed, as the official ticks do (it is in no minute bar).
   */
  dayTicks(ref: InstrumentRef, date: string | undefined): Ticks {
    const { ticks } = this.publishedDay(ref, date);
    const fixed = isComboRef(ref) ? null : this.fixedPriceTape(this.resolve(ref), date);
    if (!fixed) return ticks;
    const after = ticksOf(fixed, 0, publishedCount(fixed, this.clock.now()));
    for (const key of Object.keys(ticks) as (keyof Ticks)[]) (ticks[key] as unknown[]).push(...after[key]);
    return ticks;
  }

  /** A stock day's fixed-price match, when the day has trading; null for other instruments. */
  fixedPriceTape(info: ContractInfo, date: string | undefined): Tape | null {
    if (info.security_type !== 'STK') return null;
    const day = this.dayOrCurrent(date, 'STK');
    if (!this.tapeOn(info, day)) return null;
    return this.market.fixedPriceTape(this.market.listings.stockOn(info.code, day), day);
  }

  /** A day's published ticks with the NT$ amount of one unit of their volume. */
  publishedDay(ref: InstrumentRef, date: string | undefined): { ticks: Ticks; amountUnit: number } {
    if (isComboRef(ref)) return { ticks: this.comboTicks(this.combo(ref), date), amountUnit: 1 };
    const info = this.resolve(ref);
    const tape = this.tapeOn(info, this.dayOrCurrent(date, info.security_type));
    if (!tape) return { ticks: emptyTicks(), amountUnit: 1 };
    return { ticks: ticksOf(tape, 0, publishedCount(tape, this.clock.now())), amountUnit: tape.amountUnit };
  }

  /** A day's tape of a contract, or null when the day has no trading for it (holiday, future, before history). */
  private tapeOn(info: ContractInfo, day: string): Tape | null {
    const futures = marketOf(info) === 'futures';
    if (!isTradingDay(day) || day < (futures ? FUTURES_HISTORY_START : HISTORY_START)) return null;
    if (day > this.market.dayAt(marketOf(info), this.clock.now())) return null;
    const listed = this.market.listings.infoOn(info.code, day);
    return listed ? this.market.tape(listed, day) : null;
  }

  private comboTicks(combo: ComboContract, date: string | undefined): Ticks {
    const day = this.dayOrCurrent(date, 'FUT');
    if (!isTradingDay(day) || day > this.market.dayAt('futures', this.clock.now())) return emptyTicks();
    const tape = this.market.comboTape(combo, day);
    return ticksOf(tape, 0, publishedCount(tape, this.clock.now()));
  }
}
