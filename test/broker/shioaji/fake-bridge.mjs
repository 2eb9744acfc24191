#!/usr/bin/env node
// A stand-in for `python -m sjgate_bridge serve` that misbehaves on request (FAKE_BRIDGE_MODE), for the tests of the
// daemon's side of the protocol. Arguments are ignored, as the real interpreter's would be by this script.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const mode = process.env.FAKE_BRIDGE_MODE ?? 'normal';
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const hello = { type: 'hello', protocol: 1, bridge: '0.1.0', sdk: '1.7.9', python: '3.11.7', pid: process.pid };

if (mode === 'exit-before-hello') {
  process.stderr.write('Traceback: No module named sjgate_bridge\n');
  process.exit(1);
}
if (mode === 'other-protocol') send({ ...hello, protocol: 2 });
else if (mode === 'no-sdk') send({ ...hello, sdk: null, sdk_error: "No module named 'shioaji'" });
else if (mode === 'old-sdk') send({ ...hello, sdk: '1.2.5' });
else if (mode !== 'mute') send(hello);

createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line);
  if (request.method === 'ping') send({ type: 'reply', id: request.id, result: { sdk: '1.7.9' } });
  else if (request.method === 'login') {
    // FAKE_BRIDGE_LOGINS: a file that gets the parameters of each login, one JSON line each.
    if (process.env.FAKE_BRIDGE_LOGINS)
      appendFileSync(process.env.FAKE_BRIDGE_LOGINS, `${JSON.stringify(request.params)}\n`);
    send({ type: 'reply', id: request.id, result: { accounts: [] } });
  } else if (request.method === 'echo') send({ type: 'reply', id: request.id, result: request.params });
  else if (request.method === 'quote') {
    send({ type: 'event', event: 'quote', data: { name: 'tick_stk', data: { code: '2330' } } });
    send({ type: 'reply', id: request.id, result: {} });
  } else if (request.method === 'hang') {
    // never answers
  } else if (request.method === 'die') process.exit(3);
  else
    send({ type: 'reply', id: request.id, error: { kind: 'protocol', message: `unknown method ${request.method}` } });
});
