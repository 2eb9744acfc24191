// The live streams: every SSE connection and, while this card is shown, every topic with its events. The card holds a
// viewer session, so the gateway counts per topic only while someone looks.

import { client } from '../api';
import { Card, ErrorLine } from '../cards/Card';
import { bytes, integer } from '../format';
import { usePolling } from '../hooks';
import { useViewerSession } from './monitor-api';

export function LiveStreamsCard() {
  const session = useViewerSession();
  const streams = usePolling(() => client.monitor.streams({ limit: 500 }), 2000);
  const data = streams.data;
  const rows = [...(data?.items ?? [])].sort((a, b) =>
    a.kind === b.kind ? b.per_second - a.per_second : a.kind === 'connection' ? -1 : 1,
  );
  return (
    <Card
      id="obs-streams"
      title="Live streams"
      span={6}
      actions={
        <span className={`status ${data?.collecting ? 'ok' : 'warn'}`} data-testid="obs-streams-collecting">
          {data?.collecting ? 'counting topics' : session.id ? 'starting…' : 'not counting'}
        </span>
      }
    >
      <p className="muted">
        {data
          ? `${integer(data.items.filter((row) => row.kind === 'connection').length)} connections, ` +
            `${integer(data.items.filter((row) => row.kind === 'topic').length)} topics · ${integer(data.viewers)} viewing`
          : '…'}
      </p>
      <div className="scroll short">
        <table className="table" data-testid="obs-streams-table">
          <thead>
            <tr>
              <th>Connection or topic</th>
              <th>Stream</th>
              <th className="num">Messages</th>
              <th className="num">Per s</th>
              <th className="num">Bytes</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.kind}:${row.id}`} data-testid={`obs-stream-${row.kind}`}>
                <td className="mono ellipsis" title={row.id}>
                  {row.kind === 'connection' ? `${row.id.slice(0, 8)}… (${row.origin})` : row.id}
                </td>
                <td>{row.stream}</td>
                <td className="num">{integer(row.messages)}</td>
                <td className="num">{row.per_second.toFixed(2)}</td>
                <td className="num">{bytes(row.bytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ErrorLine message={session.error ?? streams.error} />
    </Card>
  );
}
