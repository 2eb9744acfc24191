import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Command } from 'commander';
import { commandTree } from '../../../src/cli/commands/tree.js';
import { EXIT } from '../../../src/cli/context.js';
import { createProgram } from '../../../src/cli/program.js';
import { assertUsageErrors, fakeDaemon, memoryIO } from '../../helpers/cli.js';

const program = createProgram({ entry: '/nonexistent', version: '0.0.0-test' }, memoryIO().io);

/** Every command path, walked independently of commandTree. */
function paths(command: Command, prefix: string): string[] {
  return command.commands.flatMap((child) => {
    const path = `${prefix} ${child.name()}`;
    return [path, ...paths(child, path)];
  });
}

test('commandTree lists every registered command once, groups before their commands', () => {
  const lines = commandTree(program);
  assert.deepEqual(lines, paths(program, 'sjgate'));
  assert.equal(new Set(lines).size, lines.length);
  for (const expected of ['sjgate order', 'sjgate order place', 'sjgate server check', 'sjgate version', 'sjgate tree'])
    assert.ok(lines.includes(expected), expected);
  assert.ok(lines.indexOf('sjgate order') < lines.indexOf('sjgate order place'));
});

test('commandTree --params adds arguments and visible flags; --all a description', () => {
  const place = commandTree(program, { params: true }).find((line) => line.startsWith('sjgate order place '));
  assert.ok(place !== undefined);
  assert.ok(place.includes('--tif') && place.includes('--order-type') && place.includes('--no-wait'), place);
  assert.ok(!place.includes('--time-in-force'), 'hidden flags stay hidden');
  const stock = commandTree(program, { params: true }).find((line) => line.startsWith('sjgate reserve stock '));
  assert.equal(stock, 'sjgate reserve stock [CODE] [SHARES] --account --code --share');
  const all = commandTree(program, { all: true }).find((line) => line.startsWith('sjgate server check'));
  assert.match(all ?? '', /— check that the daemon answers/);
});

describe('sjgate tree', () => {
  const daemon = fakeDaemon(() => [404, {}]);
  before(() => daemon.start());
  after(() => daemon.stop());

  test('prints the tree without asking the daemon; --format json is an array', async () => {
    const run = await daemon.sjgate('tree');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(run.stdout.trimEnd().split('\n'), commandTree(program));
    const json = await daemon.sjgate('tree', '--format', 'json');
    assert.deepEqual(JSON.parse(json.stdout), commandTree(program));
    assert.deepEqual(daemon.seen, []);
  });

  test('bad flags are exit 2', async () => {
    await assertUsageErrors(daemon, [
      [['tree', '--depth', '2'], /unknown option '--depth'/],
      [['tree', 'order'], /too many arguments/],
    ]);
  });
});
