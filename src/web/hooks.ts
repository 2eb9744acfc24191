// Small React hooks shared by the cards.

import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { auth, messageOf } from './api';
import { marketStream } from './stream';
import { theme } from './theme';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  reload: () => void;
}

/**
 * Loads now and then every `intervalMs` (0: only when reload() is called). Polls are skipped while the tab is
 * hidden or sign-in is needed, so a forgotten tab costs the gateway nothing.
 */
export function usePolling<T>(load: () => Promise<T>, intervalMs: number): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const loadRef = useRef(load);
  loadRef.current = load;
  const run = useCallback(() => {
    if (auth.needed()) return;
    loadRef.current().then(
      (value) => {
        setData(value);
        setError(null);
      },
      (failure: unknown) => setError(messageOf(failure)),
    );
  }, []);
  useEffect(() => {
    run();
    if (intervalMs <= 0) return;
    const timer = setInterval(() => {
      if (!document.hidden) run();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [run, intervalMs]);
  return { data, error, reload: run };
}

/** Calls `handler` with the data of every `event` on the shared stream. */
export function useStreamEvent(event: string, handler: (data: unknown) => void): void {
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  useEffect(() => marketStream.on(event, (data) => handlerRef.current(data)), [event]);
}

/** A callback that runs `action` once, `delayMs` after the last of a burst of calls. */
export function useDebounced(action: () => void, delayMs: number): () => void {
  const actionRef = useRef(action);
  actionRef.current = action;
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => actionRef.current(), delayMs);
  }, [delayMs]);
}

/** A JSON value kept in localStorage under `key`. */
export function useStoredState<T>(key: string, initial: T): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const saved = localStorage.getItem(key);
      return saved === null ? initial : (JSON.parse(saved) as T);
    } catch {
      return initial;
    }
  });
  const store = useCallback(
    (next: T) => {
      setValue(next);
      try {
        localStorage.setItem(key, JSON.stringify(next));
      } catch {
        // storage may be off: the value lasts until reload
      }
    },
    [key],
  );
  return [value, store];
}

export const useTheme = () => useSyncExternalStore(theme.subscribe, theme.current);

export const useStreamState = () => useSyncExternalStore(marketStream.onStateChange, () => marketStream.state);
