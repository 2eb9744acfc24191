// SinoPac's contracts, as the SDK downloaded them at login: answered from a directory over that list, so every query
// and message is the simulator's own. A new session reads the list again.

import { type ContractDirectory, contractDirectoryOf } from '../../domain/contract-directory.js';
import type { ContractEvent, ContractInfo } from '../../domain/contracts.js';
import type { ContractsPort } from '../port.js';

type Directory = ContractDirectory;
const answer = <T>(query: () => T): Promise<T> => new Promise((resolve) => resolve(query()));

export class LiveContracts implements ContractsPort {
  directory: Directory;
  private readonly listeners = new Set<(event: ContractEvent) => void>();

  constructor(records: ContractInfo[]) {
    this.directory = contractDirectoryOf(records);
  }

  replace(records: ContractInfo[]): void {
    this.directory = contractDirectoryOf(records);
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
