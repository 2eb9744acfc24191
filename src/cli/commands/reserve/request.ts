// What every reserve command does: post the stock account (--account) with the command's own fields, print the
// answer. A request SinoPac refused answers 200 with status false: the command prints it and exits 1.

import type { Command } from 'commander';
import { action, type CliEnv, EXIT } from '../../context.js';
import { formatTable } from '../../output.js';
import { type AccountSelector, accountOption } from '../../parsers.js';

interface ReserveOptions {
  account?: AccountSelector | undefined;
}

/** A row's contract as its code, for a table. */
const byCode = ({ contract, ...row }: { contract: { code: string } }) => ({ code: contract.code, ...row });

/** The rows of a summary or a detail, one per stock or request. */
export function formatStocks(answer: { stocks: { contract: { code: string } }[] }, color = false): string {
  return answer.stocks.length === 0 ? '(none today)' : formatTable(answer.stocks.map(byCode), undefined, color);
}

/** A request's answer: accepted or refused, and the broker's message. */
export function formatResult(answer: { contract: { code: string }; status: boolean; info: string; share: number }) {
  const { contract, status, info, share } = answer;
  return `${status ? 'accepted' : 'refused'}: ${share} shares of ${contract.code}${info ? ` — ${info}` : ''}`;
}

/** Registers a reserve command: its name, help, arguments and the body its arguments make. */
export function reserveCommand<T>(
  reserve: Command,
  env: CliEnv,
  spec: {
    name: string;
    description: string;
    path: string;
    example: string;
    args?: (command: Command) => Command;
    body?: (args: unknown[]) => Record<string, unknown>;
    human: (answer: T, color: boolean) => string;
  },
): void {
  const command = reserve
    .command(spec.name)
    .description(spec.description)
    .addOption(accountOption('stock'))
    .addHelpText('after', `\nExample:\n  $ sjgate reserve ${spec.example}`);
  (spec.args ? spec.args(command) : command).action(
    action<ReserveOptions>(env, async (cli, options, args) => {
      const request = { account_type: 'S', ...(options.account ?? {}), ...(spec.body?.(args) ?? {}) };
      const answer = await cli.call((client) => client.post<T>(spec.path, request));
      cli.emit(answer, spec.human);
      const refused = (answer as { status?: unknown }).status === false;
      if (refused) cli.io.setExitCode(EXIT.error);
    }),
  );
}
