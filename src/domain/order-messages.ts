// What Shioaji answers when it refuses an order or a change of one: the messages (status.msg) and the op_codes of
// the order event, as the official server gives them.

/** The messages Shioaji gives for the order rules (docs/shioaji-model.md, docs/official-behaviour.md, Shioaji#87). */
export const SHIOAJI_MESSAGES = {
  priceInvalid: '價格錯誤',
  priceOffTick: '價格檔數錯誤',
  priceOutsideLimits: '價格超過漲跌幅範圍',
  auctionMarketOrder: '集合競價時段不可輸入市價／ IOC ／ FOK 委託',
  notDayTradable: '該商品非當沖',
  orderCancelled: '委託數量已完全刪除',
  orderFilled: '該委託書已完全成交，不可刪單/改單或改價',
  orderAbnormal: '該筆委託無法處理，原委託有異常狀況！',
  noOriginalOrder: '無原委託內容',
  marketRod: '當日市價單不允許當日有效委託(ROD)',
  comboCondition: '委託條件錯誤',
} as const;

export const insufficientSharesMessage = (shares: number): string => `集保賣出餘股數不足，餘股數 ${shares} 股`;

/** The message of an accepted order or change. */
export const ACCEPTED_MESSAGE = '委託成功';

/** TAIFEX rejects MKT with ROD. */
export const OP_CODE_MARKET_ROD = '9938';
/** TAIFEX rejects standard option combos with ROD. */
export const OP_CODE_COMBO_CONDITION = '9927';
/** The simulator's op_code for every other rejection; clients key off op_msg (docs/shioaji-model.md). */
export const OP_CODE_REJECTED = '99';
