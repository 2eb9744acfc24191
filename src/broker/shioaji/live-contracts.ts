// SinoPac's contracts, as the SDK downloaded them at login: answered from a directory over that list, so every query
// and message is the simulator's own. A new session (after a drop, and the daily refresh) reads the list again and
// publishes a CHECK contract event per security type saying what changed, as the simulator does at its refreshes.

import { ContractChecks } from '../../domain/contract-checks.js';
import { type ContractDirectory, contractDirectoryOf } from '../../domain/contract-directory.js';
import type { ContractEvent, ContractInfo } from '../../domain/contracts.js';
import type { Clock } from '../../domain/time.js';
import type { ContractsPort } from '../port.js';

type Directory = ContractDirectory;
const answer = <T>(query: () => T): Promise<T> => new Promise((resolve) => resolve(query()));

export class LiveContracts implements ContractsPort {
  directory: Directory;
  private records: ContractInfo[];
  private readonly checks: ContractChecks;

  constructor(records: ContractInfo[], clock: Clock) {
    this.records = records;
    this.directory = contractDirectoryOf(records);
    this.checks = new ContractChecks(clock);
  }

  replace(records: ContractInfo[]): void {
    const before = this.records;
    this.records = records;
    this.directory = contractDirectoryOf(records);
    this.checks.publish((type) => {
      const [old, fresh] = [before, records].map((list) => list.filter((r) => r.security_type === type));
      const codes = (list: ContractInfo[]) => list.map((r) => r.code).join(',');
      return { base: codes(old!) !== codes(fresh!), info: JSON.stringify(old) !== JSON.stringify(fresh) };
    });
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
  listing = () => this.directory;

  onContractEvent(listener: (event: ContractEvent) => void): () => void {
    return this.checks.on(listener);
  }
}
