// A progress bar on one terminal line, redrawn in place and cleared at the end:
// `Uploading myapp [██████░░░░░░] 48%  2.4/5.0 MB`.

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
