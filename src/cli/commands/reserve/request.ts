// What every reserve command does: post the stock account (--account) with the command's own fields, print the
// answer. A request SinoPac refused answers 200 with status false: the command prints it and exits 1.

import type { Command } from 'commander';
import { MAX_RESERVE_SHARES } from '../../../domain/reserve.js';
import { type PostMethod, postTo } from '../../client.js';
import { action, type CliEnv, EXIT } from '../../context.js';
import { formatTable } from '../../output.js';
import { type AccountSelector, accountOption, argumentOrFlag, decimal, integerIn, text } from '../../parsers.js';

export interface ReserveOptions {
  account?: AccountSelector | undefined;
  /** The official CLI's flags for what sjgate also takes as arguments. */
  code?: string;
  share?: number;
  price?: number;
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
    method: PostMethod;
    example: string;
    args?: (command: Command) => Command;
    body?: (args: unknown[], options: ReserveOptions) => Record<string, unknown>;
    human: (answer: T, color: boolean) => string;
  },
): void {
  const command = reserve
    .command(spec.name)
    .description(spec.description)
    .addOption(accountOption('stock'))
    .addHelpText('after', `\nExamples:\n  $ sjgate reserve ${spec.example}`);
  (spec.args ? spec.args(command) : command).action(
    action<ReserveOptions>(env, async (cli, options, args) => {
      const request = { account_type: 'S', ...(options.account ?? {}), ...(spec.body?.(args, options) ?? {}) };
      const answer = await cli.call((client) => postTo<T>(client, spec.method, request));
      cli.emit(answer, spec.human);
      const refused = (answer as { status?: unknown }).status === false;
      if (refused) cli.io.setExitCode(EXIT.error);
    }),
  );
}

const SHARES = `shares (not lots), 1 to ${MAX_RESERVE_SHARES}`;
const shares = integerIn(1, MAX_RESERVE_SHARES);

/**
 * CODE and SHARES (and PRICE) as arguments, or as the official CLI's --code, --share and --price; the arguments are
 * optional so that either way works.
 */
export function stockArguments(command: Command, withPrice: boolean): Command {
  command
    .argument('[CODE]', 'stock code, e.g. 2330 (or --code)', text)
    .argument('[SHARES]', `${SHARES} (or --share)`, shares)
    .option('--code <CODE>', 'the stock code (or give it as the argument)', text)
    .option('--share <SHARES>', `${SHARES} (or give them as the argument)`, shares);
  if (withPrice) {
    command.argument('[PRICE]', 'price per share (or --price)', decimal);
    command.option('--price <PRICE>', 'price per share (or give it as the argument)', decimal);
  }
  return command;
}

/** The request's contract and shares (and price) from the arguments or the flags. */
export function stockRequest([code, share, price]: unknown[], options: ReserveOptions, withPrice: boolean) {
  return {
    contract: { code: argumentOrFlag(code as string | undefined, options.code, 'code') },
    share: argumentOrFlag(share as number | undefined, options.share, 'share'),
    ...(withPrice ? { price: argumentOrFlag(price as number | undefined, options.price, 'price') } : {}),
  };
}
