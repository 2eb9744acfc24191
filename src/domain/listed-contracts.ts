// The contracts a venue lists, as the contract directory (contract-directory.ts) reads them: an index by code and by
// type, and the futures and option roots read off the records themselves for a venue that has no product table.

import type {
  ContractInfo,
  FuturesInfo,
  OptionInfo,
  RootName,
  SecurityType,
  StockInfo,
  WarrantInfo,
} from './contracts.js';

export interface ListedContracts {
  find(code: string): ContractInfo | undefined;
  all(type: 'FUT'): FuturesInfo[];
  all(type: 'OPT'): OptionInfo[];
  all(type: 'WRT'): WarrantInfo[];
  all(type: SecurityType): ContractInfo[];
  readonly size: number;
}

/** A list of records indexed by code and by security type, in the order given; a code may be listed once. */
export class ContractList implements ListedContracts {
  private readonly byCode = new Map<string, ContractInfo>();
  private readonly byType = new Map<SecurityType, ContractInfo[]>();

  constructor(records: readonly ContractInfo[]) {
    for (const info of records) {
      if (this.byCode.has(info.code)) throw new Error(`contracts: ${info.code} is listed twice`);
      this.byCode.set(info.code, info);
      const ofType = this.byType.get(info.security_type) ?? [];
      ofType.push(info);
      this.byType.set(info.security_type, ofType);
    }
  }

  find(code: string): ContractInfo | undefined {
    return this.byCode.get(code);
  }

  all(type: 'FUT'): FuturesInfo[];
  all(type: 'OPT'): OptionInfo[];
  all(type: 'WRT'): WarrantInfo[];
  all(type: SecurityType): ContractInfo[];
  all(type: SecurityType): ContractInfo[] {
    return this.byType.get(type) ?? [];
  }

  get size(): number {
    return this.byCode.size;
  }
}

export interface FuturesRoot extends RootName {
  /** The monthly root a weekly root belongs to (MX1 to MXF); the root itself for a monthly. */
  family: string;
}

/** What the directory knows of a venue's products beyond the records: the simulator has tables of them. */
export interface ProductTable {
  futuresRoots: readonly FuturesRoot[];
  optionRoots: readonly RootName[];
  /** The name of a security warrants may be written on; undefined for a code that is not one. */
  underlyingName(code: string): string | undefined;
}

/**
 * The product table a list of records implies, for a venue that has none of its own. A root is listed when one of
 * its contracts is, in the order its first contract comes; its name is the name of that contract without the delivery
 * month (臺股期貨12 → 臺股期貨, 小型臺指12W1 → 小型臺指W1, 臺指選擇權W1 12月 20000C → 臺指選擇權W1), which is how the
 * exchange names the product, or the root itself when the name does not have that form. A futures root's family is
 * the flow group of its contracts. Warrants may be written on the listed stocks.
 */
export function productTableOf(listed: ListedContracts): ProductTable {
  return {
    futuresRoots: rootsOf(listed.all('FUT'), (info) => ({ ...rootName(info), family: info.flow_group })),
    optionRoots: rootsOf(listed.all('OPT'), rootName),
    underlyingName: (code) => {
      const info = listed.find(code);
      return info?.security_type === 'STK' ? (info as StockInfo).name : undefined;
    },
  };
}

/** One entry per root, from its first specific-month contract (a continuous alias is named R1 or R2, not by month). */
function rootsOf<I extends FuturesInfo | OptionInfo, R extends RootName>(infos: readonly I[], rootOf: (info: I) => R) {
  const roots = new Map<string, R>();
  for (const info of infos) {
    if (info.target_code === null && !roots.has(info.root)) roots.set(info.root, rootOf(info));
  }
  return [...roots.values()];
}

const MONTH_IN_NAME: Record<'FUT' | 'OPT', RegExp> = {
  // the month closes the name, before the week of a weekly: 臺股期貨12, 小型臺指12W1
  FUT: /^(?<product>.+?)(?<month>\d{2})(?<week>W\d)?$/,
  // the month comes before the strike and right: 臺指選擇權12月 20000C, 臺指選擇權W1 12月 20000C
  OPT: /^(?<product>.+?)\s*(?<month>\d{2})月/,
};

function rootName(info: FuturesInfo | OptionInfo): RootName {
  const parts = MONTH_IN_NAME[info.security_type].exec(info.name)?.groups;
  const named = parts !== undefined && parts.month === info.delivery_month.slice(4, 6);
  return { root: info.root, name: named ? `${parts.product}${parts.week ?? ''}` : info.root };
}
