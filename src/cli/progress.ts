// Progress on stderr: a bar on one terminal line, redrawn in place and cleared at the end
// (`Uploading myapp [██████░░░░░░] 48%  2.4/5.0 MB`), and the steps of a longer task, each marked ✓ or ✗ as it ends.

import { formatMark } from './output.js';

const MB = 1024 * 1024;
/** At most about ten redraws a second. */
const REDRAW_MS = 100;

export function formatProgress(label: string, done: number, total: number, width = 24): string {
  const fraction = total > 0 ? Math.min(Math.max(done / total, 0), 1) : 1;
  const filled = Math.round(fraction * width);
  const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
  const sizes = `${(done / MB).toFixed(1)}/${(total / MB).toFixed(1)} MB`;
  return `${label} [${bar}] ${Math.floor(fraction * 100)}%  ${sizes}`;
}

export interface ProgressOutput {
  write(text: string): unknown;
  /** A terminal's width. */
  readonly columns?: number;
}

export class ProgressLine {
  #drawnAt: number | null = null;

  constructor(
    private readonly output: ProgressOutput,
    private readonly label: string,
    private readonly total: number,
    private readonly now: () => number = Date.now,
  ) {}

  update(done: number): void {
    const now = this.now();
    if (this.#drawnAt !== null && now - this.#drawnAt < REDRAW_MS) return;
    this.#drawnAt = now;
    this.output.write(`\r${formatProgress(this.label, done, this.total)}`);
  }

  /** Erases the line, so what is printed next starts on a clean line. */
  clear(): void {
    if (this.#drawnAt !== null) this.output.write('\r\x1b[2K');
    this.#drawnAt = null;
  }
}

/**
 * The steps of a longer task (`setup production`). Live (a person at a terminal): the running step on one line
 * redrawn in place with the latest line of its output (`… installing shioaji  Collecting pandas`), and each finished
 * step left as a line (`✓ installing shioaji: 24 packages installed`). Otherwise (piped, or --verbose with the
 * output streamed) a line when a step starts and one when it ends.
 */
export class Phases {
  #label: string | null = null;
  #drawnAt: number | null = null;

  constructor(
    private readonly output: ProgressOutput,
    private readonly live: boolean,
    private readonly color = false,
    private readonly now: () => number = Date.now,
  ) {}

  start(label: string): void {
    this.#label = label;
    this.#drawnAt = null;
    if (this.live) this.#draw('');
    else this.output.write(`${label}...\n`);
  }

  /** The latest line of the running step's output: shown live only, at most ten redraws a second. */
  note(text: string): void {
    if (!this.live || this.#label === null) return;
    if (this.#drawnAt !== null && this.now() - this.#drawnAt < REDRAW_MS) return;
    this.#draw(text.trim());
  }

  /** Marks the running step done, with what it found or did. */
  done(detail?: string): void {
    this.#end(true, detail);
  }

  /** Marks the running step failed (what went wrong is the error's to say). */
  fail(): void {
    this.#end(false);
  }

  #draw(note: string): void {
    this.#drawnAt = this.now();
    // A pseudo-terminal may say 0 columns: then the width is unknown.
    const width = Math.max((this.output.columns || 80) - 1, 20);
    const text = `… ${this.#label}${note === '' ? '' : `  ${note}`}`;
    this.output.write(`\r\x1b[2K${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
  }

  #end(ok: boolean, detail?: string): void {
    if (this.#label === null) return;
    const line = `${formatMark(ok, this.color)} ${this.#label}${detail ? `: ${detail}` : ''}\n`;
    this.output.write(this.live ? `\r\x1b[2K${line}` : line);
    this.#label = null;
  }
}
