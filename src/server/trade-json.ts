// One Trade's JSON as order/trades writes it (the route's own serializer, applied to one element), for the journal to
// keep with each finished order (src/gateway/trade-wire.ts): a page of older trades is then these joined. Today's list
// reuses a finished trade's JSON in memory the same way (src/gateway/todays-trades.ts).

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Trade } from '../domain/orders.js';
import type { TradeJson } from '../gateway/trade-wire.js';
import { lazySerializer } from './plugins/serialization.js';
import { TradeSchema } from './schemas/orders.js';

const serializerVersion = (
  createRequire(import.meta.resolve('fastify'))('fast-json-stringify/package.json') as { version: string }
).version;

/** Names the schema and the serializer's version: JSON written under another (an older sjgate) is not served. */
const format = createHash('sha256')
  .update(`fast-json-stringify ${serializerVersion}\n${JSON.stringify(TradeSchema)}`)
  .digest('base64url')
  .slice(0, 16);

export const tradeJson: TradeJson = {
  format,
  write: lazySerializer({ schema: TradeSchema }) as (trade: Trade) => string,
};
