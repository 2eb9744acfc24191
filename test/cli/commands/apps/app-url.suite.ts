import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appUrl } from '../../../../src/cli/commands/apps/app-url.js';

test('the address of an app follows the bind address and scheme', () => {
  assert.equal(appUrl({ host: '127.0.0.1', port: 8080, tls: null }, 'web'), 'http://127.0.0.1:8080/apps/web/');
  assert.equal(appUrl({ host: '0.0.0.0', port: 80, tls: null }, 'web'), 'http://127.0.0.1:80/apps/web/');
  const tls = { certPath: 'c', keyPath: 'k' };
  assert.equal(appUrl({ host: '::1', port: 8443, tls }, 'web'), 'https://[::1]:8443/apps/web/');
});
