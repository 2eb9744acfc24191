// `sjgate utils api check [--production]`: whether SinoPac's API can be used with these keys, as far as can be told
// without logging in: the checks of `sjgate doctor` (keys, certificate, clock, SinoPac's hosts reachable).

import { type Command, Option } from 'commander';
import { action, type CliEnv } from '../../context.js';
import { checkAndReport } from '../doctor.js';

interface ApiCheckOptions {
  production?: boolean;
  prod?: boolean;
}

export function registerApi(utils: Command, env: CliEnv): void {
  const api = utils.command('api').description("SinoPac's API: whether it can be reached and the keys fit");
  api
    .command('check')
    .description("check what a login to SinoPac needs: the bridge, keys, certificate, clock and SinoPac's hosts")
    .option('--production', 'check for production (SJ_PRODUCTION=true) rather than SinoPac simulation')
    .addOption(new Option('--prod', 'the same as --production').hideHelp())
    .addHelpText(
      'after',
      `
The official CLI logs in to SinoPac here. sjgate runs the checks of \`sjgate doctor\` instead and does not log in:
every login counts against SinoPac's daily limit, and the daemon's session logs in when it starts with
SJ_BACKEND=shioaji (\`sjgate server check\` then shows whether it did). The simulator needs no login at all.
Exit codes: 0 every check passed, 1 a check failed.

Examples:
  $ sjgate utils api check
  $ sjgate utils api check --production --format json`,
    )
    .action(
      action<ApiCheckOptions>(env, async (cli, options) =>
        checkAndReport(cli, options.production || options.prod ? { SJ_PRODUCTION: 'true' } : {}),
      ),
    );
}
