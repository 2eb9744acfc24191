// sjgate takes every command, flag, flag value and argument of the official shioaji CLI, as recorded in
// test/fixtures/official-1.7.9-cli-flags.json by scripts/record-official-cli-flags.mjs (from `shioaji tree` and each
// command's --help; the e2e test test/e2e/official-cli.test.ts runs the binary itself). Per command: each official
// flag is in sjgate's help (an alias may be hidden, but must be accepted), takes a value exactly when the official
// one does, and accepts every value the official one lists; each official argument has a place in sjgate's command.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Command, Option } from 'commander';
import { createProgram } from '../../src/cli/program.js';
import { fakeDaemon, memoryIO } from '../helpers/cli.js';

interface OfficialFlag {
  short?: string;
  value?: string;
  aliases?: string[];
  choices?: string[];
}

interface OfficialCommand {
  arguments: { name: string; required: boolean; choices?: string[] }[];
  flags: Record<string, OfficialFlag>;
}

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/official-1.7.9-cli-flags.json', import.meta.url), 'utf8'),
) as { version: string; commands: Record<string, OfficialCommand> };

/**
 * What sjgate leaves out on purpose, each with why. `help` is clap's own subcommand (commander has its own `help`),
 * not in the recording. Everything else of the official CLI is taken.
 */
const EXCLUDED: Record<string, string> = {};

const program = createProgram({ entry: '/nonexistent', version: '0.0.0-test' }, memoryIO().io);

function find(path: string): Command | undefined {
  let command: Command | undefined = program;
  for (const name of path.split(' ').filter((part) => part !== '')) {
    command = command?.commands.find((child) => child.name() === name || child.aliases().includes(name));
  }
  return command;
}

/** The options a command parses: its own, --help, and those of every command above it (commander's global options). */
function optionsOf(command: Command): Option[] {
  const options: Option[] = command.createHelp().visibleOptions(command);
  for (let at: Command | null = command; at !== null; at = at.parent) options.push(...at.options);
  return options;
}

const named = (options: Option[], flag: string) =>
  options.find((option) => option.long === flag || option.short === flag);

/** An official value is accepted when it is one of the option's choices, or its parser takes it. */
function accepts(option: Option, value: string): boolean {
  if (option.argChoices !== undefined) return option.argChoices.includes(value);
  if (option.parseArg === undefined) return true;
  try {
    option.parseArg(value, option.defaultValue);
    return true;
  } catch {
    return false;
  }
}

/** The differences of one official command from sjgate's, each as one line. */
function differences(path: string, official: OfficialCommand): string[] {
  const command = find(path);
  if (command === undefined) return [`${path}: no such sjgate command`];
  const found: string[] = [];
  const help = command.helpInformation();
  const options = optionsOf(command);
  for (const [flag, spec] of Object.entries(official.flags)) {
    const where = `${path} ${flag}`;
    if (EXCLUDED[where] !== undefined) continue;
    const option = named(options, flag);
    if (option === undefined) {
      found.push(`${where}: not accepted`);
      continue;
    }
    for (const name of [flag, ...(spec.short ? [spec.short] : [])]) {
      if (!new RegExp(`(^|[\\s,])${name}([\\s,=]|$)`, 'm').test(help)) found.push(`${where}: ${name} not in the help`);
    }
    if (spec.short !== undefined && option.short !== spec.short) found.push(`${where}: no short form ${spec.short}`);
    for (const alias of spec.aliases ?? []) {
      if (named(options, alias) === undefined) found.push(`${where}: alias ${alias} not accepted`);
    }
    const takesValue = option.required || option.optional;
    if (takesValue !== (spec.value !== undefined)) {
      found.push(`${where}: ${spec.value ? 'takes a value' : 'takes no value'} in the official CLI`);
    }
    for (const value of spec.choices ?? []) {
      if (!accepts(option, value)) found.push(`${where}: value ${value} not accepted`);
    }
  }
  official.arguments.forEach((argument, index) => {
    const ours = command.registeredArguments[index];
    if (ours === undefined) {
      found.push(`${path} <${argument.name}>: no argument ${index + 1}`);
      return;
    }
    for (const value of argument.choices ?? []) {
      if (ours.argChoices !== undefined && !ours.argChoices.includes(value)) {
        found.push(`${path} <${argument.name}>: value ${value} not accepted`);
      }
    }
  });
  return found;
}

test(`sjgate takes every command, flag, value and argument of the official ${fixture.version} CLI`, () => {
  const commands = Object.entries(fixture.commands);
  assert.ok(commands.length > 70, `the recording holds ${commands.length} commands`);
  for (const where of Object.keys(EXCLUDED)) {
    const cut = where.lastIndexOf(' ');
    const flags = fixture.commands[where.slice(0, cut)]?.flags ?? {};
    assert.ok(flags[where.slice(cut + 1)] !== undefined, `the exclusion ${where} is not an official flag`);
  }
  const found = commands.flatMap(([path, official]) => differences(path, official));
  assert.deepEqual(found, [], `${found.length} differences:\n${found.join('\n')}`);
});

test('the comparison sees a flag that is missing, and a value that is refused', () => {
  const official: OfficialCommand = {
    arguments: [{ name: 'SHELL', required: true, choices: ['tcsh'] }],
    flags: { '--no-such-flag': {}, '--format': { value: 'FORMAT', choices: ['yaml'] } },
  };
  assert.deepEqual(differences('completions', official), [
    'completions --no-such-flag: not accepted',
    'completions --format: value yaml not accepted',
    'completions <SHELL>: value tcsh not accepted',
  ]);
});

describe("the official CLI's global -f and -v", () => {
  const daemon = fakeDaemon(() => [200, [{ account_type: 'S', broker_id: '9A95', account_id: '1234567' }]]);
  before(() => daemon.start());
  after(() => daemon.stop());

  test('-f is --format; -v prints each request on stderr, and the answer is unchanged', async () => {
    const run = await daemon.sjgate('-f', 'json', '-v', 'auth', 'accounts');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout)[0].broker_id, '9A95');
    assert.match(run.stderr, /^GET \/api\/v1\/auth\/accounts → 200 over tcp in \d+ ms$/m);
    const quiet = await daemon.sjgate('-f', 'toon', 'auth', 'accounts');
    assert.equal(quiet.stderr, '');
    assert.match(quiet.stdout, /^\[1\]\{account_type,broker_id,account_id\}:\n {2}S,9A95,"1234567"\n$/);
  });
});
