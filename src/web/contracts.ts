// Contract details by code, asked once per code per page.

import { client } from './api';
import type { ContractInfo } from './types';

const known = new Map<string, Promise<ContractInfo>>();

export function contractInfo(code: string): Promise<ContractInfo> {
  let info = known.get(code);
  if (!info) {
    info = client.contracts.info(code);
    // A failure is not remembered: the next call asks again.
    info.catch(() => known.delete(code));
    known.set(code, info);
  }
  return info;
}

/** How a quantity of this contract is counted. */
export function quantityUnit(info: ContractInfo | null, oddLot: boolean): string {
  if (!info) return '';
  if (info.security_type === 'FUT' || info.security_type === 'OPT') return 'contracts';
  return oddLot ? 'shares' : 'lots';
}

export const isDerivative = (info: ContractInfo | null) =>
  info?.security_type === 'FUT' || info?.security_type === 'OPT';
