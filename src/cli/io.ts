// Where commands write: the streams, whether they are terminals, colour, and the exit code. Commands get it from
// their context (Cli.io) and never touch process.stdout or process.exitCode themselves, so tests hand them buffers.

import type { Writable } from 'node:stream';
import pc from 'picocolors';

/** An output stream; isTTY as a terminal's write stream has it. */
export type Output = Writable & { readonly isTTY?: boolean };

export interface IO {
  readonly stdout: Output;
  readonly stderr: Output;
  /** Bold headings in human output. */
  readonly color: boolean;
  setExitCode(code: number): void;
}

/** Colour only for a person at a terminal (and never when NO_COLOR is set). */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(stream.isTTY) && pc.isColorSupported && !env.NO_COLOR;
}

/** The IO of the real process. */
export function processIO(): IO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    color: colorEnabled(process.stdout),
    setExitCode: (code) => {
      process.exitCode = code;
    },
  };
}

/** `text` as one or more whole lines. */
export function writeLines(output: Output, text: string): void {
  output.write(text.endsWith('\n') ? text : `${text}\n`);
}
