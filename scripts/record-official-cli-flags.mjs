#!/usr/bin/env node
// Records the commands, flags, flag values and arguments of the official `shioaji` CLI into
// test/fixtures/official-<version>-cli-flags.json, which test/cli/official-flags.suite.ts holds sjgate's CLI to.
// Run it again when the official package changes (python/.venv is where `.ci/run` installs it):
//
//   node scripts/record-official-cli-flags.mjs [path/to/shioaji]
//
// How: `shioaji tree` lists every command (box drawing, four columns per level); `shioaji <command> --help` is clap's
// help, whose Options and Arguments sections name each flag (`-k, --key <KEY>`), its value, its aliases
// (`[aliases: --prod]`) and its choices (`[possible values: a, b]`). Nothing runs but --help, yet the binary tries
// to log in to SinoPac when a command reaches it without a daemon: so this script re-runs itself in a private
// network namespace (`unshare -rn`, loopback only) and refuses to run the binary anywhere else.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const binary = process.argv[2] ?? join(ROOT, 'python/.venv/bin/shioaji');

function interfaces() {
  return readFileSync('/proc/self/net/dev', 'utf8')
    .split('\n')
    .slice(2)
    .map((line) => line.split(':')[0]?.trim())
    .filter((name) => name);
}

if (interfaces().some((name) => name !== 'lo')) {
  const inner = spawnSync(
    'unshare',
    ['-rn', 'sh', '-c', 'ip link set lo up && exec "$@"', 'record', process.execPath, ...process.argv.slice(1)],
    { stdio: 'inherit' },
  );
  process.exit(inner.status ?? 1);
}

const home = mkdtempSync(join(tmpdir(), 'official-cli-flags-'));
// Keys of the right length, never real ones; the home is empty, so no daemon is found.
const env = { ...process.env, SJ_API_KEY: 'x'.repeat(12), SJ_SEC_KEY: 'x'.repeat(12), SJ_HOME_PATH: home, HOME: home };

function run(args) {
  const done = spawnSync(binary, args, { env, encoding: 'utf8', timeout: 30_000 });
  if (done.status !== 0) {
    throw new Error(`${binary} ${args.join(' ')}: ${done.error?.message ?? `exit ${done.status}: ${done.stderr}`}`);
  }
  return done.stdout;
}

/** Command paths from `shioaji tree`: `├── server  — …` at depth 0, `│   ├── start  — …` at depth 1. */
function commandPaths(tree) {
  const paths = [];
  const stack = [];
  for (const line of tree.split('\n').slice(1)) {
    const match = /^([│ ]*)[├└]── (\S+)/u.exec(line);
    if (!match) continue;
    const depth = [...match[1]].length / 4;
    stack.length = depth;
    stack.push(match[2]);
    paths.push(stack.join(' '));
  }
  return paths;
}

/** The entries of one help section: an entry starts at a line indented by at most 6 spaces. */
function sectionEntries(help, title) {
  const start = help.indexOf(`\n${title}:\n`);
  if (start < 0) return [];
  const lines = help.slice(start + title.length + 3).split('\n');
  const entries = [];
  for (const line of lines) {
    if (line.trim() !== '' && !line.startsWith(' ')) break;
    if (/^ {2,6}\S/.test(line)) entries.push(line.trim());
    else if (entries.length > 0) entries[entries.length - 1] += ` ${line.trim()}`;
  }
  return entries;
}

const bracketed = (entry, name) => {
  const match = new RegExp(`\\[${name}: ([^\\]]*)\\]`).exec(entry);
  return match ? match[1].split(',').map((value) => value.trim()) : undefined;
};

function parseFlag(entry) {
  const match = /^(?:(-\w), )?(--[\w-]+)(?: (\[)?<([^>]+)>)?/.exec(entry);
  if (!match) throw new Error(`not a flag: ${entry}`);
  const [, short, long, optional, value] = match;
  const flag = {};
  if (short) flag.short = short;
  if (value) flag.value = value;
  if (optional) flag.optionalValue = true;
  const aliases = bracketed(entry, 'aliases');
  if (aliases) flag.aliases = aliases;
  const choices = bracketed(entry, 'possible values');
  if (choices) flag.choices = choices;
  return [long, flag];
}

function parseArgument(entry) {
  const match = /^[<[]([^>\]]+)[>\]]/.exec(entry);
  if (!match) throw new Error(`not an argument: ${entry}`);
  const choices = bracketed(entry, 'possible values');
  return { name: match[1], required: entry.startsWith('<'), ...(choices ? { choices } : {}) };
}

try {
  const version = run(['--version']).trim();
  const commands = {};
  // '' is the program itself (its --version); every other path is a command.
  for (const path of ['', ...commandPaths(run(['tree']))]) {
    const help = run([...path.split(' ').filter((name) => name !== ''), '--help']);
    commands[path] = {
      arguments: sectionEntries(help, 'Arguments').map(parseArgument),
      flags: Object.fromEntries(sectionEntries(help, 'Options').map(parseFlag)),
    };
  }
  const fixture = {
    about: 'Commands, flags and arguments of the official CLI; made by scripts/record-official-cli-flags.mjs',
    version,
    commands,
  };
  const out = join(ROOT, `test/fixtures/official-${version.split(' ').pop()}-cli-flags.json`);
  writeFileSync(out, `${JSON.stringify(fixture, null, 2)}\n`);
  // In the repository's own format, so that recording again changes only what the official CLI changed.
  spawnSync(join(ROOT, 'node_modules/.bin/biome'), ['format', '--write', out], { stdio: 'inherit' });
  console.log(`${Object.keys(commands).length} commands of ${version} → ${out}`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
