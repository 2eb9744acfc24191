// `sjgate doctor`: whether the production bridge can start. On the Node side the configuration, the data home and
// the bridge's interpreter; then the sidecar's own checks, `<python> -m sjgate_bridge doctor --json`, run with this
// environment and .env. One line per check, ✓ or ✗ with the fix under a failing one, and a summary; exit 1 when a
// check fails. --json prints the sidecar's report with the Node side's checks first.

import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { homePathOf, loadConfig, loadDotEnv } from '../../config.js';
import { type BridgePython, bridgePython, MIN_PYTHON } from '../../python-env.js';
import { action, type Cli, type CliEnv, EXIT } from '../context.js';
import { formatMark } from '../output.js';
import { isTooOld, lastLines, notStarted, type ProcessResult, probePython, runProcess } from '../python.js';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  fix: string | null;
}

/** The sidecar's report (any other keys it has are kept), with the Node side's checks first. */
export interface DoctorReport {
  ok: boolean;
  checks: Check[];
  [key: string]: unknown;
}

const SETUP = 'sjgate setup production';
const SIDECAR_TIMEOUT_MS = 60_000;

const passed = (name: string, detail: string): Check => ({ name, ok: true, detail, fix: null });
const failed = (name: string, detail: string, fix: string): Check => ({ name, ok: false, detail, fix });

function configurationCheck(env: NodeJS.ProcessEnv): Check {
  try {
    loadConfig(env);
    return passed('configuration', 'the SJ_ settings of the environment and .env are valid');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return failed('configuration', message, 'correct that setting in the environment or in .env');
  }
}

function homeCheck(env: NodeJS.ProcessEnv): Check {
  const home = homePathOf(env);
  return existsSync(home)
    ? passed('data home', home)
    : failed('data home', `${home} does not exist`, `${SETUP} (it makes the data home and the Python environment)`);
}

/** The fix for an interpreter that is missing or unfit, by where it was named. */
function pythonFix(python: BridgePython): string {
  return python.source === 'venv'
    ? SETUP
    : `point SJ_PYTHON at a Python ${MIN_PYTHON.major}.${MIN_PYTHON.minor}+ with sjgate_bridge installed, ` +
        `or unset it and run \`${SETUP}\``;
}

