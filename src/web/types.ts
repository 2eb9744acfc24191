// The wire types the dashboard reads, shared with the server and the CLI through src/contract/.

export type {
  Account,
  AppList,
  ComboSubscription,
  ContractInfo,
  Deal,
  Health,
  Kbars,
  Position,
  ProductSubscription,
  SecurityType,
  ServerInfo,
  Snapshot,
  StreamStatus,
  SubscribeTradeAnswer,
  Subscription,
  SubscriptionList,
  SubscriptionRequest,
  Trade,
  Usage,
  Watchlist,
} from '../contract/wire.js';
export { isRequestExchange, isSecurityType } from '../contract/wire.js';
