// What the index analytics need of the catalog beyond prices: the names of the exchange's industry codes, and how
// many shares each listed stock has issued (its weight in a capitalisation-weighted index).

import type { ListedSecurity } from './listed-securities.js';

/** TWSE/TPEx industry codes and their names, as the exchanges publish them. */
export const INDUSTRY_NAMES: Readonly<Record<string, string>> = {
  '00': 'ETF',
  '01': '水泥工業',
  '02': '食品工業',
  '03': '塑膠工業',
  '04': '紡織纖維',
  '05': '電機機械',
  '06': '電器電纜',
  '08': '玻璃陶瓷',
  '09': '造紙工業',
  '10': '鋼鐵工業',
  '11': '橡膠工業',
  '12': '汽車工業',
  '14': '建材營造業',
  '15': '航運業',
  '16': '觀光餐旅',
  '17': '金融保險業',
  '18': '貿易百貨業',
  '19': '綜合',
  '20': '其他業',
  '21': '化學工業',
  '22': '生技醫療業',
  '23': '油電燃氣業',
  '24': '半導體業',
  '25': '電腦及週邊設備業',
  '26': '光電業',
  '27': '通信網路業',
  '28': '電子零組件業',
  '29': '電子通路業',
  '30': '資訊服務業',
  '31': '其他電子業',
  '32': '文化創意業',
  '33': '農業科技業',
  '34': '電子商務',
  '35': '綠能環保',
  '36': '數位雲端',
  '37': '運動休閒',
  '38': '居家生活',
  '91': '存託憑證',
};

export const industryName = (category: string): string => INDUSTRY_NAMES[category] ?? category;

/**
 * Shares issued, in millions, of the largest companies (approximate, mid-2026); they dominate the TAIEX as they do
 * on the exchange. Other stocks are given a simulator assumption: twenty times their typical daily volume.
 */
const ISSUED_MILLIONS: Readonly<Record<string, number>> = {
  '2330': 25_930,
  '2317': 13_900,
  '2454': 1_600,
  '2308': 2_598,
  '2382': 3_863,
  '2881': 13_800,
  '2882': 14_670,
  '2412': 7_757,
  '2891': 19_500,
  '2303': 12_500,
  '3711': 4_400,
  '2886': 14_800,
  '2884': 16_000,
  '1301': 6_366,
  '1303': 7_930,
  '2002': 15_400,
  '2885': 13_000,
  '2892': 14_000,
  '2880': 13_800,
  '2357': 743,
  '3008': 134,
  '2603': 2_140,
  '2345': 560,
  '3231': 2_900,
  '2383': 350,
};

export function issuedShares(security: ListedSecurity): number {
  const millions = ISSUED_MILLIONS[security.code];
  return millions === undefined ? security.avgVolumeLots * 1000 * 20 : millions * 1_000_000;
}
