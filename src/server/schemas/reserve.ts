// Schemas of share and cash pre-collection (預收券款): the official server's /order/stock_reserve_summary,
// stock_reserve_detail, reserve_stock, earmarking_detail and reserve_earmarking, with the field names of the SDK's
// ReserveStocksSummary, ReserveStocksDetail, ReserveOrderResp, EarmarkStocksDetail and EarmarkingOrderResp.

import Type, { type Static } from 'typebox';
import {
  type EarmarkingResult,
  type EarmarkStocksDetail,
  MAX_EARMARK_PRICE,
  MAX_RESERVE_SHARES,
  MIN_EARMARK_PRICE,
  type ReserveStockResult,
  type ReserveStocksDetail,
  type ReserveStocksSummary,
} from '../../domain/reserve.js';
import { AccountSchema } from './accounts.js';
import { ContractSchema } from './contracts.js';
import { ContractRefSchema } from './market-data.js';
import { accountBody } from './portfolio.js';

const Share = Type.Integer({
  minimum: 1,
  maximum: MAX_RESERVE_SHARES,
  description: `shares (not lots), 1 to ${MAX_RESERVE_SHARES} (499 lots) per request`,
});
const Price = Type.Number({
  minimum: MIN_EARMARK_PRICE,
  maximum: MAX_EARMARK_PRICE,
  description: `the price per share the cash is earmarked at, ${MIN_EARMARK_PRICE} to ${MAX_EARMARK_PRICE}; amount is share x price`,
});
const Status = Type.Boolean({ description: 'true: accepted; false: refused, with the reason in info' });
const Info = Type.String({ description: "the broker's message" });
const OrderDatetime = Type.String({ description: "Taiwan wall-clock time of the request, 'YYYY-MM-DDTHH:MM:SS'" });
const Stock = { ...ContractRefSchema, description: 'a stock (security_type STK); `{code}` is enough' };

export const ReserveStockBodySchema = accountBody('stock', 'ReserveStockRequest', { contract: Stock, share: Share });
export const ReserveEarmarkingBodySchema = accountBody('stock', 'ReserveEarmarkingRequest', {
  contract: Stock,
  share: Share,
  price: Price,
});

export const ReserveStocksSummarySchema = Type.Object(
  {
    stocks: Type.Array(
      Type.Object({
        contract: ContractSchema,
        available_share: Type.Integer({ description: 'shares held and not reserved' }),
        reserved_share: Type.Integer({ description: 'shares reserved today' }),
      }),
    ),
    account: AccountSchema,
  },
  { title: 'ReserveStocksSummary' },
);

const detailFields = { contract: ContractSchema, share: Type.Integer(), order_datetime: OrderDatetime };

export const ReserveStocksDetailSchema = Type.Object(
  { stocks: Type.Array(Type.Object({ ...detailFields, status: Status, info: Info })), account: AccountSchema },
  { title: 'ReserveStocksDetail' },
);

export const EarmarkStocksDetailSchema = Type.Object(
  {
    stocks: Type.Array(
      Type.Object({
        ...detailFields,
        status: Status,
        info: Info,
        price: Type.Number(),
        amount: Type.Integer({ description: 'share x price, whole NT$' }),
      }),
    ),
    account: AccountSchema,
  },
  { title: 'EarmarkStocksDetail' },
);

const resultFields = {
  contract: ContractSchema,
  account: AccountSchema,
  share: Type.Integer(),
  status: Status,
  info: Info,
};

export const ReserveStockResultSchema = Type.Object(resultFields, { title: 'ReserveOrderResp' });
export const EarmarkingResultSchema = Type.Object(
  { ...resultFields, price: Type.Number() },
  { title: 'EarmarkingOrderResp' },
);

// The venue's answers fit the schemas (a Contract's exchange and region are enums in the domain, text here).
type Fits<A, B> = [A] extends [B] ? true : false;
const proofs: [
  Fits<ReserveStocksSummary, Static<typeof ReserveStocksSummarySchema>>,
  Fits<ReserveStocksDetail, Static<typeof ReserveStocksDetailSchema>>,
  Fits<EarmarkStocksDetail, Static<typeof EarmarkStocksDetailSchema>>,
  Fits<ReserveStockResult, Static<typeof ReserveStockResultSchema>>,
  Fits<EarmarkingResult, Static<typeof EarmarkingResultSchema>>,
] = [true, true, true, true, true];
void proofs;
