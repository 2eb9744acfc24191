// `sjgate order place|cancel|update-price|update-qty|list|events`: orders with the official CLI's flags. Enum values are
// written in lower or kebab case (buy, intraday-odd, margin-trading) and sent in the API's spelling (Buy, IntradayOdd).

import { type Command, InvalidArgumentError, Option } from 'commander';
import { contractPath, ORDER_PATHS, SSE_PATHS } from '../../contract/paths.js';
import type { AccountType } from '../../domain/accounts.js';
import {
  ACTIONS,
  type Action,
  FUTURES_OC_TYPE_INPUTS,
  FUTURES_PRICE_TYPES,
  type FuturesOCTypeInput,
  isValidCustomField,
  OP_CODE_OK,
  ORDER_TYPES,
  type OrderStatus,
  type OrderType,
  type PriceType,
  STOCK_ORDER_CONDS,
  STOCK_ORDER_LOTS,
  type StockOrderCond,
  type StockOrderLot,
  type Trade,
} from '../../domain/orders.js';
import type { DaemonClient } from '../client.js';
import { action, UsageError } from '../context.js';
import type { Runtime } from '../daemon.js';
import { formatLine, formatTable, printError, type Row } from '../output.js';
import { account, accountOption, decimal, integerIn, oneOf, text } from '../parsers.js';
import { followStream, printLine, stopSignal, streamAction } from '../stream.js';
import { kebabCase } from './data.js';

/** How `place` (and cancel and updates, unless --no-wait) follow a trade until the exchange has answered. */
export const WAIT = { intervalMs: 200, timeoutMs: 5_000 } as const;

/** Statuses of an order the exchange has not answered yet. */
const UNSETTLED: readonly OrderStatus[] = ['PendingSubmit', 'Inactive'];

export const isSettled = (trade: Trade): boolean => !UNSETTLED.includes(trade.status.status);

const ORDER_SECURITY_TYPES = ['STK', 'WRT', 'FUT', 'OPT'] as const;
type OrderSecurityType = (typeof ORDER_SECURITY_TYPES)[number];
const PRICE_TYPES = [...new Set<PriceType>(['LMT', 'MKT', ...FUTURES_PRICE_TYPES])];

export interface AccountOption {
  broker_id: string;
  account_id: string;
}

export interface PlaceOptions {
  code: string;
  action: Action;
  quantity: number;
  price?: number | undefined;
  priceType?: PriceType | undefined;
  orderType?: OrderType | undefined;
  orderLot?: StockOrderLot | undefined;
  orderCond?: StockOrderCond | undefined;
  octype?: FuturesOCTypeInput | undefined;
  daytradeShort?: boolean | undefined;
  customField?: string | undefined;
  account?: AccountOption | undefined;
  accountId?: AccountOption | undefined;
  securityType?: OrderSecurityType | undefined;
  wait?: boolean | undefined;
}

/** What `place` knows of the contract: the security type decides between stock_order and futures_order. */
export interface OrderContract {
  security_type: string;
  exchange?: string | undefined;
  code: string;
}

export interface PlaceOrderRequest {
  contract: OrderContract;
  stock_order?: Record<string, unknown>;
  futures_order?: Record<string, unknown>;
  timeout?: number;
}

export interface ListOptions {
  account?: AccountOption | undefined;
  accountType?: AccountType | undefined;
}

/**
 * A parser of an enum written in any letter case, in kebab or snake case or as the API spells it:
 * `intraday-odd`, `intraday_odd`, `IntradayOdd` → `IntradayOdd`. Throws InvalidArgumentError listing the choices.
 */
export function enumValue<T extends string>(choices: readonly T[]): (value: string) => T {
  return (value) => {
    const key = value.trim().toLowerCase().replace(/[-_]/g, '');
    const found = choices.find((choice) => choice.toLowerCase() === key);
    if (found === undefined) throw new InvalidArgumentError(`expected one of ${choices.map(kebabCase).join(', ')}`);
    return found;
  };
}

/** A price: a number from 0. */
export function price(value: string): number {
  const number = decimal(value);
  if (number < 0) throw new InvalidArgumentError('expected a price from 0');
  return number;
}

/** custom_field: up to 6 letters or digits. */
export function customField(value: string): string {
  if (!isValidCustomField(value)) throw new InvalidArgumentError('expected up to 6 letters or digits');
  return value;
}

