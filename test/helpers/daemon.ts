// What a test needs to run the real daemon from source as its own process: the CLI, the loader, and an environment
// of the simulator on a given home and port, free of the caller's production settings.

import { fileURLToPath } from 'node:url';

export const SOURCE_CLI = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
/** The CLI as `npm run build` (run by `npm test`) builds it. */
export const BUILT_CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
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
