// `sjgate tree`: every command, one line each, walked from commander's own registry at run time, so it lists
// exactly what the program has.

import type { Command } from 'commander';
import { action, type CliEnv } from '../context.js';

interface TreeOptions {
  params?: boolean;
  all?: boolean;
}

/** One line per command below `root` (groups too), by full path; with params, its flags; with all, its summary. */
export function commandTree(root: Command, options: TreeOptions = {}): string[] {
  const lines: string[] = [];
  const walk = (command: Command, path: string[]) => {
    for (const child of command.commands) {
      const name = [...path, child.name()];
      let line = name.join(' ');
      if (options.params === true || options.all === true) {
        const args = child.registeredArguments.map((argument) =>
          argument.required ? `<${argument.name()}>` : `[${argument.name()}]`,
        );
        const flags = child.options.filter((option) => !option.hidden).map((option) => option.long ?? option.short);
        line = [line, ...args, ...flags].join(' ');
      }
      if (options.all === true && child.description() !== '') line += `  — ${child.summary() || child.description()}`;
      lines.push(line);
      walk(child, name);
    }
  };
  walk(root, [root.name()]);
  return lines;
}

export function registerTree(program: Command, env: CliEnv): void {
  program
    .command('tree')
    .description('list every command, one line each')
    .option('-p, --params', "also list each command's arguments and flags")
    .option('-a, --all', 'arguments, flags and a one-line description')
    .addHelpText('after', '\nExamples:\n  $ sjgate tree\n  $ sjgate tree --params | grep order')
    .action(
      action<TreeOptions>(env, async (cli, options) => {
        const lines = commandTree(program, options);
        cli.emit(lines, (value) => value.join('\n'));
      }),
    );
}
