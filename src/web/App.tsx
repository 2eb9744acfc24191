// The dashboard: a header and one page of cards. The stream, the accounts and the selected code are shared here.

import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { type AccountView, loadAccounts } from './accounts';
import { auth, client } from './api';
import { connectBars } from './bars';
import { AccountsCard } from './cards/AccountsCard';
import { AppsCard } from './cards/AppsCard';
import { BlottersCard } from './cards/BlottersCard';
import { ChartCard } from './cards/ChartCard';
import { DEFAULT_WATCH, MarketWatchCard } from './cards/MarketWatchCard';
import { OrderTicketCard } from './cards/OrderTicketCard';
import { ServerCard } from './cards/ServerCard';
import { StreamsCard } from './cards/StreamsCard';
import { UsageCard } from './cards/UsageCard';
import { modeName } from './format';
import { type Loaded, usePolling, useStoredState, useTheme } from './hooks';
import { ObservabilityView } from './observability/ObservabilityView';
import { connectQuoteBook } from './quotes';
import { SignIn } from './SignIn';
import { simClock } from './sim-clock';
import { marketStream } from './stream';
import { theme } from './theme';
import type { ServerInfo } from './types';

function ThemeToggle() {
  const current = useTheme();
  const next = current === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="icon ghost"
      data-testid="theme-toggle"
      aria-label={`Switch to the ${next} theme`}
      title={`Switch to the ${next} theme`}
      onClick={theme.toggle}
    >
      {current === 'dark' ? '☀' : '☾'}
    </button>
  );
}

/** The server's identity; its sim_time also sets the page's market clock. */
async function loadInfo(): Promise<ServerInfo> {
  const info = await client.server.info();
  if (info.sim_time) simClock.set(info.sim_time);
  return info;
}

function ModeBadge({ info }: { info: ServerInfo | null }) {
  if (!info) return null;
  return (
    <span className={`mode ${info.simulation ? 'simulation' : 'production'}`} data-testid="mode-badge">
      {modeName(info)}
    </span>
  );
}

const VIEWS = [
  ['trading', 'Trading'],
  ['observability', 'Observability'],
] as const;
type View = (typeof VIEWS)[number][0];

/** The view the address names (#observability), so a reload or a link keeps it. */
const viewOfHash = (): View => (location.hash === '#observability' ? 'observability' : 'trading');

function ViewTabs({ view, onChange }: { view: View; onChange: (view: View) => void }) {
  return (
    <nav className="segmented view-tabs" aria-label="Views" data-testid="view-tabs">
      {VIEWS.map(([name, label]) => (
        <button
          key={name}
          type="button"
          aria-pressed={view === name}
          data-testid={`view-${name}`}
          onClick={() => onChange(name)}
        >
          {label}
        </button>
      ))}
    </nav>
  );
}

export function App() {
  const [view, setView] = useState<View>(viewOfHash);
  useEffect(() => {
    const follow = () => setView(viewOfHash());
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  const showView = (next: View) => {
    history.replaceState(null, '', next === 'trading' ? location.pathname + location.search : '#observability');
    setView(next);
  };
  const [selected, setSelected] = useStoredState('sjgate.selected', DEFAULT_WATCH[0]!);
  const info = usePolling(loadInfo, 30_000);
  const accounts = usePolling(loadAccounts, 0);
  const signInNeeded = useSyncExternalStore(auth.subscribe, auth.needed);

  useEffect(() => {
    const disconnects = [connectQuoteBook(marketStream), connectBars(marketStream)];
    marketStream.start();
    return () => {
      marketStream.stop();
      for (const disconnect of disconnects) disconnect();
    };
  }, []);

  return (
    <>
      <header className="topbar">
        <div className="brand">
          <span className="logo" aria-hidden="true" />
          sjgate
        </div>
        <ModeBadge info={info.data} />
        <ViewTabs view={view} onChange={showView} />
        <nav className="links">
          <a href="/docs" target="_blank" rel="noopener">
            API docs
          </a>
          <ThemeToggle />
        </nav>
      </header>
      {signInNeeded ? <SignIn /> : null}
      {view === 'observability' ? <ObservabilityView /> : null}
      {view === 'trading' ? (
        <TradingView selected={selected} setSelected={setSelected} accounts={accounts} info={info.data} />
      ) : null}
    </>
  );
}

interface TradingProps {
  selected: string;
  setSelected: (code: string) => void;
  accounts: Loaded<AccountView[]>;
  info: ServerInfo | null;
}

/** The trading cards: server, usage, accounts, market watch, chart, order ticket, blotters, streams, apps. */
function TradingView({ selected, setSelected, accounts, info }: TradingProps) {
  const [placedCount, setPlacedCount] = useState(0);
  const [subscribedCount, setSubscribedCount] = useState(0);
  const countSubscription = useCallback(() => setSubscribedCount((n) => n + 1), []);
  return (
    <main className="grid">
      <ServerCard info={info} />
      <UsageCard />
      <AccountsCard accounts={accounts.data} error={accounts.error} />
      <MarketWatchCard selected={selected} onSelect={setSelected} onSubscribed={countSubscription} />
      <ChartCard code={selected} />
      <OrderTicketCard code={selected} accounts={accounts.data} onPlaced={() => setPlacedCount((n) => n + 1)} />
      <BlottersCard accounts={accounts.data} placedCount={placedCount} />
      <StreamsCard subscribedCount={subscribedCount} />
      <AppsCard />
    </main>
  );
}
