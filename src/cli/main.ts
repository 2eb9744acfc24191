#!/usr/bin/env node
// The `sjgate` command: manages the daemon and is an HTTP client of it.
// Start-up must stay light: nothing from src/server or src/broker is imported here
// (only `server start --foreground` loads the gateway, dynamically).

import { fileURLToPath } from 'node:url';
import { CommanderError } from 'commander';
import { loadDotEnv } from '../config.js';
import { VERSION } from '../version.js';
import { EXIT } from './errors.js';
import { processIO } from './io.js';
import { programFor } from './lazy-program.js';

// Output piped into `head` that stops reading is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

loadDotEnv(process.cwd());
const io = processIO();
try {
  const runtime = { entry: fileURLToPath(import.meta.url), version: VERSION };
  await (await programFor(runtime, io, process.argv)).parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  // Commander has printed its message; help and version asked for are success, everything else is bad usage.
  const asked = error.code === 'commander.helpDisplayed' || error.code === 'commander.version';
  io.setExitCode(asked || error.exitCode === 0 ? EXIT.ok : EXIT.usage);
}
