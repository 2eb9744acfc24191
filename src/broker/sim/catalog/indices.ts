// Indices the simulator publishes. Codes are the exchange codes of Shioaji 1.7 (IX form).

import type { Exchange, IndexInfo } from '../../../domain/contracts.js';

export interface ListedIndex {
  code: string;
  name: string;
  exchange: Exchange;
  /** Level around mid 2026, the start of the simulated market. */
  level: number;
}

export const LISTED_INDICES: readonly ListedIndex[] = [
  { code: 'IX0001', name: '發行量加權股價指數', exchange: 'TSE', level: 43912.57 },
  { code: 'IX0043', name: '櫃買指數', exchange: 'OTC', level: 298.46 },
  { code: 'IX0010', name: '水泥類指數', exchange: 'TSE', level: 141.83 },
  { code: 'IX0011', name: '食品類指數', exchange: 'TSE', level: 2236.41 },
  { code: 'IX0012', name: '塑膠類指數', exchange: 'TSE', level: 108.67 },
];

export function indexInfo(index: ListedIndex, reference: number, contractDay: string): IndexInfo {
  return {
    security_type: 'IND',
    region: 'TW',
    exchange: index.exchange,
    code: index.code,
    target_code: null,
    name: index.name,
    reference,
    open_time: '09:00',
    close_time: '13:30',
    update_date: contractDay,
  };
}
