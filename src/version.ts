// The version of this package, read once from package.json (one level above src/ and dist/).

import { readFileSync } from 'node:fs';

export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** The official Shioaji server release whose API this gateway serves; /info and /health report it as `version`. */
export const OFFICIAL_SERVER_VERSION = '1.7.9';
