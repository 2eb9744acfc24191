// Market watch: a list of codes (kept in localStorage) with live last, change, bid/ask and volume from the shared
// stream. Clicking a row picks the code for the chart and the order ticket; the gateway's watchlists load and save it.

import { type FormEvent, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { client, messageOf } from '../api';
import { contractInfo } from '../contracts';
import { integer, price, signed, trend } from '../format';
import { useStoredState } from '../hooks';
import { quoteBook } from '../quotes';
import { type ContractInfo, isRequestExchange, type SubscriptionRequest } from '../types';
import { Card, ErrorLine } from './Card';
import { SavedWatchlists } from './SavedWatchlists';

// Household names and some of the simulator's busiest (in always-open mode a day's trades spread over 24 hours);
// the first is charted at the start, and the TAIEX futures make a chart with some life in it at any hour.
export const DEFAULT_WATCH = ['TXFR1', 'MXFR1', '2330', '2317', '2303', '0050'];

/** Subscribes a code's trades and best prices (an index has one Quote stream) and routes its events to it. */
async function watchCode(code: string): Promise<ContractInfo> {
  const info = await contractInfo(code);
  quoteBook.watch(code, info.target_code ?? info.code);
  const quoteTypes: SubscriptionRequest['quote_type'][] = info.security_type === 'IND' ? ['Quote'] : ['Tick', 'BidAsk'];
  for (const quote_type of quoteTypes) {
    const { security_type, exchange } = info;
    await client.stream.subscribe({
      code,
      security_type,
      ...(isRequestExchange(exchange) ? { exchange } : {}),
      quote_type,
    });
  }
  return info;
}

/** One snapshot call for all the new codes fills the rows before their first tick. */
async function loadSnapshots(codes: string[]): Promise<void> {
  const snapshots = await client.data.snapshots({ contracts: codes.map((code) => ({ code })) });
  for (const snapshot of snapshots)
    quoteBook.applySnapshot(quoteBook.watchedCode(snapshot.code) ?? snapshot.code, snapshot);
}

interface MarketWatchProps {
  selected: string;
  onSelect: (code: string) => void;
  /** The gateway's subscriptions changed (codes were subscribed). */
  onSubscribed: () => void;
}

export function MarketWatchCard({ selected, onSelect, onSubscribed }: MarketWatchProps) {
  const [codes, setCodes] = useStoredState<string[]>('sjgate.watch', DEFAULT_WATCH);
  const [contracts, setContracts] = useState<Record<string, ContractInfo>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [draft, setDraft] = useState('');
  const [addError, setAddError] = useState<string | null>(null);
  const started = useRef(new Set<string>());
  useSyncExternalStore(quoteBook.subscribe, quoteBook.getVersion);

  useEffect(() => {
    const fresh = codes.filter((code) => !started.current.has(code));
    if (fresh.length === 0) return;
    for (const code of fresh) started.current.add(code);
    void startWatching(fresh);

    async function startWatching(newCodes: string[]) {
      const watched: string[] = [];
      for (const code of newCodes) {
        try {
          const info = await watchCode(code);
          setContracts((known) => ({ ...known, [code]: info }));
          watched.push(code);
        } catch (error) {
          started.current.delete(code);
          setProblems((known) => ({ ...known, [code]: messageOf(error) }));
        }
      }
      if (watched.length === 0) return;
      onSubscribed();
      await loadSnapshots(watched).catch((error) => setAddError(messageOf(error)));
    }
  }, [codes, onSubscribed]);

  async function add(event: FormEvent) {
    event.preventDefault();
    const code = draft.trim().toUpperCase();
    if (!code) return;
    if (codes.includes(code)) {
      onSelect(code);
      setDraft('');
      return;
    }
    try {
      await contractInfo(code);
      setCodes([...codes, code]);
      setDraft('');
      setAddError(null);
    } catch (error) {
      setAddError(`${code}: ${messageOf(error)}`);
    }
  }

  function remove(code: string) {
    const rest = codes.filter((c) => c !== code);
    started.current.delete(code);
    setCodes(rest);
    if (selected === code && rest[0]) onSelect(rest[0]);
  }

  return (
    <Card
      id="watch"
      title="Market watch"
      span={6}
      actions={
        <span className="inline-form">
          <SavedWatchlists codes={codes} onLoad={setCodes} onError={setAddError} />
          <form className="inline-form" onSubmit={(event) => void add(event)}>
            <label className="sr-only" htmlFor="watch-code">
              Code to add
            </label>
            <input
              id="watch-code"
              data-testid="watch-add-input"
              placeholder="Code, e.g. 2454"
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
            <button type="submit" data-testid="watch-add">
              Add
            </button>
          </form>
        </span>
      }
    >
      <div className="scroll">
        <table className="table watch">
          <thead>
            <tr>
              <th>Code</th>
              <th className="num">Last</th>
              <th className="num">Chg</th>
              <th className="num">Chg%</th>
              <th className="num">Bid</th>
              <th className="num">Ask</th>
              <th className="num">Volume</th>
              <th className="num" title="Trades received over the stream since this page opened">
                Ticks seen
              </th>
              <th aria-label="Remove" />
            </tr>
          </thead>
          <tbody>
            {codes.map((code) => {
              const quote = quoteBook.get(code);
              const direction = trend(quote.change);
              const isSelected = code === selected;
              return (
                <tr key={code} className={isSelected ? 'selected' : undefined} data-testid={`watch-row-${code}`}>
                  <th scope="row">
                    <button
                      type="button"
                      className="row-select"
                      aria-pressed={isSelected}
                      onClick={() => onSelect(code)}
                      title={problems[code] ?? (quote.time ? `last trade ${quote.time} TW` : undefined)}
                    >
                      <span className="mono">{code}</span>
                      <span className="name" data-testid={`watch-name-${code}`}>
                        {problems[code] ? '⚠ unavailable' : (contracts[code]?.name ?? '')}
                      </span>
                    </button>
                  </th>
                  <td className={`num strong ${direction}`} data-testid={`watch-last-${code}`}>
                    {price(quote.last)}
                  </td>
                  <td className={`num ${direction}`}>{signed(quote.change)}</td>
                  <td className={`num ${direction}`}>
                    {quote.changePercent === null ? '—' : `${signed(quote.changePercent)}%`}
                  </td>
                  <td className="num">{price(quote.bid)}</td>
                  <td className="num">{price(quote.ask)}</td>
                  <td className="num">{integer(quote.volume)}</td>
                  <td className="num muted" data-testid={`watch-ticks-${code}`}>
                    {quote.ticks}
                  </td>
                  <td className="actions">
                    <button
                      type="button"
                      className="icon ghost"
                      aria-label={`Remove ${code}`}
                      data-testid={`watch-remove-${code}`}
                      onClick={() => remove(code)}
                    >
                      ×
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {codes.length === 0 ? <p className="muted">The list is empty: add a code above.</p> : null}
      <ErrorLine message={addError} testId="watch-error" />
      <p className="hint">
        Red is up, green is down. Ticks seen counts the trades this page has received since it opened. Removing a code
        keeps its gateway subscription (other programs may use it); the Streams card unsubscribes.
      </p>
    </Card>
  );
}