/** stock_order for stocks and warrants, futures_order for futures and options. */
export function orderKindOf(securityType: string): 'stock' | 'futures' {
  if (securityType === 'STK' || securityType === 'WRT') return 'stock';
  if (securityType === 'FUT' || securityType === 'OPT') return 'futures';
  throw new UsageError(`a ${securityType} contract cannot be traded; orders are for STK, WRT, FUT and OPT`);
}

const STOCK_ONLY = [
  ['orderLot', '--order-lot'],
  ['orderCond', '--order-cond'],
  ['daytradeShort', '--daytrade-short'],
] as const;

/**
 * The body of POST /order/place_order for a contract whose security type is known. LMT needs --price; market
 * orders default to price 0. Flags of the other kind of order are a usage error rather than silently dropped.
 */
export function placeOrderRequest(options: PlaceOptions, contract: OrderContract): PlaceOrderRequest {
  if (options.account !== undefined && options.accountId !== undefined) {
    throw new UsageError('give the account once: --account or --account-id');
  }
  const priceType = options.priceType ?? 'LMT';
  if (priceType === 'LMT' && options.price === undefined) throw new UsageError('a LMT order needs --price');
  const kind = orderKindOf(contract.security_type);
  const selected = options.account ?? options.accountId;
  const common = {
    action: options.action,
    price: options.price ?? 0,
    quantity: options.quantity,
    price_type: priceType,
    order_type: options.orderType ?? 'ROD',
    ...(options.customField === undefined ? {} : { custom_field: options.customField }),
    ...(selected === undefined ? {} : { account: selected }),
  };
  const timeout = options.wait === false ? { timeout: 0 } : {};
  if (kind === 'stock') {
    if (options.octype !== undefined)
      throw new UsageError(`--octype is for futures and options; ${contract.code} is a stock`);
    return {
      contract,
      stock_order: {
        ...common,
        ...(options.orderLot === undefined ? {} : { order_lot: options.orderLot }),
        ...(options.orderCond === undefined ? {} : { order_cond: options.orderCond }),
        ...(options.daytradeShort === true ? { daytrade_short: true } : {}),
      },
      ...timeout,
    };
  }
  for (const [key, flag] of STOCK_ONLY) {
    if (options[key] !== undefined)
      throw new UsageError(`${flag} is for stocks; ${contract.code} is ${contract.security_type}`);
  }
  return {
    contract,
    futures_order: { ...common, ...(options.octype === undefined ? {} : { octype: options.octype }) },
    ...timeout,
  };
}

/** The body of POST /order/trades: every account unless --account or --account-type narrows it. */
export function tradesRequest(options: ListOptions): Record<string, string> {
  return {
    ...(options.accountType === undefined ? {} : { account_type: options.accountType }),
    ...(options.account ?? {}),
  };
}