/** Whether the bridge's interpreter is there and new enough. */
async function pythonCheck(python: BridgePython, env: NodeJS.ProcessEnv): Promise<Check> {
  const where = python.source === 'venv' ? `the environment of \`${SETUP}\`` : 'SJ_PYTHON';
  if (python.source === 'venv' && !existsSync(python.path)) {
    return failed('python', `no interpreter at ${python.path} (SJ_PYTHON is not set)`, SETUP);
  }
  try {
    const info = await probePython(python.path, env);
    if (info === null) return failed('python', `cannot run ${python.path} (${where})`, pythonFix(python));
    if (isTooOld(info)) {
      return failed('python', `Python ${info.version} at ${python.path} is too old for the bridge`, pythonFix(python));
    }
    return passed('python', `${python.path}, Python ${info.version} (${where})`);
  } catch (error) {
    return failed('python', error instanceof Error ? error.message : String(error), pythonFix(python));
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The sidecar's report when stdout is one: {ok, checks: [{name, ok, detail, fix}]}; null otherwise. */
function parseReport(stdout: string): DoctorReport | null {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    return null;
  }
  if (!isRecord(value) || typeof value.ok !== 'boolean' || !Array.isArray(value.checks)) return null;
  const checks = value.checks.filter(isRecord);
  if (checks.length !== value.checks.length) return null;
  if (!checks.every((check) => typeof check.name === 'string' && typeof check.ok === 'boolean')) return null;
  return {
    ...value,
    ok: value.ok,
    checks: checks.map((check) => ({
      ...check,
      name: check.name as string,
      ok: check.ok as boolean,
      detail: typeof check.detail === 'string' ? check.detail : '',
      fix: typeof check.fix === 'string' ? check.fix : null,
    })),
  };
}

/** The sidecar's report, or a failed check that says why there is none. */
async function sidecarReport(python: BridgePython, env: NodeJS.ProcessEnv): Promise<DoctorReport | Check> {
  const name = 'bridge package';
  const args = ['-m', 'sjgate_bridge', 'doctor', '--json'];
  let result: ProcessResult;
  try {
    result = await runProcess(python.path, args, { env, timeoutMs: SIDECAR_TIMEOUT_MS });
  } catch (error) {
    if (notStarted(error)) return failed(name, `cannot run ${python.path}`, pythonFix(python));
    throw error;
  }
  const report = parseReport(result.stdout);
  if (report !== null) return report;
  const output = `${result.stderr}\n${result.stdout}`;
  const command = `${python.path} ${args.join(' ')}`;
  if (result.timedOut) {
    return failed(
      name,
      `${command} did not answer within ${SIDECAR_TIMEOUT_MS / 1000} s`,
      'run it by hand to see where',
    );
  }
  if (/No module named '?sjgate_bridge\.__main__|invalid choice: 'doctor'/.test(output)) {
    return failed(name, `the sjgate_bridge of ${python.path} is older than this sjgate`, pythonFix(python));
  }
  if (/No module named '?sjgate_bridge\b/.test(output)) {
    return failed(name, `sjgate_bridge is not installed for ${python.path}`, pythonFix(python));
  }
  return failed(
    name,
    `${command} ended with exit code ${result.code} and no report:\n${lastLines(result.lines, 10)}`,
    `${SETUP} (it reinstalls the bridge); if that does not help, run the command above by hand`,
  );
}

export async function runDoctor(env: NodeJS.ProcessEnv): Promise<DoctorReport> {
  const python = bridgePython(env);
  const interpreter = await pythonCheck(python, env);
  const checks = [configurationCheck(env), homeCheck(env), interpreter];
  const nodeOk = checks.every((check) => check.ok);
  if (!interpreter.ok) return { ok: false, checks };
  const sidecar = await sidecarReport(python, env);
  if (!('checks' in sidecar)) return { ok: false, checks: [...checks, sidecar] };
  return { ...sidecar, ok: nodeOk && sidecar.ok, checks: [...checks, ...sidecar.checks] };
}

const indent = (text: string, prefix: string) => text.split('\n').join(`\n${prefix}`);

/** A line per check, ✓ or ✗, the fix under a failing one, and a summary. */
export function formatDoctor(report: DoctorReport, color = false): string {
  const lines = report.checks.flatMap((check) => {
    const line = `${formatMark(check.ok, color)} ${check.name}${check.detail === '' ? '' : `: ${indent(check.detail, '    ')}`}`;
    return check.ok || check.fix === null ? [line] : [line, `  fix: ${indent(check.fix, '       ')}`];
  });
  const total = report.checks.length;
  const failures = report.checks.filter((check) => !check.ok).length;
  const summary =
    failures > 0
      ? `${failures} of ${total} check${total === 1 ? '' : 's'} failed.`
      : report.ok
        ? `All ${total} checks passed.`
        : 'Every check passed, but the bridge reports that it is not ready.';
  return [...lines, '', summary].join('\n');
}

export function registerDoctor(program: Command, env: CliEnv): void {
  program
    .command('doctor')
    .description('check that the production bridge can start: Python, shioaji, keys and certificate')
    .addHelpText(
      'after',
      `
Checks the configuration, the data home and the bridge's interpreter (SJ_PYTHON, else
<SJ_HOME_PATH>/python/bin/python, made by \`${SETUP}\`), then runs
\`<python> -m sjgate_bridge doctor --json\` with the environment and .env for the bridge's own checks.
--json prints {ok, checks: [{name, ok, detail, fix}]}.

Exit codes: 0 every check passed, 1 a check failed.

Examples:
  $ sjgate doctor
  $ sjgate doctor --json checks | jq '.checks[] | select(.ok | not)'`,
    )
    .action(action(env, async (cli) => checkAndReport(cli)));
}

/** Runs the checks with this environment (and `overrides`), prints them, and exits 1 when one failed. */
export async function checkAndReport(cli: Cli, overrides: NodeJS.ProcessEnv = {}): Promise<void> {
  // main.ts has read .env into the environment already; read it here too, into a copy, for a program run
  // without main.ts (the variables already set win, as there).
  const environment = { ...process.env, ...overrides };
  loadDotEnv(process.cwd(), environment);
  const report = await runDoctor(environment);
  cli.emit(report, formatDoctor);
  if (!report.ok) cli.io.setExitCode(EXIT.error);
}
