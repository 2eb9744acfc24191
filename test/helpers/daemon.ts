// What a test needs to run the real daemon as its own process: the CLI (from source with the loader, or built), and an
// environment of the simulator on a given home and port, free of the caller's production settings.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SOURCE_CLI = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const BUILT_CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/**
 * The CLI as `npm run build` makes it (`npm test` builds before the tests): a daemon from it starts seconds of CPU
 * sooner than from the source through tsx, which compiles every module first.
 */
export function builtCli(): string {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run \`npm run build\` before this test`);
  return BUILT_CLI;
}
export const TSX = import.meta.resolve('tsx');

const CALLER_SETTINGS = [
  'SJ_PRODUCTION',
  'SJ_SIM_START',
  'SJ_UDS_PATH',
  'SJ_API_KEY',
  'SJ_SEC_KEY',
  'SJ_HTTP_TLS_CERT',
];

/**
 * The simulator on `home` and 127.0.0.1:`port`, always open, without call-rate limits (the tests load the gateway
 * far over production's limits on purpose: what they test is durability, not limits).
 */
export function simulatorEnv(home: string, port: number, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SJ_HOME_PATH: home,
    SJ_HTTP_ADDR: `127.0.0.1:${port}`,
    SJ_SIM_CLOCK: 'always-open',
    SJ_SIM_LIMITS: 'off',
  };
  for (const name of CALLER_SETTINGS) delete env[name];
  return { ...env, ...extra };
}
