// Combo orders: two TAIFEX legs traded as one at a net price, which the official simulation refuses. The desk places,
// cancels and keeps them; combo-matching.ts matches them against the combo's book and tape.

import { type Account, type AccountSelector, accountKeyOf } from '../../../domain/accounts.js';
import type { ComboContract, ContractInfo, FuturesInfo, OptionInfo } from '../../../domain/contracts.js';
import { InvalidRequestError } from '../../../domain/errors.js';
import { expiryCloseAt } from '../../../domain/final-settlement.js';
import { orderStillWorking } from '../../../domain/order-change-rules.js';
import { OP_CODE_REJECTED } from '../../../domain/order-messages.js';
import type { OrderViolation } from '../../../domain/order-rules.js';
import { orderViolations, stopsTheCheck } from '../../../domain/order-violations.js';
import {
  type Action,
  blankStatus,
  type ComboOrderRequest,
  type ComboTrade,
  type ComboTradeLeg,
  type Deal,
  futuresOrderRequest,
  isFinalStatus,
  type OrderEvent,
  requireFiniteNumbers,
} from '../../../domain/orders.js';
import type { ClockMode } from '../../../domain/sessions.js';
import type { PlaceComboInput } from '../../port.js';
import type { SimContracts } from '../contracts.js';
import { phaseAt } from '../exchange/phases.js';
import { COMBO_SIGNS, type SimMarket } from '../market/market.js';
import { ComboMatching, comboReport, type LegInfos } from './combo-matching.js';
import { acknowledge, nameViolations, refuse, requireValidCustomField } from './trade-records.js';

export interface ComboRecord {
  kind: 'combo';
  trade: ComboTrade;
  accountKey: string;
  combo: ComboContract;
  queueAhead: number;
  cursor: { day: string; count: number } | null;
  placedAt: number;
  /** When it joined the queue at its price. */
  queuedAt?: number;
  /** The fills (counted from 1) that took depth on arrival; the others came from combo trades it rested for. */
  takerFills?: number[];
}

/** One leg's deal of one combo fill, as the account books it. */
export interface LegFill {
  accountKey: string;
  trade: ComboTrade;
  info: ContractInfo;
  action: Action;
  deal: Deal;
  /** Per combo order, from 1, counting both legs' deals. */
  dealSeq: number;
}

/** What the combo desk needs from the order desk: ids, accounts, margin, booking and the journal. */
export interface ComboHost {
  nextIds(): { id: string; seqno: string; ordno: string };
  futuresAccount(selector: AccountSelector | undefined): Account;
  availableMargin(accountKey: string): number;
  marginPerContract(info: ContractInfo): number;
  bookLeg(fill: LegFill): void;
  persistCombo(record: ComboRecord, events: OrderEvent[]): void;
  infoOn(code: string, day: string): ContractInfo;
}

export const isComboRecord = (record: unknown): record is ComboRecord =>
  typeof record === 'object' && record !== null && (record as { kind?: unknown }).kind === 'combo';

export class ComboDesk {
  readonly records = new Map<string, ComboRecord>();
  /** The combos that are not finished. */
  private readonly working = new Set<ComboRecord>();
  private readonly matching: ComboMatching;

  constructor(
    private readonly host: ComboHost,
    private readonly market: SimMarket,
    private readonly contracts: SimContracts,
    private readonly mode: ClockMode,
  ) {
    this.matching = new ComboMatching(market, (fill) => host.bookLeg(fill));
  }

