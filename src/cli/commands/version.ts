// `sjgate version`: this CLI's version and the official Shioaji release it matches; when a daemon answers, also
// the versions it reports on /api/v1/info (it may be another build than this CLI). It never starts a daemon.

import type { Command } from 'commander';
import { SERVER_PATHS } from '../../contract/paths.js';
import { OFFICIAL_SERVER_VERSION } from '../../version.js';
import { ApiError, UnreachableError } from '../client.js';
import { action, type CliEnv } from '../context.js';
import { daemonClient } from '../daemon.js';
import { formatRecord } from '../output.js';

export interface VersionReport {
  sjgate: string;
  official: string;
  /** Where the daemon_* fields come from: the running daemon, or none running (local only). */
  source: 'daemon' | 'local';
  daemon_sjgate?: string;
  daemon_official?: string;
  daemon_api?: string;
}

interface Info {
  version?: unknown;
  sjgate_version?: unknown;
  api_version?: unknown;
}

/** The report from this build and, when one answered, the daemon's /info. */
export function versionReport(local: string, info: Info | null): VersionReport {
  const report: VersionReport = { sjgate: local, official: OFFICIAL_SERVER_VERSION, source: 'local' };
  if (info === null) return report;
  report.source = 'daemon';
  if (typeof info.sjgate_version === 'string') report.daemon_sjgate = info.sjgate_version;
  if (typeof info.version === 'string') report.daemon_official = info.version;
  if (typeof info.api_version === 'string') report.daemon_api = info.api_version;
  return report;
}

export function registerVersion(program: Command, env: CliEnv): void {
  program
    .command('version')
    .description('print the sjgate version and the official Shioaji version it matches')
    .addHelpText(
      'after',
      `
With a daemon running, its own versions (from GET /api/v1${SERVER_PATHS.info}) follow; without one only this
build's are printed (source local), and no daemon is started.

Examples:
  $ sjgate version
  $ sjgate version --json sjgate,official`,
    )
    .action(
      action(
        env,
        async (cli) => {
          let info: Info | null = null;
          try {
            info = await daemonClient(cli.config, 2_000).server.info<Info>();
          } catch (error) {
            if (!(error instanceof UnreachableError || error instanceof ApiError)) throw error;
          }
          cli.emit(versionReport(cli.runtime.version, info), (value, color) => formatRecord(value, { color }));
        },
        { fields: ['sjgate', 'official', 'source', 'daemon_sjgate', 'daemon_official', 'daemon_api'] },
      ),
    );
}
