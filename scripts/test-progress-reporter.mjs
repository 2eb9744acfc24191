// A node:test reporter for run-tests.mjs: one line when a test file starts and one when it ends, with its duration,
// so that the runner can name the files still running when the suite overruns and list the slowest ones at the end.
// Lines: `start\t<file>\t<epoch ms>` and `end\t<file>\t<duration ms>\t<pass|fail>`.

export default async function* progress(source) {
  for await (const event of source) {
    const { name, file, details } = event.data ?? {};
    // The runner reports each file as a test named by the file's own path.
    if (file === undefined || name !== file) continue;
    if (event.type === 'test:dequeue') yield `start\t${file}\t${Date.now()}\n`;
    else if (event.type === 'test:complete') {
      const outcome = details?.passed === false || details?.error ? 'fail' : 'pass';
      yield `end\t${file}\t${Math.round(details?.duration_ms ?? 0)}\t${outcome}\n`;
    }
  }
}
