#!/usr/bin/env node
// Bundles the CLI tsc emitted (dist/cli) into dist/cli/main.js and a chunk per group of commands, with the packages it
// uses (commander, picocolors, eventsource-parser) inside: a command then loads a handful of files instead of about
// fifty, and resolving and opening each module was most of a CLI round trip's start-up. Part of `npm run build`.
//
// Modules outside dist/cli (config, domain, contract, version, the server) stay files of their own, imported by path:
// `server start --foreground` runs the server in the CLI's process, which must share them (one class per error, for
// instanceof), and their import.meta.url must keep pointing where they are (version.ts reads ../package.json).

import { renameSync, rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { build } from 'esbuild';

const CLI_DIR = join(import.meta.dirname, '..', 'dist', 'cli');
const STAGING = `${CLI_DIR}.bundle`;

/** A relative import of a module outside dist/cli stays an import, of its path from dist/cli (where every chunk is). */
const modulesOutsideTheCli = {
  name: 'modules-outside-the-cli',
  setup(bundler) {
    bundler.onResolve({ filter: /^\.\.?\// }, ({ path, importer, resolveDir }) => {
      const target = resolve(resolveDir, path);
      if (!importer.startsWith(CLI_DIR + sep) || target.startsWith(CLI_DIR + sep)) return undefined;
      return { path: relative(CLI_DIR, target).split(sep).join('/'), external: true };
    });
  },
};

rmSync(STAGING, { recursive: true, force: true });
await build({
  entryPoints: [join(CLI_DIR, 'main.js')],
  outdir: STAGING,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunk-[hash]',
  // Less text to parse; names are kept, for stack traces and for commander's error names.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  // commander and picocolors are CommonJS and require Node's modules, which an ES module does through createRequire.
  banner: {
    js: "import { createRequire as cliRequire } from 'node:module';\nconst require = cliRequire(import.meta.url);",
  },
  plugins: [modulesOutsideTheCli],
  logLevel: 'warning',
});
rmSync(CLI_DIR, { recursive: true, force: true });
renameSync(STAGING, CLI_DIR);
