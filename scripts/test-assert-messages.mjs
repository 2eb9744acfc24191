// Preloaded into every test process by run-tests.mjs: a failing `assert.ok(value)` without a message fails at once.
//
// Node builds the message of such an assert ("The expression evaluated to a falsy value: ...") by reading the source
// file at the position of the call. Under tsx the position is the one in the transpiled code while the file read is the
// .ts source, so the expression is not found there; Node 20 then retries parsing the same text in a recursion that,
// in a large test file, runs for minutes, and the failing test only ends at its time limit. Here the message is built
// from the source-mapped stack instead: the file, line and text of the call.
import assert from 'node:assert';
import { readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { fileURLToPath } from 'node:url';

const MAX_LINES_OF_CALL = 10;

function withMessage(original) {
  return function ok(...args) {
    if (args.length === 0 || args[0] || args[1] != null) return original.apply(this, args);
    throw new assert.AssertionError({
      message: `The expression evaluated to a falsy value:\n\n  ${callText(ok)}\n`,
      actual: args[0],
      expected: true,
      operator: '==',
      stackStartFn: ok,
    });
  };
}

/** The source text of the call to `fn`, found by the source-mapped stack. */
function callText(fn) {
  const probe = {};
  Error.captureStackTrace(probe, fn);
  const frame = /\(?((?:file:\/\/)?\/[^\s()]+):(\d+):\d+\)?$/.exec(probe.stack.split('\n')[1] ?? '');
  if (frame === null) return '(the call site is unknown)';
  const [, location, line] = frame;
  return sourceOfCall(location.startsWith('file:') ? fileURLToPath(location) : location, Number(line));
}

/** The source from the line of the call to its closing parenthesis (or a few lines of it). */
function sourceOfCall(path, line) {
  let lines;
  try {
    lines = readFileSync(path, 'utf8')
      .split('\n')
      .slice(line - 1, line - 1 + MAX_LINES_OF_CALL);
  } catch {
    return '(the source is unreadable)';
  }
  if (lines.length === 0) return '(the source is unreadable)';
  let depth = 0;
  const taken = [];
  for (const text of lines) {
    taken.push(text.trim());
    for (const char of text) depth += char === '(' ? 1 : char === ')' ? -1 : 0;
    if (depth <= 0) break;
  }
  return taken.join('\n  ');
}

assert.ok = withMessage(assert.ok);
assert.strict.ok = withMessage(assert.strict.ok);
syncBuiltinESMExports();
