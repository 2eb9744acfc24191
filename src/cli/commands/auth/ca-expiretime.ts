// `sjgate auth ca-expiretime`: when the CA certificate of a person expires (the official CLI's command of that name).

import type { Command } from 'commander';
import { action, type CliEnv, UsageError } from '../../context.js';
import { formatRecord } from '../../output.js';

export function registerCaExpireTime(auth: Command, env: CliEnv): void {
  auth
    .command('ca-expiretime')
    .description('when the CA certificate of a person expires')
    .option('--person-id <ID>', "the person the certificate is bound to (default: the logged-in accounts' person)")
    .action(
      action(env, async (cli, options: { personId?: string }) => {
        const personId = options.personId ?? (await cli.call((client) => client.auth.accounts()))[0]?.person_id;
        if (personId === undefined) throw new UsageError('no account is logged in to name a person: give --person-id');
        const answer = await cli.call((client) => client.auth.caExpireTime({ person_id: personId }));
        cli.emit(answer, (value, color) => formatRecord(value, { color }));
      }),
    );
}
