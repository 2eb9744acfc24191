import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatProgress, ProgressLine } from '../../src/cli/progress.js';

describe('the progress bar', () => {
  const MB = 1024 * 1024;

  test('shows the label, a bar of the fraction sent, the percentage and the sizes in MB', () => {
    assert.equal(
      formatProgress('Uploading myapp', 2.4 * MB, 5 * MB, 12),
      'Uploading myapp [██████░░░░░░] 48%  2.4/5.0 MB',
    );
    assert.equal(formatProgress('Up', 0, 5 * MB, 4), 'Up [░░░░] 0%  0.0/5.0 MB');
    assert.equal(formatProgress('Up', 5 * MB, 5 * MB, 4), 'Up [████] 100%  5.0/5.0 MB');
    assert.equal(formatProgress('Up', 0, 0, 4), 'Up [████] 100%  0.0/0.0 MB');
  });

  test('redraws in place at most ten times a second and erases itself at the end', () => {
    const writes: string[] = [];
    let now = 1_000;
    const line = new ProgressLine({ write: (text) => writes.push(text) }, 'Up', 10 * MB, () => now);
    line.update(1 * MB);
    now += 50;
    line.update(2 * MB);
    now += 60;
    line.update(3 * MB);
    assert.equal(writes.length, 2, 'the update 50 ms after the first is skipped');
    assert.ok(writes.every((text) => text.startsWith('\r')));
    assert.match(writes[1]!, /30%/);
    line.clear();
    assert.equal(writes.at(-1), '\r\x1b[2K');
    const silent: string[] = [];
    new ProgressLine({ write: (text) => silent.push(text) }, 'Up', 1).clear();
    assert.deepEqual(silent, [], 'nothing to erase when nothing was drawn');
  });
});
