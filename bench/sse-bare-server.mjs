// The baseline of the SSE fan-out benchmark: a bare node:http server. On GET it writes the SSE headers and the
// opening comment the gateway writes, and keeps the response; on command it publishes the same events as the gateway
// (the tick_stk it is told, plus published_us), serialized once into one Buffer per event with an `id:` line of the
// gateway's form, written with res.write to every open response at the same rate. No ring, no caps, no filters.
//
// IPC: the same as streams-gateway.ts: {type: 'listening', port} once ready; then 'publish' and 'status'.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';

const DRAIN_MS = 250;

const clients = new Set();
const server = createServer((_request, response) => {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
  response.write(': ok\n\nretry: 2000\n\n');
  clients.add(response);
  response.once('close', () => clients.delete(response));
});

let seq = Date.now() * 1000;
const nowUs = () => {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1_000_000 + Math.round(nanoseconds / 1000);
};
const rssMb = () => Math.round((process.memoryUsage().rss / 1048576) * 10) / 10;

/** Write syscalls (write, writev) this process made so far: how many messages one socket write carries. */
function writeSyscalls() {
  try {
    return Number(/syscw: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

/** p50, p99 and max of the times one timer tick took to publish its events and flush every socket, in ms. */
function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0) * 100) / 100;
  return { p50: at(0.5), p99: at(0.99), max: at(1) };
}

function publish(family, data) {
  seq++;
  const bytes = Buffer.from(`id: 0-${seq}\nevent: ${family}\ndata: ${JSON.stringify(data)}\n\n`);
  for (const response of clients) response.write(bytes);
}

async function publishFor({ seconds, rate, pad, tick }) {
  const template = pad > 0 ? { ...tick, pad: 'x'.repeat(pad) } : tick;
  const interval = 1000 / rate;
  const total = Math.round(seconds * rate);
  const rss = [rssMb()];
  const sampler = setInterval(() => rss.push(rssMb()), 1000);
  let sent = 0;
  let lateMax = 0;
  const fanoutMs = [];
  const cpuBefore = process.cpuUsage();
  const writesBefore = writeSyscalls();
  const start = performance.now();
  await new Promise((done) => {
    const step = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor((now - start) / interval) + 1);
      const first = sent;
      while (sent < due) {
        lateMax = Math.max(lateMax, now - (start + sent * interval));
        publish('tick_stk', { ...template, published_us: nowUs() });
        sent++;
      }
      // The responses are corked while written and flushed in process.nextTick: this tick runs after those.
      if (sent > first) process.nextTick(() => fanoutMs.push(performance.now() - now));
      if (sent >= total) done();
      else setTimeout(step, Math.max(0, start + sent * interval - performance.now()));
    };
    step();
  });
  const publishMs = performance.now() - start;
  await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
  const cpu = process.cpuUsage(cpuBefore);
  const writes = writeSyscalls() - writesBefore;
  clearInterval(sampler);
  rss.push(rssMb());
  return {
    type: 'published',
    events: sent,
    publish_ms: publishMs,
    window_ms: performance.now() - start,
    cpu_us: cpu.user + cpu.system,
    cpu_user_us: cpu.user,
    cpu_system_us: cpu.system,
    write_syscalls: writes,
    late_max_ms: lateMax,
    fanout_ms: percentiles(fanoutMs),
    data_bytes: Buffer.byteLength(JSON.stringify({ ...template, published_us: nowUs() })),
    rss_mb: rss,
  };
}

process.on('message', (message) => {
  if (message.type === 'publish') {
    publishFor(message).then(
      (result) => process.send(result),
      (error) => process.send({ type: 'error', error: String(error) }),
    );
  } else if (message.type === 'status') {
    process.send({ type: 'status', connections: clients.size, rss_mb: rssMb() });
  }
});
process.on('disconnect', () => process.exit(0));
server.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }));
