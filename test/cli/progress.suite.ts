import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatProgress, Phases, ProgressLine } from '../../src/cli/progress.js';

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

describe('the steps of a task', () => {
  test('on a terminal: the running step in place with its latest output, cut to the width; each end a line', () => {
    const writes: string[] = [];
    let now = 1_000;
    const phases = new Phases({ write: (text) => writes.push(text), columns: 40 }, true, false, () => now);
    phases.start('installing shioaji');
    phases.note('Collecting shioaji');
    now += 150;
    phases.note('  Downloading shioaji-1.7.9-cp312-cp312-manylinux_2_17_x86_64.whl  ');
    now += 10;
    phases.note('skipped: ten redraws a second at most');
    phases.done('24 packages installed or upgraded');
    assert.deepEqual(writes, [
      '\r\x1b[2K… installing shioaji',
      '\r\x1b[2K… installing shioaji  Downloading shio…',
      '\r\x1b[2K✓ installing shioaji: 24 packages installed or upgraded\n',
    ]);
    phases.start('verifying');
    phases.fail();
    assert.equal(writes.at(-1), '\r\x1b[2K✗ verifying\n');
    phases.done();
    assert.equal(writes.length, 5, 'nothing more once the step has ended');
    const pty: string[] = [];
    new Phases({ write: (text) => pty.push(text), columns: 0 }, true).start('creating the virtual environment');
    assert.deepEqual(pty, ['\r\x1b[2K… creating the virtual environment'], '0 columns: the width is unknown, not 0');
  });

  test('elsewhere: a line when a step starts and one when it ends, no output notes', () => {
    const writes: string[] = [];
    const phases = new Phases({ write: (text) => writes.push(text) }, false);
    phases.start('verifying');
    phases.note('Collecting shioaji');
    phases.done('shioaji 1.7.9');
    assert.deepEqual(writes, ['verifying...\n', '✓ verifying: shioaji 1.7.9\n']);
  });
});
