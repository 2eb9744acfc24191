// Where a browser opens an uploaded app.

import type { GatewayConfig } from '../../../config.js';

/** The app's address; a wildcard bind address is reached through loopback. */
export function appUrl(config: Pick<GatewayConfig, 'host' | 'port' | 'tls'>, name: string): string {
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  const shown = host.includes(':') ? `[${host}]` : host;
  return `${config.tls ? 'https' : 'http'}://${shown}:${config.port}/apps/${encodeURIComponent(name)}/`;
}
