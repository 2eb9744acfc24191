// Preloaded into the daemon by bench/churn.bench.ts (NODE_OPTIONS=--require): every 500 ms writes the process's GC
// pause time and count (perf_hooks 'gc' entries), CPU time, RSS and the parts of process.memoryUsage() to
// $SJ_BENCH_GC_DIR/gc-<pid>.json, with the anonymous and file-backed parts of RSS from /proc/self/status (Linux).
const { PerformanceObserver } = require('node:perf_hooks');
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { writeHeapSnapshot } = require('node:v8');

const MB = 2 ** 20;

/** RssAnon and RssFile from /proc/self/status in MB, or nothing where there is no /proc. */
function rssParts() {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { rss_anon_mb: kb('RssAnon') / 1024, rss_file_mb: kb('RssFile') / 1024 };
  } catch {
    return {};
  }
}

const dir = process.env.SJ_BENCH_GC_DIR;
if (dir) {
  const gc = { ms: 0, count: 0, young_ms: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.ms += entry.duration;
      gc.count++;
      if (entry.detail?.kind === 1) gc.young_ms += entry.duration; // NODE_PERFORMANCE_GC_MINOR
    }
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => {
    const cpu = process.cpuUsage();
    const memory = process.memoryUsage();
    const sample = {
      gc_ms: gc.ms,
      gc_young_ms: gc.young_ms,
      gc_count: gc.count,
      cpu_ms: (cpu.user + cpu.system) / 1000,
      rss_mb: memory.rss / MB,
      heap_mb: memory.heapUsed / MB,
      heap_total_mb: memory.heapTotal / MB,
      external_mb: memory.external / MB,
      array_buffers_mb: memory.arrayBuffers / MB,
      ...rssParts(),
    };
    // Written aside and renamed, so that the bench never reads a half-written file.
    writeFileSync(`${dir}/gc-${process.pid}.json.tmp`, JSON.stringify(sample));
    renameSync(`${dir}/gc-${process.pid}.json.tmp`, `${dir}/gc-${process.pid}.json`);
  }, 500).unref();
}

// SJ_BENCH_PROFILE_DIR: from SJ_BENCH_PROFILE_AFTER_S seconds after start, for SJ_BENCH_PROFILE_FOR_S seconds, a CPU
// profile and a sampling heap profile that keeps the objects GC collected too (what is allocated, not what is kept),
// or with SJ_BENCH_PROFILE_LIVE=1 only the objects still alive when it stops (what is kept).
const profileDir = process.env.SJ_BENCH_PROFILE_DIR;
if (profileDir) {
  const { Session } = require('node:inspector');
  const session = new Session();
  session.connect();
  const after = Number(process.env.SJ_BENCH_PROFILE_AFTER_S ?? 30) * 1000;
  const span = Number(process.env.SJ_BENCH_PROFILE_FOR_S ?? 15) * 1000;
  setTimeout(() => {
    session.post('Profiler.enable');
    session.post('Profiler.start');
    const collected = process.env.SJ_BENCH_PROFILE_LIVE !== '1';
    session.post('HeapProfiler.startSampling', {
      samplingInterval: 16384,
      includeObjectsCollectedByMajorGC: collected,
      includeObjectsCollectedByMinorGC: collected,
    });
    setTimeout(() => {
      session.post('Profiler.stop', (_e, { profile }) =>
        writeFileSync(`${profileDir}/cpu-${process.pid}.cpuprofile`, JSON.stringify(profile)),
      );
      session.post('HeapProfiler.stopSampling', (_e, { profile }) =>
        writeFileSync(`${profileDir}/heap-${process.pid}.heapprofile`, JSON.stringify(profile)),
      );
    }, span).unref();
  }, after).unref();
}

// SJ_BENCH_HEAP_SNAPSHOT_DIR and SJ_BENCH_HEAP_SNAPSHOT_AT_S (seconds after start, comma-separated): a heap snapshot
// at each of those times (it pauses the process for seconds and runs a full GC first).
const snapshotDir = process.env.SJ_BENCH_HEAP_SNAPSHOT_DIR;
if (snapshotDir) {
  for (const at of (process.env.SJ_BENCH_HEAP_SNAPSHOT_AT_S ?? '').split(',').filter(Boolean)) {
    setTimeout(
      () => writeHeapSnapshot(`${snapshotDir}/heap-${process.pid}-${at}s.heapsnapshot`),
      Number(at) * 1000,
    ).unref();
  }
}
