// Runs the test files given, in the order given, for run-tests.mjs: `node --test <files>` sorts its files by path, so
// the long files the runner puts first would start wherever their names fall (the server's suites near the
// end). node:test's run() keeps the order. Arguments: concurrency, the limit of each file in ms, the progress file,
// then the test files. This process is started with the preloads, which run() passes on to each file's process.
import { createWriteStream } from 'node:fs';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import progress from './test-progress-reporter.mjs';

const [concurrency, fileLimitMs, progressPath, ...files] = process.argv.slice(2);
const tests = run({ files, concurrency: Number(concurrency), timeout: Number(fileLimitMs) });
tests.on('test:fail', (data) => {
  if (!data.todo) process.exitCode = 1;
});
tests.compose(spec).pipe(process.stdout);
tests.compose(progress).pipe(createWriteStream(progressPath));
