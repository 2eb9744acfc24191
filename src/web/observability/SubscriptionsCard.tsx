// The logical subscriptions the gateway holds for every client, with a search over codes, topics and accounts.

import { useState } from 'react';
import { client } from '../api';
import { Card, EmptyRow, ErrorLine } from '../cards/Card';
import { integer } from '../format';
import { useDebounced, usePolling } from '../hooks';

export function SubscriptionsCard() {
  const [search, setSearch] = useState('');
  const list = usePolling(() => client.monitor.subscriptions({ limit: 500, search: search || undefined }), 5000);
  const reload = useDebounced(list.reload, 200);
  const data = list.data;
  const types = Object.entries(data?.by_type ?? {});
  return (
    <Card id="obs-subscriptions" title="Subscriptions" span={6}>
      <input
        type="search"
        placeholder="Search code, topic or account"
        aria-label="Search subscriptions"
        maxLength={100}
        value={search}
        data-testid="obs-subscriptions-search"
        onChange={(event) => {
          setSearch(event.target.value);
          reload();
        }}
      />
      <p className="muted" data-testid="obs-subscriptions-summary">
        {data
          ? `${integer(data.market_data)} quote subscriptions, ${integer(data.trade_accounts)} accounts with reports` +
            (types.length > 0 ? ` · ${types.map(([type, count]) => `${type} ${count}`).join(', ')}` : '') +
            (search ? ` · ${integer(data.matched)} match` : '')
          : '…'}
      </p>
      <div className="scroll short">
        <table className="table">
          <thead>
            <tr>
              <th>Code or account</th>
              <th>Type</th>
              <th>Topic</th>
            </tr>
          </thead>
          <tbody>
            {(data?.items ?? []).map((item) => (
              <tr key={`${item.type}:${item.id}`} data-testid={`obs-subscription-${item.code ?? item.id}`}>
                <td className="mono">
                  {item.code ?? item.id}
                  {item.target_code ? <span className="muted"> ({item.target_code})</span> : null}
                </td>
                <td>{item.quote_type ?? 'order reports'}</td>
                <td className="mono muted">{item.topic ?? '—'}</td>
              </tr>
            ))}
            {data && data.items.length === 0 ? (
              <EmptyRow columns={3}>{search ? 'Nothing matches.' : 'No subscriptions.'}</EmptyRow>
            ) : null}
          </tbody>
        </table>
      </div>
      <ErrorLine message={list.error} />
    </Card>
  );
}
