// Preloaded into every test process by run-tests.mjs: each test, subtest and hook that sets no time limit of its own
// gets SJ_TEST_TIME_LIMIT_MS. Node 20's --test-timeout limits only whole files (the runner's child processes ignore
// it), so without this a test that waits for something that never comes holds its file until the file's limit, and
// the report cannot say which test it was.
//
// node:test has no option for a default limit, so this watches the runner create its tests (each is an async
// resource) and makes an unset limit (null or Infinity) read as the default. Suites (describe) are left alone: a suite's limit
// bounds all of its tests together.
import { createHook } from 'node:async_hooks';

const limit = Number(process.env.SJ_TEST_TIME_LIMIT_MS ?? 60_000);
const limited = new Set(['Test', 'TestHook']);

if (Number.isFinite(limit) && limit > 0) {
  createHook({
    init(_id, _type, _trigger, resource) {
      if (!limited.has(resource?.constructor?.name)) return;
      let timeout = null;
      Object.defineProperty(resource, 'timeout', {
        configurable: true,
        enumerable: true,
        // The root of a file (a Test without a parent) keeps its own value, which suites inherit.
        get: () => {
          const unset = timeout == null || timeout === Number.POSITIVE_INFINITY;
          const root = resource.parent === null && resource.constructor.name === 'Test';
          return unset && !root ? limit : timeout;
        },
        set: (value) => {
          timeout = value;
        },
      });
    },
  }).enable();
}
