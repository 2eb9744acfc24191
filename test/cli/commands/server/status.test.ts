import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatServerStatus } from '../../../../src/cli/commands/server/status.js';

test('server status --streams shows the clients of each stream, busiest first', () => {
  const text = formatServerStatus({
    running: true,
    pid: 42,
    port: 8080,
    socket_path: '/tmp/s.sock',
    healthy: true,
    simulation: true,
    stream_receivers: 'Market data receivers are available',
    stream_status: {
      active_connections: 3,
      timestamp: '2026-11-23T02:00:00.000Z',
      status: 'healthy',
      streams: { data: 1, tick_stk: 0, order_event: 2 },
    },
  });
  const lines = text.split('\n');
  assert.ok(lines.includes('stream status'), text);
  assert.ok(lines.includes('  active_connections  3'), text);
  const perStream = lines.slice(lines.indexOf('clients per stream') + 1);
  assert.deepEqual(perStream, ['  order_event  2', '  data         1', '  tick_stk     0']);
  assert.ok(!text.includes('stream_status.'), 'no dotted keys');
});
