// Watchlists: a person's named lists of contracts, kept in the journal so that they survive a restart. Each contract
// is checked against the venue's catalog when it is added and kept as the catalog's Contract, once, in the order
// given. The person is the one of the accounts logged in, so lists made under one API key are not seen under another.

import type { AccountsPort, ContractsPort } from '../broker/port.js';
import type { Contract } from '../domain/contracts.js';
import { InvalidRequestError, NotFoundError } from '../domain/errors.js';
import type { ContractRef } from '../domain/market-data.js';
import type { Clock } from '../domain/time.js';
import type { Journal, StoredWatchlist } from '../store/journal.js';

export const MAX_WATCHLISTS = 100;
export const MAX_WATCHLIST_CONTRACTS = 200;
export const MAX_WATCHLIST_NAME = 100;

export interface Watchlist {
  id: string;
  person_id: string;
  name: string;
  contracts: Contract[];
}

const ID_PATTERN = /^wl-([1-9]\d{0,15})$/;

const idText = (rowid: number) => `wl-${rowid}`;
const sameContract = (a: Contract, b: Contract) => a.security_type === b.security_type && a.code === b.code;

/** The contracts once each, the first place kept. */
function distinct(contracts: Contract[]): Contract[] {
  return contracts.filter((contract, index) => contracts.findIndex((c) => sameContract(c, contract)) === index);
}

export class Watchlists {
  constructor(
    private readonly journal: Journal,
    private readonly contracts: ContractsPort,
    private readonly accounts: AccountsPort,
    private readonly clock: Clock,
  ) {}

  /** The person's lists, oldest first. */
  async list(): Promise<Watchlist[]> {
    const person = await this.person();
    return this.journal.watchlists.list(person).map(wireOf);
  }

  async get(id: string): Promise<Watchlist> {
    const person = await this.person();
    return wireOf(this.stored(person, id));
  }

  async create(name: string, refs: ContractRef[] = []): Promise<Watchlist> {
    const title = checkedName(name);
    const contracts = checkedSize(await this.resolve(refs), 'a new watchlist');
    const person = await this.person();
    return this.journal.durably(() => {
      const count = this.journal.watchlists.count(person);
      if (count >= MAX_WATCHLISTS) {
        throw new InvalidRequestError(
          `a person has at most ${MAX_WATCHLISTS} watchlists, and ${person} has ${count}: delete one first`,
        );
      }
      const rowid = this.journal.watchlists.insert(person, title, contracts, this.clock.now());
      return wireOf(this.stored(person, idText(rowid)));
    });
  }

  /** Replaces every contract of the list (and its name when one is given). */
  async replace(id: string, refs: ContractRef[], name?: string): Promise<Watchlist> {
    const title = name === undefined ? undefined : checkedName(name);
    const contracts = checkedSize(await this.resolve(refs), id);
    return this.change(id, (list) => ({ name: title ?? list.name, contracts }));
  }

  /** Adds contracts at the end of the list; those already in it stay where they are. */
  async add(id: string, refs: ContractRef[]): Promise<Watchlist> {
    const added = await this.resolve(refs);
    return this.change(id, (list) => ({
      name: list.name,
      contracts: checkedSize(distinct([...list.contracts, ...added]), id),
    }));
  }

  /**
   * Removes contracts by code (and security type when given). A code not in the list is ignored and the catalog is
   * not asked, so that a contract no longer listed (an expired future) can still be removed.
   */
  async remove(id: string, refs: ContractRef[]): Promise<Watchlist> {
    const named = (c: Contract) =>
      refs.some(
        (ref) => ref.code === c.code && (ref.security_type === undefined || ref.security_type === c.security_type),
      );
    return this.change(id, (list) => ({ name: list.name, contracts: list.contracts.filter((c) => !named(c)) }));
  }

  /** Deletes the list and answers it as it was. */
  async delete(id: string): Promise<Watchlist> {
    const person = await this.person();
    return this.journal.durably(() => {
      const list = wireOf(this.stored(person, id));
      this.journal.watchlists.delete(person, Number(ID_PATTERN.exec(id)?.[1]));
      return list;
    });
  }

  /** Reads, changes and writes the list in one transaction, after every contract has been checked. */
  private async change(id: string, next: (list: Watchlist) => Omit<Watchlist, 'id' | 'person_id'>): Promise<Watchlist> {
    const person = await this.person();
    return this.journal.durably(() => {
      const list = wireOf(this.stored(person, id));
      const { name, contracts } = next(list);
      this.journal.watchlists.update(person, Number(ID_PATTERN.exec(id)?.[1]), name, contracts, this.clock.now());
      return wireOf(this.stored(person, id));
    });
  }

  private stored(person: string, id: string): StoredWatchlist {
    const rowid = ID_PATTERN.exec(id)?.[1];
    const stored = rowid === undefined ? undefined : this.journal.watchlists.get(person, Number(rowid));
    if (!stored) throw new NotFoundError('WATCHLIST_NOT_FOUND', `watchlist ${id} not found`);
    return stored;
  }

  private async person(): Promise<string> {
    const [first] = await this.accounts.list();
    return first?.person_id ?? '';
  }

  /** Each contract from the catalog, in order, once; CONTRACT_NOT_FOUND for the first one it does not list. */
  private async resolve(refs: ContractRef[]): Promise<Contract[]> {
    const contracts: Contract[] = [];
    for (const ref of refs) {
      const contract = await this.contracts.get(ref.code, { securityType: ref.security_type });
      if (ref.exchange && ref.exchange !== contract.exchange) {
        throw new NotFoundError(
          'CONTRACT_NOT_FOUND',
          `${ref.code} is listed on ${contract.exchange}, not ${ref.exchange}`,
        );
      }
      contracts.push(contract);
    }
    return distinct(contracts);
  }
}

function wireOf(stored: StoredWatchlist): Watchlist {
  return {
    id: idText(stored.id),
    person_id: stored.personId,
    name: stored.name,
    contracts: stored.contracts as Contract[],
  };
}

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_WATCHLIST_NAME) {
    throw new InvalidRequestError(
      `a watchlist's name is 1 to ${MAX_WATCHLIST_NAME} characters (spaces around it are dropped); got ${trimmed.length}`,
    );
  }
  return trimmed;
}

function checkedSize(contracts: Contract[], what: string): Contract[] {
  if (contracts.length > MAX_WATCHLIST_CONTRACTS) {
    throw new InvalidRequestError(
      `a watchlist holds at most ${MAX_WATCHLIST_CONTRACTS} contracts; ${what} would hold ${contracts.length}`,
    );
  }
  return contracts;
}
