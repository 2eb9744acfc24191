// `sjgate auth usage`: today's data usage against the daily limit.

import type { Command } from 'commander';
import type { Usage } from '../../../contract/wire.js';
import { action, type CliEnv } from '../../context.js';
import { formatBar, formatHeading } from '../../output.js';

const MB = 1024 ** 2;
const GB = 1024 ** 3;

/** Sizes below 1 GB read in MB (the 500 MB tier), larger ones in GB. */
const formatSize = (bytes: number) => (bytes < GB ? `${(bytes / MB).toFixed(2)} MB` : `${(bytes / GB).toFixed(2)} GB`);

/** As the official CLI: `Data Used: x MB / y GB [####................] p%`. */
export function formatUsage(usage: Usage, color = false): string {
  const fraction = usage.limit_bytes > 0 ? usage.bytes / usage.limit_bytes : 0;
  return [
    formatHeading('API Usage', color),
    `Connections: ${usage.connections}`,
    `Data Used: ${(usage.bytes / MB).toFixed(2)} MB / ${formatSize(usage.limit_bytes)} ${formatBar(fraction)} ${(fraction * 100).toFixed(2)}%`,
    `Remaining: ${formatSize(usage.remaining_bytes)}`,
  ].join('\n');
}

export function registerUsage(auth: Command, env: CliEnv): void {
  auth
    .command('usage')
    .description("today's data usage against the daily limit")
    .action(
      action(env, async (cli) => {
        const usage = await cli.call((client) => client.auth.usage());
        cli.emit(usage, formatUsage);
      }),
    );
}
