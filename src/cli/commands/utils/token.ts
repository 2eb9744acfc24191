// `sjgate utils token list|show|status|clean`: the official CLI's token pool commands. sjgate keeps no token pool,
// so each takes the official flags and exits 2 with where the pool it means is managed.

import type { Command } from 'commander';
import { homePathOf } from '../../../config.js';
import { action, type CliEnv, UsageError } from '../../context.js';
import { integerIn, text } from '../../parsers.js';

/** Why there is nothing to do here, and what to run instead. */
export function noTokenPool(command: string): string {
  const official = `${homePathOf()}/python/bin/shioaji`;
  return (
    `sjgate keeps no token pool, so \`utils token ${command}\` has nothing to act on: the simulator logs in to ` +
    "nothing, and with SJ_BACKEND=shioaji the official SDK inside sjgate's bridge keeps its own tokens. " +
    `To manage those, run the official CLI that \`sjgate setup production\` installed: ${official} utils token ${command}`
  );
}

const slot = integerIn(1, 10);

export function registerToken(utils: Command, env: CliEnv): void {
  const token = utils
    .command('token')
    .description('not in sjgate (no token pool): each command says where to manage the SDK token pool')
    .option('-k, --key <KEY>', 'taken for the official CLI (its pool is decrypted with the API key)', text)
    .option('-s, --secret <SECRET>', 'taken for the official CLI (and the secret key)', text)
    .addHelpText(
      'after',
      `
The official CLI caches SinoPac login tokens in a pool of 10 slots; these commands manage it there. sjgate has no
such pool: they accept the official flags and exit 2 with the command to run instead.`,
    );
  const refuse = (name: string) => action(env, async () => Promise.reject(new UsageError(noTokenPool(name))));
  token
    .command('list')
    .description('(no token pool) the slots of the pool')
    .option('-d, --detailed', 'with the process and client of each slot')
    .action(refuse('list'));
  token
    .command('show')
    .description('(no token pool) the tokens of the pool')
    .option('--all', 'every slot')
    .option('--slot <SLOT>', 'one slot, 1 to 10', slot)
    .action(refuse('show'));
  token.command('status').description('(no token pool) how many slots are in use').action(refuse('status'));
  token
    .command('clean')
    .description('(no token pool) remove expired tokens')
    .option('--dry-run', 'only say what would be removed')
    .option('--all', 'every slot')
    .option('--slot <SLOT>', 'one slot, 1 to 10', slot)
    .action(refuse('clean'));
}
