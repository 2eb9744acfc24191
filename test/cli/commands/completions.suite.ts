import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { completionNodes, completionScript, SHELLS } from '../../../src/cli/commands/completions.js';
import { commandTree } from '../../../src/cli/commands/tree.js';
import { EXIT } from '../../../src/cli/context.js';
import { createProgram } from '../../../src/cli/program.js';
import { assertUsageErrors, fakeDaemon, memoryIO } from '../../helpers/cli.js';

const program = createProgram({ entry: '/nonexistent', version: '0.0.0-test' }, memoryIO().io);

/** What the bash script offers for the command line `words` (the last one being completed). */
function bashComplete(words: string[]): string[] {
  const script = `${completionScript(program, 'bash')}
COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_sjgate_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', script], { encoding: 'utf8', timeout: 5_000 });
  return out.split('\n').filter((line) => line !== '');
}

test('completionNodes covers every command of the tree, with its flags and the global ones', () => {
  const nodes = completionNodes(program);
  assert.deepEqual(
    nodes.slice(1).map((node) => `sjgate ${node.path.join(' ')}`),
    commandTree(program),
  );
  const place = nodes.find((node) => node.path.join(' ') === 'order place');
  for (const flag of ['--code', '--tif', '--order-type', '--no-wait', '--wait-timeout', '--format', '--help'])
    assert.ok(place?.flags.includes(flag), flag);
  assert.ok(!place?.flags.includes('--time-in-force'), 'hidden flags are not offered');
  const start = nodes.find((node) => node.path.join(' ') === 'server start');
  for (const flag of ['--foreground', '--production', '--auth', '--no-open', '--format'])
    assert.ok(start?.flags.includes(flag), `server start ${flag}, its group's flags included`);
});

test('the bash script completes commands and flags at each level, skipping flag values', { timeout: 20_000 }, () => {
  assert.deepEqual(bashComplete(['sjgate', 'ord']), ['order']);
  assert.deepEqual(bashComplete(['sjgate', 'order', 'update-']), ['update-price', 'update-qty']);
  assert.deepEqual(bashComplete(['sjgate', 'order', 'place', '--code', '2330', '--ti']), ['--tif']);
  assert.deepEqual(bashComplete(['sjgate', '--format', 'json', 'server', 'ch']), ['check']);
  assert.deepEqual(bashComplete(['sjgate', 'nope', 'pl']), []);
});

test('zsh goes through bashcompinit; fish has a line per subcommand set and per flag', () => {
  const zsh = completionScript(program, 'zsh');
  assert.match(zsh, /^#compdef sjgate\n/);
  assert.match(zsh, /bashcompinit/);
  assert.match(zsh, /complete -F _sjgate_complete sjgate/);
  const fish = completionScript(program, 'fish');
  assert.match(fish, /complete -c sjgate -n '__fish_use_subcommand' -a 'server setup doctor/);
  assert.match(
    fish,
    /complete -c sjgate -n '__fish_seen_subcommand_from order; and not __fish_seen_subcommand_from place cancel/,
  );
  assert.match(
    fish,
    /complete -c sjgate -n '__fish_seen_subcommand_from order; and __fish_seen_subcommand_from place' -l tif\n/,
  );
});

const elvish = spawnSync('elvish', ['-version'], { encoding: 'utf8', timeout: 5_000 });
const noElvish = elvish.status === 0 ? false : 'elvish is not installed (apt-get install elvish)';

/** What the elvish completer offers for `words`, matched against the last one as Elvish's prefix matcher does. */
function elvishComplete(words: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'sjgate-elvish-'));
  try {
    // Without a terminal there is no `edit:` module: the script's last line, which installs the completer, is left out.
    const script = completionScript(program, 'elvish').replace(/^set edit:.*$/m, '');
    const file = join(dir, 'complete.elv');
    writeFileSync(file, `${script}\n$sjgate-complete ${words.map((word) => `'${word}'`).join(' ')}\n`);
    const out = execFileSync('elvish', [file], { encoding: 'utf8', timeout: 5_000 });
    const offered = out.split('\n').map((line) => line.replace(/^▶ /, '').trim());
    return offered.filter((word) => word !== '' && word.startsWith(words.at(-1) ?? ''));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the elvish completer completes commands and flags at each level', { skip: noElvish, timeout: 20_000 }, () => {
  assert.deepEqual(elvishComplete(['sjgate', 'ord']), ['order']);
  assert.deepEqual(elvishComplete(['sjgate', 'order', 'update-']), ['update-price', 'update-qty']);
  assert.deepEqual(elvishComplete(['sjgate', 'order', 'place', '--code', '2330', '--ti']), ['--tif']);
  assert.deepEqual(elvishComplete(['sjgate', '--format', 'json', 'server', 'ch']), ['check']);
  assert.deepEqual(elvishComplete(['sjgate', 'utils', 'token', 'list', '--d']), ['--detailed']);
});

test('the PowerShell completer has the subcommands and flags of every command path', () => {
  const script = completionScript(program, 'powershell');
  assert.match(script, /^# sjgate completion for PowerShell/);
  assert.match(script, /Register-ArgumentCompleter -Native -CommandName 'sjgate' -ScriptBlock \{/);
  for (const node of completionNodes(program)) {
    const key = node.path.map((part) => ` ${part}`).join('');
    const words = [...node.subcommands, ...node.flags].map((word) => `'${word}'`).join(', ');
    assert.ok(script.includes(`    '${key}' = @(${words})\n`), `the entry of '${key}'`);
  }
});

describe('sjgate completions', () => {
  const daemon = fakeDaemon(() => [404, {}]);
  before(() => daemon.start());
  after(() => daemon.stop());

  test('prints the script for the shell, without asking the daemon', async () => {
    for (const shell of SHELLS) {
      const run = await daemon.sjgate('completions', shell);
      assert.equal(run.code, EXIT.ok, run.stderr);
      assert.equal(run.stdout, completionScript(program, shell));
    }
    assert.deepEqual(daemon.seen, []);
  });

  test('a missing or unknown shell is exit 2', async () => {
    await assertUsageErrors(daemon, [
      [['completions'], /missing required argument 'SHELL'/],
      [['completions', 'tcsh'], /Allowed choices are bash, zsh, fish, elvish, powershell/],
      [['completions', 'bash', '--all'], /unknown option '--all'/],
    ]);
  });
});
