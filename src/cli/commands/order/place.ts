// `sjgate order place`: an order on a stock, warrant, futures or options contract.

import { type Command, Option } from 'commander';
import {
  ACTIONS,
  type Action,
  FUTURES_OC_TYPE_INPUTS,
  type FuturesOCTypeInput,
  ORDER_TYPES,
  type OrderType,
  type PriceType,
  STOCK_ORDER_CONDS,
  STOCK_ORDER_LOTS,
  type StockOrderCond,
  type StockOrderLot,
  type Trade,
} from '../../../domain/orders.js';
import { postTo } from '../../client.js';
import { action, type CliEnv, UsageError } from '../../context.js';
import {
  type AccountSelector,
  account,
  accountOption,
  enumValue,
  integerIn,
  kebabCase,
  oneOf,
  text,
} from '../../parsers.js';
import {
  customField,
  noWaitOption,
  ORDER_SECURITY_TYPES,
  type OrderSecurityType,
  PRICE_TYPES,
  price,
  waitMs,
  waitTimeoutOption,
} from './flags.js';
import { isRefused, refusal } from './refusal.js';
import { formatTrades, listOf, settle, TRADE_FIELDS, WAIT, warnIfUnsettled } from './trades.js';

export interface PlaceOptions {
  code: string;
  action: Action;
  quantity: number;
  price?: number | undefined;
  priceType?: PriceType | undefined;
  orderType?: OrderType | undefined;
  tif?: OrderType | undefined;
  timeInForce?: OrderType | undefined;
  orderLot?: StockOrderLot | undefined;
  orderCond?: StockOrderCond | undefined;
  octype?: FuturesOCTypeInput | undefined;
  daytradeShort?: boolean | undefined;
  customField?: string | undefined;
  account?: AccountSelector | undefined;
  accountId?: AccountSelector | undefined;
  /** IND is taken as the official CLI takes it, and refused as it is: an index cannot be ordered. */
  securityType?: OrderSecurityType | 'IND' | undefined;
  wait?: boolean | undefined;
  waitTimeout?: number | undefined;
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

/** stock_order for stocks and warrants, futures_order for futures and options. */
export function orderKindOf(securityType: string): 'stock' | 'futures' {
  if (securityType === 'STK' || securityType === 'WRT') return 'stock';
  if (securityType === 'FUT' || securityType === 'OPT') return 'futures';
  throw new UsageError(`a ${securityType} contract cannot be traded; orders are for STK, WRT, FUT and OPT`);
}

/**
 * The time in force, from --tif, its alias --time-in-force, or the legacy --order-type (all the same meaning);
 * two of them with different values are a usage error naming both. Unset: ROD for a limit order, IOC for a market
 * order (MKT, MKP), which TAIFEX refuses as ROD.
 */
export function timeInForceOf(options: PlaceOptions): OrderType {
  const flags: [string, OrderType | undefined][] = [
    ['--tif', options.tif],
    ['--time-in-force', options.timeInForce],
    ['--order-type', options.orderType],
  ];
  const given = flags.flatMap(([flag, value]) => (value === undefined ? [] : [{ flag, value }]));
  const first = given[0];
  if (first === undefined) return options.priceType === undefined || options.priceType === 'LMT' ? 'ROD' : 'IOC';
  const differing = given.find(({ value }) => value !== first.value);
  if (differing !== undefined) {
    throw new UsageError(
      `${first.flag} ${first.value.toLowerCase()} and ${differing.flag} ${differing.value.toLowerCase()} disagree; ` +
        'they are the same setting, give one',
    );
  }
  return first.value;
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
  const orderType = timeInForceOf(options);
  const priceType = options.priceType ?? 'LMT';
  if (priceType === 'LMT' && options.price === undefined) throw new UsageError('a LMT order needs --price');
  const kind = orderKindOf(contract.security_type);
  const selected = options.account ?? options.accountId;
  const common = {
    action: options.action,
    price: options.price ?? 0,
    quantity: options.quantity,
    price_type: priceType,
    order_type: orderType,
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

export function registerPlace(order: Command, env: CliEnv): void {
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
      new Option(
        '--tif <TIF>',
        `time in force: ${ORDER_TYPES.map(kebabCase).join(', ')} (default rod; ioc for mkt and mkp; also --time-in-force)`,
      ).argParser(enumValue(ORDER_TYPES)),
    )
    .addOption(new Option('--time-in-force <TIF>', 'same as --tif').argParser(enumValue(ORDER_TYPES)).hideHelp())
    .addOption(
      new Option('--order-type <TYPE>', 'the older name of --tif, same values and meaning').argParser(
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
        `${ORDER_SECURITY_TYPES.join(', ')} (default: looked up from the code; IND is refused: an index cannot be ordered)`,
      ).argParser(oneOf([...ORDER_SECURITY_TYPES, 'IND'])),
    )
    .addOption(noWaitOption('the exchange (timeout 0: status Inactive, ids follow in the order events)'))
    .addOption(waitTimeoutOption(WAIT.timeoutMs / 1000))
    .addHelpText(
      'after',
      `
Without --no-wait the command follows the trade (every ${WAIT.intervalMs} ms, up to --wait-timeout seconds) until the
exchange has answered, then prints it; if it has not by then, it prints the trade as it is and says so.

Examples:
  $ sjgate order place --code 2330 --action buy --price 1000 --quantity 1
  $ sjgate order place --code 2330 --action buy --price 1000 --quantity 50 --order-lot intraday-odd
  $ sjgate order place --code TXFR1 --action sell --price 22000 --quantity 1 --octype new
  $ sjgate order place --code MXFR1 --action buy --price-type mkp --quantity 1 --no-wait`,
    )
    .action(
      action<PlaceOptions>(
        env,
        async (cli, options) => {
          timeInForceOf(options);
          const timeoutMs = waitMs(options, WAIT.timeoutMs);
          const trade = await cli.call(async (client) => {
            const contract: OrderContract =
              options.securityType === undefined
                ? await client.contracts.get<OrderContract>(options.code)
                : { security_type: options.securityType, code: options.code };
            const body = placeOrderRequest(options, {
              security_type: contract.security_type,
              ...(contract.exchange === undefined ? {} : { exchange: contract.exchange }),
              code: options.code,
            });
            // The flags' body goes as it is: the daemon names a bad value in its error envelope.
            const placed = await postTo<Trade>(client, (daemon) => daemon.orders.placeOrder, body);
            return options.wait === false ? placed : settle(placed, listOf(client), { timeoutMs });
          });
          if (options.wait !== false) warnIfUnsettled(cli, trade);
          cli.emit(trade, (value, color) => formatTrades([value], color));
          if (isRefused(trade, 'place')) {
            const limitPrice = trade.order.price_type === 'LMT' ? trade.order.price : undefined;
            throw await refusal(trade, 'order', cli.client, limitPrice);
          }
        },
        { fields: TRADE_FIELDS },
      ),
    );
}
