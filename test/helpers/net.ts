// Sockets for tests that start real servers.

import { createServer } from 'node:net';

/** Linux hands out ports for port 0 from 32768 up (net.ipv4.ip_local_port_range); these lie below. */
const RANGE_START = 20_000;
const RANGE_SIZE = 12_000;

/**
 * A TCP port on 127.0.0.1 that is free now. It is picked at random below the range the kernel gives out for port 0:
 * a test that restarts its daemon on the same port must not find there a server that another test, running at the
 * same time, was given in between.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = RANGE_START + Math.floor(Math.random() * RANGE_SIZE);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found between ${RANGE_START} and ${RANGE_START + RANGE_SIZE}`);
}

function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