  place(input: PlaceComboInput, now: number): ComboTrade {
    requireFiniteNumbers(input.order, 'order');
    const order: ComboOrderRequest = { ...futuresOrderRequest(input.order), combo_type: input.comboType };
    requireValidCustomField(order.custom_field);
    const { combo, action } = this.comboOf(input);
    order.action = action;
    const account = this.host.futuresAccount(order.account);
    const record = this.newRecord(combo, order, account, now);
    const infos = this.legInfos(record, now);
    const phase = phaseAt(this.mode, 'futures', null, now);
    const violations = orderViolations({
      market: 'combo',
      order,
      comboType: combo.combo_type,
      securityType: combo.legs[0].security_type === 'OPT' ? 'OPT' : 'FUT',
      phase,
      expiredLeg: expiredLegOf(infos, now),
    });
    const margin = violations.some(stopsTheCheck) ? null : this.marginViolation(record, infos);
    const [first, ...others] = margin ? [...violations, margin] : violations;
    const status = record.trade.status;
    const events: OrderEvent[] = [];
    if (first) {
      refuse(status, [first, ...others]);
      events.push(comboReport(record, infos, 'New', first.opCode, first.message, now));
    } else {
      acknowledge(status, 'futures', order.price, order.quantity, now);
      events.push(comboReport(record, infos, 'New', '00', '', now), ...this.matching.enter(record, infos, now));
    }
    this.commit(record, events);
    return structuredClone(record.trade);
  }

  cancel(record: ComboRecord, now: number): ComboTrade {
    const infos = this.legInfos(record, now);
    const refusal = orderStillWorking({ status: record.trade.status });
    if (refusal) {
      this.commit(record, [comboReport(record, infos, 'Cancel', refusal.opCode, refusal.message, now)]);
      const answer = structuredClone(record.trade);
      nameViolations(answer.status, [refusal]);
      return answer;
    }
    this.commit(record, this.matching.cancelRest(record, infos, now, ''));
    return structuredClone(record.trade);
  }

  /** Lets open combos meet the combo tape's trades up to now; a combo left open at the end of its day expires. */
  sync(now: number): void {
    for (const record of [...this.working]) {
      if (!record.cursor) continue;
      const events = this.matching.meetTrades(record, this.legInfos(record, now), now);
      if (events.length > 0) this.commit(record, events);
    }
  }

  /** Forgets every combo, before they are read back from the journal. */
  clear(): void {
    this.records.clear();
    this.working.clear();
    this.matching.memory.clear();
  }

  /** Keeps a combo, and in the working set while it can still trade. */
  remember(record: ComboRecord): void {
    this.records.set(record.trade.order.id, record);
    if (isFinalStatus(record.trade.status.status)) this.working.delete(record);
    else this.working.add(record);
  }

  /** The combos of an account that can still trade. */
  *workingOf(accountKey: string): Iterable<ComboRecord> {
    for (const record of this.working) if (record.accountKey === accountKey) yield record;
  }

  private commit(record: ComboRecord, events: OrderEvent[]): void {
    this.host.persistCombo(record, events);
    this.remember(record);
  }

  /**
   * Books a journaled leg deal again when the desk is rebuilt at start; the book memory only for a deal of the
   * futures market's day at `now` (a past day's combo book is never matched against again). `bookInLedger` false: the
   * ledger's checkpoint holds the deal already.
   */
  replayDeal(record: ComboRecord, code: string, deal: Deal, dealSeq: number, now: number, bookInLedger = true): void {
    const leg = record.trade.contract.legs.find((l) => l.code === code);
    if (!leg) return;
    const day = this.market.dayAt('futures', deal.ts * 1000);
    if (bookInLedger) {
      const info = this.host.infoOn(code, day);
      const { accountKey, trade } = record;
      this.host.bookLeg({ accountKey, trade, info, action: leg.action, deal, dealSeq });
    }
    if (day === this.market.dayAt('futures', now)) this.matching.replayDeal(record, code, deal);
  }

  // ---- placing ----

