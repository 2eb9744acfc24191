// `sjgate completions <shell>`: a completion script for bash, zsh, fish, elvish or PowerShell, generated from
// commander's registry when it runs, so it offers exactly the commands and flags the program has. Commands and flags
// only; values are typed.

import { Argument, type Command } from 'commander';
import { action, type CliEnv } from '../context.js';

export const SHELLS = ['bash', 'zsh', 'fish', 'elvish', 'powershell'] as const;
export type Shell = (typeof SHELLS)[number];

interface Node {
  /** Command names after the program's, e.g. ['order', 'place']; [] for the program itself. */
  path: string[];
  subcommands: string[];
  /** Long flags (short ones where a flag has no long form), --help included. */
  flags: string[];
}

const flagsOf = (command: Command): string[] => [
  ...command.options.filter((option) => !option.hidden).flatMap((option) => option.long ?? option.short ?? []),
  '--help',
];

/**
 * Every command of the program with its subcommands and flags; the flags of the commands above it (the program's
 * global ones, a group's such as `server --auth`) are its flags too, as commander parses them anywhere below.
 */
export function completionNodes(program: Command): Node[] {
  const nodes: Node[] = [];
  const walk = (command: Command, path: string[], inherited: string[]) => {
    const own = flagsOf(command);
    nodes.push({
      path,
      subcommands: command.commands.map((child) => child.name()),
      flags: [...own, ...inherited.filter((flag) => !own.includes(flag))],
    });
    const passed = [...inherited, ...own.filter((flag) => flag !== '--help' && flag !== '--version')];
    for (const child of command.commands) walk(child, [...path, child.name()], passed);
  };
  walk(program, [], []);
  return nodes;
}

const fn = (name: string) => `_${name.replace(/[^A-Za-z0-9_]/g, '_')}_complete`;

function bashScript(name: string, nodes: Node[]): string {
  const paths = nodes.filter((node) => node.path.length > 0).map((node) => `" ${node.path.join(' ')}"`);
  const cases = nodes.map(
    (node) =>
      `    "${node.path.map((part) => ` ${part}`).join('')}") words="${[...node.subcommands, ...node.flags].join(' ')}" ;;`,
  );
  return `# ${name} completion for bash (from \`${name} completions bash\`)
${fn(name)}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" word words=""
  for word in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case "$path $word" in
      ${paths.join('|')}) path="$path $word" ;;
    esac
  done
  case "$path" in
${cases.join('\n')}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F ${fn(name)} ${name}
`;
}

function zshScript(name: string, nodes: Node[]): string {
  return `#compdef ${name}
# ${name} completion for zsh (from \`${name} completions zsh\`): the bash completion through bashcompinit
autoload -U +X bashcompinit && bashcompinit
${bashScript(name, nodes)}`;
}

function fishScript(name: string, nodes: Node[]): string {
  const lines = [`# ${name} completion for fish (from \`${name} completions fish\`)`, `complete -c ${name} -f`];
  for (const node of nodes) {
    const condition =
      node.path.length === 0
        ? '__fish_use_subcommand'
        : [
            ...node.path.map((part) => `__fish_seen_subcommand_from ${part}`),
            ...(node.subcommands.length > 0 ? [`not __fish_seen_subcommand_from ${node.subcommands.join(' ')}`] : []),
          ].join('; and ');
    if (node.subcommands.length > 0) {
      lines.push(`complete -c ${name} -n '${condition}' -a '${node.subcommands.join(' ')}'`);
    }
    for (const flag of node.flags) {
      const option = flag.startsWith('--') ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`;
      lines.push(`complete -c ${name} -n '${condition}' ${option}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Each command path (` order place`, '' for the program) with what may follow it: subcommands, then flags. */
const choicesByPath = (nodes: Node[]) =>
  nodes.map((node) => ({
    key: node.path.map((part) => ` ${part}`).join(''),
    words: [...node.subcommands, ...node.flags].map((word) => `'${word}'`),
  }));

/**
 * Elvish: a completer that walks the words typed so far through the command paths and puts what may follow (Elvish
 * matches the word being typed against them). `$<name>-complete` is the completer, for use without `edit:` too.
 */
function elvishScript(name: string, nodes: Node[]): string {
  const entries = choicesByPath(nodes).map(({ key, words }) => `  &'${key}'=[${words.join(' ')}]`);
  return `# ${name} completion for elvish (from \`${name} completions elvish\`)
var ${name}-completions = [
${entries.join('\n')}
]
var ${name}-complete = {|@words|
  var path = ''
  for word $words[1..-1] {
    if (has-key $${name}-completions $path' '$word) { set path = $path' '$word }
  }
  all $${name}-completions[$path]
}
set edit:completion:arg-completer[${name}] = $${name}-complete
`;
}

/** PowerShell: a native argument completer that walks the words before the cursor through the command paths. */
function powershellScript(name: string, nodes: Node[]): string {
  const entries = choicesByPath(nodes).map(({ key, words }) => `    '${key}' = @(${words.join(', ')})`);
  return `# ${name} completion for PowerShell (from \`${name} completions powershell\`)
Register-ArgumentCompleter -Native -CommandName '${name}' -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  $completions = @{
${entries.join('\n')}
  }
  # The words before the one being completed (which ends at the cursor).
  $words = @($commandAst.CommandElements | Select-Object -Skip 1 |
    Where-Object { $_.Extent.EndOffset -lt $cursorPosition } | ForEach-Object { $_.Extent.ToString() })
  $path = ''
  foreach ($word in $words) {
    if ($completions.ContainsKey("$path $word")) { $path = "$path $word" }
  }
  $completions[$path] | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object {
    [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
  }
}
`;
}

const SCRIPTS: Record<Shell, (name: string, nodes: Node[]) => string> = {
  bash: bashScript,
  zsh: zshScript,
  fish: fishScript,
  elvish: elvishScript,
  powershell: powershellScript,
};

export function completionScript(program: Command, shell: Shell): string {
  return SCRIPTS[shell](program.name(), completionNodes(program));
}

export function registerCompletions(program: Command, env: CliEnv): void {
  program
    .command('completions')
    .description('print a completion script for bash, zsh, fish, elvish or PowerShell')
    .addArgument(new Argument('<SHELL>', SHELLS.join(', ')).choices(SHELLS))
    .addHelpText(
      'after',
      `
The script completes commands and flags (not their values), as this version of ${program.name()} has them.

Examples:
  $ source <(sjgate completions bash)                       # bash, this shell; add it to ~/.bashrc to keep it
  $ sjgate completions zsh > "\${fpath[1]}/_sjgate"          # zsh
  $ sjgate completions fish > ~/.config/fish/completions/sjgate.fish
  $ sjgate completions elvish >> ~/.config/elvish/rc.elv
  $ sjgate completions powershell >> $PROFILE                 # PowerShell`,
    )
    .action(
      action<Record<string, never>>(env, async (cli, _options, [shell]) => {
        cli.print(completionScript(program, shell as Shell).trimEnd());
      }),
    );
}