export interface WaitOptions {
  intervalMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls the trades of the trade's account until it is no longer PendingSubmit or Inactive, or until the time is up;
 * returns the latest state seen. A trade without an id (placed without waiting) cannot be found and is returned as is.
 */
export async function settle(
  trade: Trade,
  list: (selector: Record<string, string>) => Promise<Trade[]>,
  options: WaitOptions = {},
): Promise<Trade> {
  const { intervalMs = WAIT.intervalMs, timeoutMs = WAIT.timeoutMs, sleep = pause } = options;
  const id = trade.order.id;
  if (isSettled(trade) || id === '') return trade;
  const selector = { broker_id: trade.order.account.broker_id, account_id: trade.order.account.account_id };
  let latest = trade;
  for (let waited = 0; waited < timeoutMs && !isSettled(latest); waited += intervalMs) {
    await sleep(intervalMs);
    latest = (await list(selector)).find((t) => t.order.id === id) ?? latest;
  }
  return latest;
}

/** The code as ordered, with the month of a continuous alias: `TXFR1 (TXFL6)`. */
function codeOf(trade: Trade): string {
  const { code, target_code: target } = trade.contract;
  return target !== null && target !== '' && target !== code ? `${code} (${target})` : code;
}

/** One row per trade: id, code, action, price (or the market price type), quantity, status, filled, msg. */
export function tradeRow(trade: Trade): Row {
  const { order, status } = trade;
  return {
    id: order.id === '' ? '-' : order.id,
    code: codeOf(trade),
    action: order.action,
    price: order.price_type === 'LMT' ? order.price : order.price_type,
    type: order.order_type,
    qty: order.quantity,
    status: status.status,
    filled: status.deal_quantity,
    cancelled: status.cancel_quantity,
    msg: status.msg,
  };
}

export function formatTrades(trades: readonly Trade[]): string {
  return formatTable(trades.map(tradeRow));
}

/** A trade still unsettled after the wait is printed as it is, with a hint on stderr. */
function warnIfUnsettled(trade: Trade): void {
  if (isSettled(trade)) return;
  const where = trade.order.id === '' ? 'the order events' : '`sjgate order list`';
  printError(`note: the order is still ${trade.status.status}; follow it with ${where}`);
}

// --- order events ------------------------------------------------------------------------------------------------

/** An order_event as the stream sends it: `{state, data: {<state>: body}}`. */
export interface OrderEventMessage {
  state: string;
  data: Record<string, Row | undefined>;
}

type Body = Record<string, unknown>;

const objectOr = (value: unknown): Body =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : {};

/** The body of a wrapped event (the flat form, without `state`, is taken as its own body). */
export function orderEventBody(event: unknown): Body {
  const wrapped = objectOr(event);
  return typeof wrapped.state === 'string' ? objectOr(objectOr(wrapped.data)[wrapped.state]) : wrapped;
}

/** The account an event belongs to: an order report's order.account, a deal's broker_id and account_id. */
export function accountOfEvent(event: unknown): AccountOption | null {
  const body = orderEventBody(event);
  const fromOrder = objectOr(objectOr(body.order).account);
  const broker = fromOrder.broker_id ?? body.broker_id;
  const id = fromOrder.account_id ?? body.account_id;
  return typeof broker === 'string' && typeof id === 'string' ? { broker_id: broker, account_id: id } : null;
}

/** Epoch seconds as the Taiwan time of day, HH:MM:SS. */
function taipeiTime(epochSeconds: unknown): string | null {
  if (typeof epochSeconds !== 'number' || !Number.isFinite(epochSeconds) || epochSeconds <= 0) return null;
  return new Date(epochSeconds * 1000 + 8 * 3_600_000).toISOString().slice(11, 19);
}

const EVENT_COLUMNS = ['time', 'state', 'op_type', 'code', 'action', 'price', 'quantity', 'ordno', 'status'];
const EVENT_WIDTHS = [8, 12, 11, 10, 6, 9, 8, 9, 0];

/**
 * One order event as a row: time (Taiwan), state, op_type (Deal for deals), code (futures: the contract, e.g.
 * TXFL6, not the root), action, price (a market order: its price type), quantity, ordno, status (ok, or the op_code
 * and message of a refusal; a deal is `filled`).
 */
export function orderEventCells(event: unknown): unknown[] {
  const state = objectOr(event).state;
  const body = orderEventBody(event);
  const operation = objectOr(body.operation);
  if ('operation' in body || 'order' in body) {
    const order = objectOr(body.order);
    const contract = objectOr(body.contract);
    const status = objectOr(body.status);
    const code = contract.full_code || contract.code;
    const ok = operation.op_code === OP_CODE_OK;
    return [
      taipeiTime(status.exchange_ts),
      state,
      operation.op_type,
      code,
      order.action,
      order.price_type === undefined || order.price_type === 'LMT' ? order.price : order.price_type,
      order.quantity,
      order.ordno || null,
      ok ? 'ok' : `${operation.op_code ?? ''} ${operation.op_msg ?? ''}`.trim() || null,
    ];
  }
  return [
    taipeiTime(body.ts),
    state,
    'Deal',
    body.full_code || body.code,
    body.action,
    body.price,
    body.quantity,
    body.ordno,
    'filled',
  ];
}

export function formatOrderEventHeader(): string {
  return formatLine(EVENT_COLUMNS, EVENT_WIDTHS, { header: true });
}

export function formatOrderEvent(event: unknown): string {
  return formatLine(orderEventCells(event), EVENT_WIDTHS);
}

export interface EventsOptions {
  account?: AccountOption | undefined;
}

/** Whether an event passes --account. */
export function eventMatches(event: unknown, wanted: AccountOption | undefined): boolean {
  if (wanted === undefined) return true;
  const owner = accountOfEvent(event);
  return owner !== null && owner.broker_id === wanted.broker_id && owner.account_id === wanted.account_id;
}

const listOf = (client: DaemonClient) => (selector: Record<string, string>) =>
  client.post<Trade[]>(ORDER_PATHS.trades, selector);

const noWaitOption = (what: string) =>
  new Option('--no-wait', `return the API's answer at once instead of waiting for ${what}`);

export function registerOrder(program: Command, runtime: Runtime): void {
  const order = program
    .command('order')
    .description('place, change and cancel orders; list trades')
    .addHelpText(
      'after',
      `
Enum values may be written in lower or kebab case (buy, intraday-odd, margin-trading) or as the
API spells them (Buy, IntradayOdd, MarginTrading). A refused order is printed with status Failed and
the reason in msg.

Examples:
  $ sjgate order place --code 2330 --action buy --price 1000 --quantity 1
  $ sjgate order place --code TXFR1 --action sell --price-type mkp --order-type ioc --quantity 2
  $ sjgate order update-qty --id 90681873 --quantity 1
  $ sjgate order list --account-type S`,
    );

  order
    .command('place')
    .description('place an order on a stock, warrant, futures or options contract')
    .requiredOption('--code <CODE>', 'product code, e.g. 2330, TXFR1', text)
    .addOption(
      new Option('--action <ACTION>', `${ACTIONS.map(kebabCase).join(' or ')}`)
        .argParser(enumValue(ACTIONS))
        .makeOptionMandatory(),
    )
    .addOption(
      new Option('--quantity <N>', 'lots (odd lots: shares; futures and options: contracts)')
        .argParser(integerIn(1))
        .makeOptionMandatory(),
    )
    .option('--price <PRICE>', 'limit price (required for lmt; market orders: 0)', price)
    .addOption(
      new Option(
        '--price-type <TYPE>',
        `${PRICE_TYPES.map(kebabCase).join(', ')} (default lmt; mkp: futures)`,
      ).argParser(enumValue(PRICE_TYPES)),
    )
    .addOption(
      new Option('--order-type <TYPE>', `${ORDER_TYPES.map(kebabCase).join(', ')} (default rod)`).argParser(
        enumValue(ORDER_TYPES),
      ),
    )
    .addOption(
      new Option(
        '--order-lot <LOT>',
        `stocks: ${STOCK_ORDER_LOTS.map(kebabCase).join(', ')} (default common)`,
      ).argParser(enumValue(STOCK_ORDER_LOTS)),
    )
    .addOption(
      new Option(
        '--order-cond <COND>',
        `stocks: ${STOCK_ORDER_CONDS.map(kebabCase).join(', ')} (default cash)`,
      ).argParser(enumValue(STOCK_ORDER_CONDS)),
    )
    .option('--daytrade-short', 'stocks: sell first, buy back the same day')
    .addOption(
      new Option(
        '--octype <TYPE>',
        `futures and options: ${FUTURES_OC_TYPE_INPUTS.map(kebabCase).join(', ')} (default auto)`,
      ).argParser(enumValue(FUTURES_OC_TYPE_INPUTS)),
    )
    .option('--custom-field <TEXT>', 'a memo of up to 6 letters or digits, echoed in order reports', customField)
    .addOption(accountOption())
    .addOption(new Option('--account-id <BROKER-ACCOUNT>', 'same as --account').argParser(account).hideHelp())
    .addOption(
      new Option(
        '--security-type <TYPE>',
        `${ORDER_SECURITY_TYPES.join(', ')} (default: looked up from the code)`,
      ).argParser(oneOf(ORDER_SECURITY_TYPES)),
    )
    .addOption(noWaitOption('the exchange (timeout 0: status Inactive, ids follow in the order events)'))
    .addHelpText(
      'after',
      `
Without --no-wait the command follows the trade (every ${WAIT.intervalMs} ms, up to ${WAIT.timeoutMs / 1000} s) until the
exchange has answered, then prints it.

Examples:
  $ sjgate order place --code 2330 --action buy --price 1000 --quantity 1
  $ sjgate order place --code 2330 --action buy --price 1000 --quantity 50 --order-lot intraday-odd
  $ sjgate order place --code TXFR1 --action sell --price 22000 --quantity 1 --octype new
  $ sjgate order place --code MXFR1 --action buy --price-type mkp --order-type ioc --quantity 1 --no-wait`,
    )
    .action(
      action<PlaceOptions>(runtime, async (cli, options) => {
        const trade = await cli.call(async (client) => {
          const contract: OrderContract =
            options.securityType === undefined
              ? await client.get<OrderContract>(contractPath(options.code))
              : { security_type: options.securityType, code: options.code };
          const body = placeOrderRequest(options, {
            security_type: contract.security_type,
            ...(contract.exchange === undefined ? {} : { exchange: contract.exchange }),
            code: options.code,
          });
          const placed = await client.post<Trade>(ORDER_PATHS.placeOrder, body);
          return options.wait === false ? placed : settle(placed, listOf(client));
        });
        if (options.wait !== false) warnIfUnsettled(trade);
        cli.emit(trade, (value) => formatTrades([value]));
      }),
    );

  const change = (
    name: string,
    path: string,
    description: string,
    extra: Option | null,
    bodyOf: (options: { id: string; price?: number; quantity?: number }) => Record<string, unknown>,
    example: string,
  ) => {
    const command = order
      .command(name)
      .description(description)
      .requiredOption('--id <TRADE_ID>', 'the trade id (order.id, the first column of `order list`)', text);
    if (extra) command.addOption(extra);
    command
      .addOption(noWaitOption('the exchange to answer'))
      .addHelpText('after', `\nExample:\n  $ sjgate order ${example}`)
      .action(
        action<{ id: string; price?: number; quantity?: number; wait?: boolean }>(runtime, async (cli, options) => {
          const trade = await cli.call(async (client) => {
            const changed = await client.post<Trade>(path, bodyOf(options));
            return options.wait === false ? changed : settle(changed, listOf(client));
          });
          cli.emit(trade, (value) => formatTrades([value]));
        }),
      );
  };

  change(
    'cancel',
    ORDER_PATHS.cancelOrder,
    'cancel what is left of an order',
    null,
    (o) => ({ trade_id: o.id }),
    'cancel --id 90681873',
  );
  change(
    'update-price',
    ORDER_PATHS.updatePrice,
    "change a working limit order's price",
    new Option('--price <PRICE>', 'the new limit price').argParser(price).makeOptionMandatory(),
    (o) => ({ trade_id: o.id, price: o.price }),
    'update-price --id 90681873 --price 1005',
  );
  change(
    'update-qty',
    ORDER_PATHS.updateQty,
    'reduce a working order by a quantity (it keeps its price and place in the queue)',
    new Option('--quantity <N>', 'how many to cancel').argParser(integerIn(1)).makeOptionMandatory(),
    (o) => ({ trade_id: o.id, quantity: o.quantity }),
    'update-qty --id 90681873 --quantity 1',
  );

  order
    .command('list')
    .description('the trades of every account, oldest first (or of one account or account type)')
    .addOption(accountOption('every account'))
    .addOption(new Option('--account-type <S|F>', 'the account type').argParser(oneOf(['S', 'F'] as const)))
    .addHelpText(
      'after',
      '\nExamples:\n  $ sjgate order list\n  $ sjgate order list --account-type F\n  $ sjgate order list --account 9A95-1234567',
    )
    .action(
      action<ListOptions>(runtime, async (cli, options) => {
        const body = tradesRequest(options);
        const trades = await cli.call((client) => client.post<Trade[]>(ORDER_PATHS.trades, body));
        cli.emit(trades, formatTrades);
      }),
    );

  order
    .command('events')
    .description('print order and deal reports (order_event) as they happen, until Ctrl+C')
    .addOption(
      new Option(
        '--account <BROKER-ACCOUNT>',
        'only the reports of this account, e.g. 9A95-1234567 (default: every account)',
      ).argParser(account),
    )
    .addHelpText(
      'after',
      `
Follows GET ${SSE_PATHS.orderEvent}, which carries the reports of the accounts subscribed
with \`sjgate auth subscribe-trade\`. A dropped connection is reopened (1 s, doubling up to 15 s)
with the id of the last event seen, so the daemon sends what was missed, once.

Output: one JSON object per line, each event as the stream sends it ({state, data: {<state>: {...}}}),
with --format json or when stdout is not a terminal (and --format is not given); otherwise a row per
event: time, state, op_type (Deal for deals), code, action, price, quantity, ordno, status.

Examples:
  $ sjgate order events
  $ sjgate order events --account 9A95-1234567
  $ sjgate order events --format json | jq 'select(.state == "StockDeal")'`,
    )
    .action(
      streamAction<EventsOptions>(runtime, async (cli, options, json) => {
        const { signal, dispose } = stopSignal();
        if (process.stderr.isTTY) printError('Watching order events (Ctrl+C to stop)');
        if (!json) printLine(formatOrderEventHeader());
        try {
          await cli.call((client) =>
            followStream(
              client,
              SSE_PATHS.orderEvent,
              (message) => {
                if (message.event === 'order_event_gap') {
                  printError('warning: the daemon dropped order events this client was too slow to read');
                  return;
                }
                if (message.event !== 'order_event') return;
                const event = JSON.parse(message.data) as unknown;
                if (!eventMatches(event, options.account)) return;
                printLine(json ? JSON.stringify(event) : formatOrderEvent(event));
              },
              { signal },
            ),
          );
        } finally {
          dispose();
        }
      }),
    );
}