  /** The combo the legs make and the direction of the order: from the legs' actions (legacy) or the order's. */
  private comboOf(input: PlaceComboInput): { combo: ComboContract; action: Action } {
    const named = input.legs.filter((leg) => leg.action !== undefined).length;
    if (named !== 0 && named !== input.legs.length) {
      throw new InvalidRequestError(
        'give every combo leg an action (legacy form) or none (the direction comes from order.action), not a mix',
      );
    }
    const combo = this.contracts.createCombo(
      input.legs.map(({ action: _action, ...leg }) => leg),
      input.comboType,
    );
    if (named === 0) return { combo, action: input.order.action };
    const actionOf = (code: string) => input.legs.find((leg) => leg.code === code)!.action!;
    const asBought = legActions(combo, 'Buy');
    const given = combo.legs.map((leg) => actionOf(leg.code));
    if (given.every((a, i) => a === asBought[i])) return { combo, action: 'Buy' };
    if (given.every((a, i) => a !== asBought[i])) return { combo, action: 'Sell' };
    throw new InvalidRequestError(
      `the legs' actions (${given.join(', ')}) do not make a ${combo.combo_type}: buying it is ` +
        `${asBought.join(', ')} and selling it the opposite`,
    );
  }

  private newRecord(combo: ComboContract, order: ComboOrderRequest, account: Account, now: number): ComboRecord {
    const ids = this.host.nextIds();
    const actions = legActions(combo, order.action);
    const legs = combo.legs.map(
      (leg, i): ComboTradeLeg => ({
        security_type: leg.security_type,
        exchange: leg.exchange,
        code: leg.code,
        target_code: null,
        action: actions[i]!,
      }),
    ) as [ComboTradeLeg, ComboTradeLeg];
    const trade: ComboTrade = {
      contract: { legs },
      order: {
        ...ids,
        action: order.action,
        price: order.price,
        quantity: order.quantity,
        time_in_force: order.order_type,
        order_type: order.order_type,
        price_type: order.price_type,
        octype: order.octype,
        account,
        combo_type: combo.combo_type,
      },
      status: { ...blankStatus(ids.id, 'PendingSubmit', Math.round(now) / 1000), deals: {} },
    };
    const accountKey = accountKeyOf(account);
    return { kind: 'combo', trade, accountKey, combo, queueAhead: 0, cursor: null, placedAt: now };
  }

  private legInfos(record: ComboRecord, at: number): LegInfos {
    const day = record.cursor?.day ?? this.market.dayAt('futures', at);
    const [a, b] = record.trade.contract.legs;
    return [this.host.infoOn(a.code, day), this.host.infoOn(b.code, day)];
  }

  /** Futures legs and sold option legs need their margin; bought option legs pay their premium. */
  private marginViolation(record: ComboRecord, infos: ContractInfo[]): OrderViolation | null {
    const { legs } = record.trade.contract;
    const perCombo = infos.reduce((sum, info, i) => {
      const derivative = info as FuturesInfo | OptionInfo;
      if (info.security_type === 'OPT' && legs[i]!.action === 'Buy') {
        return sum + derivative.reference * derivative.multiplier;
      }
      return sum + this.host.marginPerContract(info);
    }, 0);
    const need = Math.ceil(perCombo * record.trade.order.quantity);
    const available = this.host.availableMargin(record.accountKey);
    if (need <= available) return null;
    const money = (n: number) => `NT$${Math.round(n).toLocaleString('en-US')}`;
    return {
      rule: 'sufficientMargin',
      opCode: OP_CODE_REJECTED,
      message: `insufficient margin: the combo needs ${money(need)}, available ${money(available)}`,
    };
  }
}

/** Each leg's action when the combo is bought or sold: a leg counting + in the net price is bought with it. */
function legActions(combo: ComboContract, action: Action): Action[] {
  return COMBO_SIGNS[combo.combo_type].map((sign) => (sign > 0 === (action === 'Buy') ? 'Buy' : 'Sell'));
}

/** The first leg whose contract stopped trading by now (13:30 of its last trading day), with that day. */
function expiredLegOf(infos: LegInfos, now: number): { code: string; day: string } | undefined {
  for (const info of infos) {
    if ('last_trading_date' in info && now >= expiryCloseAt(info.last_trading_date)) {
      return { code: info.code, day: info.last_trading_date };
    }
  }
  return undefined;
}
