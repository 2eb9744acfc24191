// A gateway with the apps API for the apps commands, on a free port, with a work folder for the apps to upload.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type Run, runSjgate } from '../../../helpers/cli.js';
import { appOver, memoryTempDir, removeDir, tempDir } from '../../../server/apps-fixtures.js';

export interface AppsGateway {
  readonly port: number;
  /** The work folder. */
  readonly work: string;
  /** How many POSTs the gateway has received. */
  readonly uploadsReceived: number;
  sjgate(...args: string[]): Promise<Run>;
  served(path: string): Promise<{ status: number; body: Buffer }>;
  /** Writes `files` under a new folder of the work area; its path. */
  folderWith(name: string, files: Record<string, string | Buffer>): string;
}

/** Starts the gateway in `before` and stops it in `after` of the file that calls it. */
export function appsGateway(): AppsGateway {
  let appsDir: string;
  let work = '';
  let app: FastifyInstance;
  let port = 0;
  let uploadsReceived = 0;
  const savedHome = process.env.SJ_HOME_PATH;

  before(async () => {
    appsDir = memoryTempDir();
    work = tempDir('sjgate-cli-apps-');
    // A data home without a socket, so the client goes over TCP to the gateway of this test.
    process.env.SJ_HOME_PATH = join(work, 'home');
    app = await appOver(appsDir);
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
    app.server.on('request', (request) => {
      if (request.method === 'POST') uploadsReceived++;
    });
  });
  after(async () => {
    await app.close();
    removeDir(appsDir);
    removeDir(work);
    if (savedHome === undefined) delete process.env.SJ_HOME_PATH;
    else process.env.SJ_HOME_PATH = savedHome;
  });

  return {
    get port() {
      return port;
    },
    get work() {
      return work;
    },
    get uploadsReceived() {
      return uploadsReceived;
    },
    sjgate: (...args) => runSjgate(port, args),
    served: async (path) => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`);
      return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
    },
    folderWith: (name, files) => {
      const root = join(work, name);
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), content);
      }
      mkdirSync(root, { recursive: true });
      return root;
    },
  };
}
