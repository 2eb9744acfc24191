// Preloaded into the daemon by bench/churn.bench.ts (NODE_OPTIONS=--require): every 500 ms writes the process's GC
// pause time and count (perf_hooks 'gc' entries), CPU time, RSS and heap to $SJ_BENCH_GC_DIR/gc-<pid>.json.
const { PerformanceObserver } = require('node:perf_hooks');
const { renameSync, writeFileSync } = require('node:fs');

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
      rss_mb: memory.rss / 2 ** 20,
      heap_mb: memory.heapUsed / 2 ** 20,
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
