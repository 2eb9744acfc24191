// Answers of the data routes as the daemon sends them, and a fake daemon that answers with them.

import { envelope, fakeDaemon } from '../../../helpers/cli.js';

export const TICKS = {
  datetime: ['2026-07-15T13:24:59.123456', '2026-07-15T13:25:00.000000'],
  close: [1085.5, 1090],
  volume: [3, 1250],
  bid_price: [1085, 1085],
  bid_volume: [12, 40],
  ask_price: [1085.5, 1090],
  ask_volume: [7, 22],
  tick_type: [1, 2],
};

export const SNAPSHOT = {
  datetime: '2026-07-15T13:30:00.000000',
  code: '2330',
  exchange: 'TSE',
  open: 1080,
  high: 1095,
  low: 1075,
  close: 1090,
  tick_type: 'Buy',
  change_price: 10,
  change_rate: 0.93,
  change_type: 'Up',
  average_price: 1086.2,
  volume: 1250,
  total_volume: 31877,
  amount: 1362500000,
  total_amount: 34625318000,
  yesterday_volume: 29001,
  buy_price: 1085,
  buy_volume: 40,
  sell_price: 1090,
  sell_volume: 22,
  volume_ratio: 1.1,
};

export const PUNISH = {
  code: ['3450', '6789'],
  start_date: ['2026-07-10', '2026-07-14'],
  end_date: ['2026-07-23', '2026-07-25'],
  updated_at: ['2026-07-09T18:00:00', '2026-07-13T18:00:00'],
  interval: ['5分鐘', '20分鐘'],
  unit_limit: [10, null],
  total_limit: [null, 30],
  description: ['處置', '再次處置'],
  announced_date: ['2026-07-09', '2026-07-13'],
};

/** Answers like the daemon would; a 400 envelope for ticks of code BAD. */
export const dataDaemon = () =>
  fakeDaemon(({ url, body }) => {
    const code = (body as { contract?: { code?: string } } | null)?.contract?.code;
    if (url === '/api/v1/data/ticks' && code === 'BAD') return envelope('INVALID_REQUEST', 'Contract not found: BAD');
    if (url === '/api/v1/data/ticks') return [200, TICKS];
    if (url === '/api/v1/data/snapshots') return [200, [SNAPSHOT]];
    if (url === '/api/v1/data/regulatory_punish') return [200, PUNISH];
    return envelope('ROUTE_NOT_FOUND', `no route ${url}`);
  });
