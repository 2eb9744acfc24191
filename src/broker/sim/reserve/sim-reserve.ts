// The simulated broker's pre-collection desk (預收券款): sets aside shares of a holding (reserve_stock) or cash for a
// buy (reserve_earmarking) for the trading day, and lists them. What it refuses is an answer with status false and
// the reason in info, as SinoPac answers; a malformed request is an error.

import { type Account, type AccountSelector, accountKeyOf } from '../../../domain/accounts.js';
import { type Contract, contractOf } from '../../../domain/contracts.js';
import { InvalidRequestError } from '../../../domain/errors.js';
import {
  type EarmarkingResult,
  type EarmarkStocksDetail,
  earmarkAmount,
  type ReserveStockResult,
  type ReserveStocksDetail,
  type ReserveStocksSummary,
  requireEarmarkPrice,
  requireReserveShares,
} from '../../../domain/reserve.js';
import { type Clock, taipeiIso } from '../../../domain/time.js';
import type { ReserveEarmarkingInput, ReserveStockInput } from '../../port.js';
import type { SimAccounts } from '../accounts.js';
import type { SimContracts } from '../contracts.js';
import { accountFor } from '../orders/order-requests.js';
import type { Ledger } from '../portfolio/ledger.js';
import type { ReserveBook, ReserveRow, StockFunds } from './reserve-book.js';

/** Taiwan wall-clock time to the second, as the SDK's order_datetime serializes. */
const wallClock = (at: number): string => taipeiIso(at).slice(0, 19);

/** A request as the details list it. */
const detailOf = ({ contract, share, at, status, info }: ReserveRow) => ({
  contract,
  share,
  order_datetime: wallClock(at),
  status,
  info,
});

export class SimReserve {
  constructor(
    private readonly book: ReserveBook,
    private readonly ledger: Ledger,
    private readonly accounts: SimAccounts,
    private readonly contracts: SimContracts,
    private readonly clock: Clock,
  ) {}

  summary(selector: AccountSelector): ReserveStocksSummary {
    const { account, key } = this.stockAccount(selector, 'stock_reserve_summary');
    const held = this.ledger
      .stockPositions(key)
      .filter((p) => p.cond === 'Cash' && p.direction === 'Buy')
      .map((p) => p.code);
    const reserved = this.book.rowsOf(key, 'stock').filter((r) => r.status);
    const codes = [...new Set([...held, ...reserved.map((r) => r.contract.code)])];
    const stocks = codes.map((code) => {
      const reservedShare = this.book.reservedShares(key, code);
      const contract = reserved.find((r) => r.contract.code === code)?.contract ?? this.contractOf(code);
      const available = Math.max(0, this.ledger.heldShares(key, code, 'Cash') - reservedShare);
      return { contract, available_share: available, reserved_share: reservedShare };
    });
    return { stocks, account };
  }

  detail(selector: AccountSelector): ReserveStocksDetail {
    const { account, key } = this.stockAccount(selector, 'stock_reserve_detail');
    return { stocks: this.book.rowsOf(key, 'stock').map(detailOf), account };
  }

  earmarkingDetail(selector: AccountSelector): EarmarkStocksDetail {
    const { account, key } = this.stockAccount(selector, 'earmarking_detail');
    const rows = this.book.rowsOf(key, 'earmark');
    return { stocks: rows.map((row) => ({ ...detailOf(row), price: row.price, amount: row.amount })), account };
  }

  reserveStock(input: ReserveStockInput): ReserveStockResult {
    const { account, key, contract } = this.request(input, 'reserve_stock');
    const { code } = contract;
    const held = this.ledger.heldShares(key, code, 'Cash');
    const reserved = this.book.reservedShares(key, code);
    const sellable = this.funds().sellableShares(key, code);
    const selling = Math.max(0, held - reserved - sellable);
    const status = input.share <= sellable;
    const info = status
      ? `reserved ${input.share} shares of ${code}; they may not be sold today`
      : `cannot reserve ${input.share} shares of ${code}: ${sellable} shares are available ` +
        `(${held} held, ${reserved} reserved already, ${selling} in working sell orders)`;
    this.record({ kind: 'stock', key, contract, share: input.share, price: 0, amount: 0, status, info });
    return { contract, account, share: input.share, status, info };
  }

  reserveEarmarking(input: ReserveEarmarkingInput): EarmarkingResult {
    requireEarmarkPrice(input.price);
    const { account, key, contract } = this.request(input, 'reserve_earmarking');
    const { share, price } = input;
    const amount = earmarkAmount(share, price);
    const available = this.funds().availableCash(key);
    const status = amount <= available;
    const info = status
      ? `earmarked NT$${amount} (${share} shares at ${price}) for ${contract.code}; it is held for today`
      : `cannot earmark NT$${amount} (${share} shares at ${price}): NT$${available} is available ` +
        '(cash less working buy orders and earlier earmarks)';
    this.record({ kind: 'earmark', key, contract, share, price, amount, status, info });
    return { contract, account, share, price, status, info };
  }

  private record(row: Omit<ReserveRow, 'accountKey' | 'at' | 'day'> & { key: string }): void {
    const { key, ...rest } = row;
    this.book.add({ ...rest, accountKey: key, at: this.clock.now(), day: this.book.today() });
  }

  /** The stock account, the stock and the share count of a request; throws for anything malformed. */
  private request(input: ReserveStockInput, what: string): { account: Account; key: string; contract: Contract } {
    requireReserveShares(input.share);
    const { account, key } = this.stockAccount(input.account, what);
    const contract = this.stockOf(input.contract, what);
    return { account, key, contract };
  }

  private stockAccount(selector: AccountSelector, what: string): { account: Account; key: string } {
    const account = accountFor(this.accounts, selector, 'S', what);
    const key = accountKeyOf(account);
    this.ledger.open(key, 'S');
    return { account, key };
  }

  private stockOf(ref: ReserveStockInput['contract'], what: string): Contract {
    const { code } = ref;
    const contract = contractOf(this.contracts.get(code));
    if (contract.security_type !== 'STK' || (ref.security_type ?? 'STK') !== 'STK') {
      throw new InvalidRequestError(
        `${what} is for stocks (security_type STK); ${code} is ${contract.security_type}: name a stock code`,
      );
    }
    return contract;
  }

  private contractOf(code: string): Contract {
    const info = this.contracts.current().find(code);
    return info ? contractOf(info) : { security_type: 'STK', region: 'TW', exchange: 'TSE', code, target_code: null };
  }

  private funds(): StockFunds {
    if (!this.book.funds) throw new Error('the reserve book has no order desk behind it');
    return this.book.funds;
  }
}
