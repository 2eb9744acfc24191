// The market watch's saved lists: a select that loads a watchlist of the gateway into the market watch, and a button
// that saves the market watch's codes (into the list chosen, or as a new list named at a prompt).

import { useEffect, useState } from 'react';
import { client, messageOf } from '../api';
import type { Watchlist } from '../types';

interface SavedWatchlistsProps {
  codes: string[];
  onLoad: (codes: string[]) => void;
  onError: (message: string | null) => void;
}

export function SavedWatchlists({ codes, onLoad, onError }: SavedWatchlistsProps) {
  const [lists, setLists] = useState<Watchlist[]>([]);
  const [chosen, setChosen] = useState('');

  const refresh = () =>
    client.watchlists
      .list()
      .then(setLists)
      .catch((error) => onError(messageOf(error)));
  // biome-ignore lint/correctness/useExhaustiveDependencies: the lists are read once, when the card opens
  useEffect(() => void refresh(), []);

  function load(id: string) {
    setChosen(id);
    const list = lists.find((l) => l.id === id);
    if (list) onLoad(list.contracts.map((c) => c.code));
  }

  async function save() {
    const contracts = codes.map((code) => ({ code }));
    try {
      if (chosen) {
        await client.watchlists.replace(chosen, { contracts });
      } else {
        const name = window.prompt('Name of the new watchlist', 'Market watch')?.trim();
        if (!name) return;
        setChosen((await client.watchlists.create({ name, contracts })).id);
      }
      onError(null);
      await refresh();
    } catch (error) {
      onError(`saving the watchlist: ${messageOf(error)}`);
    }
  }

  return (
    <span className="inline-form">
      <label className="sr-only" htmlFor="watch-lists">
        Saved watchlist
      </label>
      <select id="watch-lists" data-testid="watch-lists" value={chosen} onChange={(e) => load(e.target.value)}>
        <option value="">Saved lists…</option>
        {lists.map((list) => (
          <option key={list.id} value={list.id}>
            {list.name} ({list.contracts.length})
          </option>
        ))}
      </select>
      <button
        type="button"
        data-testid="watch-save"
        title={chosen ? 'Save the codes into the chosen list' : 'Save the codes as a new list'}
        onClick={() => void save()}
      >
        Save
      </button>
    </span>
  );
}
