// SinoPac's contracts, as the SDK downloaded them at login: answered from a directory over that list, so every query
// and message is the simulator's own. A new session (after a drop, and the daily refresh) reads the list again and
// publishes a CHECK contract event per security type saying what changed, as the simulator does at its refreshes.

import { type ContractDirectory, contractDirectoryOf } from '../../domain/contract-directory.js';
import { type ContractEvent, type ContractInfo, SECURITY_TYPES } from '../../domain/contracts.js';
import type { ContractsPort } from '../port.js';

type Directory = ContractDirectory;
const answer = <T>(query: () => T): Promise<T> => new Promise((resolve) => resolve(query()));

export class LiveContracts implements ContractsPort {
  directory: Directory;
  private readonly listeners = new Set<(event: ContractEvent) => void>();
  private records: ContractInfo[];
  private lastEventId = 0;

  constructor(
    records: ContractInfo[],
    private readonly now: () => number,
  ) {
    this.records = records;
    this.directory = contractDirectoryOf(records);
  }

  replace(records: ContractInfo[]): void {
    const before = this.records;
    this.records = records;
    this.directory = contractDirectoryOf(records);
    const publishedAt = new Date(this.now()).toISOString();
    for (const securityType of SECURITY_TYPES) {
      const [old, fresh] = [before, records].map((list) => list.filter((r) => r.security_type === securityType));
      const codes = (list: ContractInfo[]) => list.map((r) => r.code).join(',');
      const baseChanged = codes(old!) !== codes(fresh!);
      const infoChanged = JSON.stringify(old) !== JSON.stringify(fresh);
      const event: ContractEvent = {
        event_id: ++this.lastEventId,
        action: 'CHECK',
        region: 'TW',
        security_type: securityType,
        published_at: publishedAt,
        base_changed: baseChanged,
        info_changed: infoChanged,
        info_scope: infoChanged ? 'ALL' : null,
        info_shards: [],
      };
      for (const listener of this.listeners) listener(event);
    }
  }

  get = (...args: Parameters<Directory['get']>) => answer(() => this.directory.get(...args));
  info = (...args: Parameters<Directory['info']>) => answer(() => this.directory.info(...args));
  list = (...args: Parameters<Directory['list']>) => answer(() => this.directory.list(...args));
  futuresRoots = (...args: Parameters<Directory['futuresRoots']>) => answer(() => this.directory.futuresRoots(...args));
  futures = (...args: Parameters<Directory['futures']>) => answer(() => this.directory.futures(...args));
  optionRoots = (...args: Parameters<Directory['optionRoots']>) => answer(() => this.directory.optionRoots(...args));
  options = (...args: Parameters<Directory['options']>) => answer(() => this.directory.options(...args));
  warrants = (...args: Parameters<Directory['warrants']>) => answer(() => this.directory.warrants(...args));
  warrantUnderlyings = (...args: Parameters<Directory['warrantUnderlyings']>) =>
    answer(() => this.directory.warrantUnderlyings(...args));
  createCombo = (...args: Parameters<Directory['createCombo']>) => answer(() => this.directory.createCombo(...args));
  futuresCombos = (...args: Parameters<Directory['futuresCombos']>) =>
    answer(() => this.directory.futuresCombos(...args));
  tickBandRule = (...args: Parameters<Directory['tickBandRule']>) => answer(() => this.directory.tickBandRule(...args));
  count = () => answer(() => this.directory.count());

  onContractEvent(listener: (event: ContractEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
