import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Command } from 'commander';
import { commandWord, programFor } from '../../src/cli/lazy-program.js';
import { createProgram } from '../../src/cli/program.js';
import { memoryIO } from '../helpers/cli.js';

const RUNTIME = { entry: '/nonexistent/sjgate-must-not-start.js', version: '0.0.0-test' };

/** Every command under `command` with its options, as `group sub --a --b` lines. */
function shape(command: Command, prefix = ''): string[] {
  return command.commands.flatMap((sub) => {
    const path = `${prefix}${sub.name()}`;
    const options = sub.options.map((option) => option.long ?? option.short).join(' ');
    return [`${path} ${options}`, ...shape(sub, `${path} `)];
  });
}

describe('the program for one command line', () => {
  test('the command word comes after the global options and their values', () => {
    assert.equal(commandWord(['contracts', 'get', '2330']), 'contracts');
    assert.equal(commandWord(['--format', 'json', '--port', '9000', 'order', 'list']), 'order');
    assert.equal(commandWord(['--json', 'code,name', 'contracts', 'get', '2330']), 'contracts');
    assert.equal(commandWord(['--json', '--host', 'h', 'data', 'ticks']), 'data');
    assert.equal(commandWord(['--format=json', 'auth', 'accounts']), 'auth');
    assert.equal(commandWord(['-f', 'json', '-v', 'order', 'list']), 'order');
    assert.equal(commandWord(['--version']), null);
    assert.equal(commandWord(['-h']), null);
    assert.equal(commandWord([]), null);
  });

  test('a named group loads alone, with the same commands and options as in the whole program', async () => {
    const whole = createProgram(RUNTIME, memoryIO().io);
    const groups = ['server', 'setup', 'doctor', 'auth', 'apps', 'contracts', 'data', 'order', 'portfolio'];
    for (const group of [...groups, 'reserve', 'watchlist', 'agent', 'utils']) {
      const lazy = await programFor(RUNTIME, memoryIO().io, ['node', 'sjgate', group, '--help']);
      assert.deepEqual(
        lazy.commands.map((command) => command.name()),
        [group],
      );
      const full = whole.commands.find((command) => command.name() === group);
      assert.ok(full, group);
      assert.deepEqual(shape(lazy), shape({ commands: [full] } as unknown as Command), group);
    }
  });

  test('help, the version and a word it does not know get the whole program', async () => {
    const count = createProgram(RUNTIME, memoryIO().io).commands.length;
    for (const args of [['--help'], ['--version'], ['tree'], ['nonsense']]) {
      const program = await programFor(RUNTIME, memoryIO().io, ['node', 'sjgate', ...args]);
      assert.equal(program.commands.length, count, args.join(' '));
    }
  });
});
