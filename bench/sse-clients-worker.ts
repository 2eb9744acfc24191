// A client process of the SSE fan-out benchmark: many plain TCP connections, each a GET of an SSE stream, read with
// as little work as possible (the machine has 2 cores and the server under test needs one): no SSE parser, no JSON;
// each message's `"published_us":<digits>` is found with indexOf, and receipt − publish (both on CLOCK_MONOTONIC, in
// µs, the receipt read once per socket read) goes into a histogram. The HTTP chunk framing is left in the bytes:
// every server write is one whole message, so no message spans two chunks.
//
// With `time_base_us` in the connect message (sse-live.bench.ts), the events are the simulator's own ticks: each
// message's `"time":"HH:MM:SS.ffffff"` is the moment it traded, read on the shared clock as time_base_us + that time.
//
// IPC: {type: 'connect', port, path, count, time_base_us?} → {type: 'connected', connected, failed};
//      {type: 'reset'} → {type: 'reset'} (zeroes counts and histogram);
//      {type: 'stats'} → {type: 'stats', ...};  {type: 'close'} → {type: 'closed'}.

import { connect, type Socket } from 'node:net';

const PUBLISHED_MARKER = Buffer.from('"published_us":');
const TIME_MARKER = Buffer.from('"time":"');
let MARKER = PUBLISHED_MARKER;
/** Set for the simulator's own ticks: CLOCK_MONOTONIC µs of the simulated day's midnight. */
let timeBaseUs: number | null = null;
/** Latency histogram: 10 µs buckets up to 100 ms, then 1 ms buckets up to 60 s, then one overflow bucket. */
const FINE_US = 10;
const FINE_BUCKETS = 10_000;
const COARSE_US = 1000;
const COARSE_BUCKETS = 60_000;
const histogram = new Uint32Array(FINE_BUCKETS + COARSE_BUCKETS + 1);

interface Client {
  socket: Socket;
  events: number;
  /** The start of a message cut by the end of the last read, carried to the next. */
  pending: Buffer | null;
}

const clients: Client[] = [];
let events = 0;
let negatives = 0;
let maxUs = 0;
let closedEarly = 0;

function record(latencyUs: number): void {
  let us = latencyUs;
  if (us < 0) {
    negatives++;
    us = 0;
  }
  if (us > maxUs) maxUs = us;
  const bucket =
    us < FINE_US * FINE_BUCKETS
      ? Math.floor(us / FINE_US)
      : Math.min(FINE_BUCKETS + Math.floor((us - FINE_US * FINE_BUCKETS) / COARSE_US), histogram.length - 1);
  histogram[bucket]!++;
}

/** Finds every publish time in what arrived; keeps an unfinished one for the next read. */
function onData(client: Client, chunk: Buffer): void {
  const [seconds, nanoseconds] = process.hrtime();
  const now = seconds * 1_000_000 + nanoseconds / 1000;
  const bytes = client.pending ? Buffer.concat([client.pending, chunk]) : chunk;
  client.pending = null;
  let at = bytes.indexOf(MARKER);
  while (at !== -1) {
    let k = at + MARKER.length;
    let value = 0;
    if (timeBaseUs !== null) {
      // "HH:MM:SS.ffffff", up to its closing quote.
      const end = bytes.indexOf(34, k);
      k = end === -1 ? bytes.length : end;
      if (end !== -1) {
        const [hours, minutes, seconds] = bytes.toString('latin1', at + MARKER.length, end).split(':');
        value = timeBaseUs + ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1_000_000;
      }
    }
    while (timeBaseUs === null && k < bytes.length) {
      const c = bytes[k]!;
      if (c < 48 || c > 57) break;
      value = value * 10 + (c - 48);
      k++;
    }
    if (k === bytes.length) {
      client.pending = bytes.subarray(at);
      return;
    }
    client.events++;
    events++;
    record(now - value);
    at = bytes.indexOf(MARKER, k);
  }
  // A marker may be cut in two by the end of the read: keep its possible start.
  const tail = bytes.subarray(Math.max(0, bytes.length - MARKER.length + 1));
  if (tail.includes(MARKER[0]!)) client.pending = Buffer.from(tail.subarray(tail.indexOf(MARKER[0]!)));
}

/** One connection, resolved once the response head (200) and the stream's opening comment arrived. */
function open(port: number, path: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const client: Client = { socket, events: 0, pending: null };
    socket.setNoDelay(true);
    socket.once('connect', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`),
    );
    socket.once('error', reject);
    socket.once('data', (head: Buffer) => {
      const text = head.toString('latin1');
      if (!text.startsWith('HTTP/1.1 200')) {
        socket.destroy();
        reject(new Error(`the stream answered ${text.slice(0, text.indexOf('\r\n'))}`));
        return;
      }
      socket.removeListener('error', reject);
      socket.on('error', () => undefined);
      socket.once('close', () => {
        if (clients.includes(client)) closedEarly++;
      });
      socket.on('data', (chunk: Buffer) => onData(client, chunk));
      onData(client, head);
      resolve(client);
    });
  });
}

async function connectMany(port: number, path: string, count: number) {
  let failed = 0;
  const errors = new Set<string>();
  const BATCH = 50;
  for (let i = 0; i < count; i += BATCH) {
    const batch = await Promise.allSettled(Array.from({ length: Math.min(BATCH, count - i) }, () => open(port, path)));
    for (const result of batch) {
      if (result.status === 'fulfilled') clients.push(result.value);
      else {
        failed++;
        errors.add(String(result.reason));
      }
    }
  }
  return { type: 'connected', connected: clients.length, failed, errors: [...errors].slice(0, 3) };
}

function stats() {
  const cpu = process.cpuUsage();
  const sparse: [number, number][] = [];
  for (let i = 0; i < histogram.length; i++) if (histogram[i]! > 0) sparse.push([i, histogram[i]!]);
  const perClient = clients.map((client) => client.events);
  return {
    type: 'stats',
    clients: clients.length,
    events,
    negatives,
    max_us: maxUs,
    closed_early: closedEarly,
    min_per_client: perClient.length ? Math.min(...perClient) : 0,
    max_per_client: perClient.length ? Math.max(...perClient) : 0,
    histogram: sparse,
    cpu_us: cpu.user + cpu.system,
  };
}

process.on(
  'message',
  (message: { type: string; port?: number; path?: string; count?: number; time_base_us?: number }) => {
    if (message.type === 'connect') {
      timeBaseUs = message.time_base_us ?? null;
      MARKER = timeBaseUs === null ? PUBLISHED_MARKER : TIME_MARKER;
      connectMany(message.port!, message.path!, message.count!).then(
        (reply) => process.send!(reply),
        (error: unknown) => process.send!({ type: 'error', error: String(error) }),
      );
    } else if (message.type === 'reset') {
      histogram.fill(0);
      events = 0;
      negatives = 0;
      maxUs = 0;
      for (const client of clients) client.events = 0;
      const cpu = process.cpuUsage();
      process.send!({ type: 'reset', cpu_us: cpu.user + cpu.system });
    } else if (message.type === 'stats') {
      process.send!(stats());
    } else if (message.type === 'close') {
      const all = clients.splice(0);
      for (const client of all) client.socket.destroy();
      closedEarly = 0;
      process.send!({ type: 'closed' });
    }
  },
);
process.on('disconnect', () => process.exit(0));
process.send!({ type: 'ready' });
