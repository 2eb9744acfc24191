// Boxed tables drawn in one pass over the cells: column widths in terminal cells (CJK and other wide characters
// count two), so 10,000 rows take milliseconds and Chinese names stay aligned.

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character starts every colour code
const ANSI = /\u001b\[[0-9;]*m/g;

/** East Asian wide and fullwidth characters, which a terminal draws two cells wide (Unicode UAX #11, W and F). */
function isWide(codePoint: number): boolean {
  return (
    (codePoint >= 0x1100 && codePoint <= 0x115f) ||
    (codePoint >= 0x2e80 && codePoint <= 0x303e) ||
    (codePoint >= 0x3041 && codePoint <= 0x33ff) ||
    (codePoint >= 0x3400 && codePoint <= 0x4dbf) ||
    (codePoint >= 0x4e00 && codePoint <= 0x9fff) ||
    (codePoint >= 0xa000 && codePoint <= 0xa4cf) ||
    (codePoint >= 0xac00 && codePoint <= 0xd7a3) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    (codePoint >= 0xfe30 && codePoint <= 0xfe4f) ||
    (codePoint >= 0xff00 && codePoint <= 0xff60) ||
    (codePoint >= 0xffe0 && codePoint <= 0xffe6) ||
    (codePoint >= 0x1f300 && codePoint <= 0x1f64f) ||
    (codePoint >= 0x1f900 && codePoint <= 0x1f9ff) ||
    (codePoint >= 0x20000 && codePoint <= 0x3fffd)
  );
}

/** How many terminal cells the text takes: colour codes take none, wide characters two. */
export function displayWidth(text: string): number {
  const plain = text.includes('\u001b') ? text.replace(ANSI, '') : text;
  let width = 0;
  for (let index = 0; index < plain.length; index++) {
    const code = plain.charCodeAt(index);
    if (code < 0x1100) {
      width += 1;
      continue;
    }
    const point = plain.codePointAt(index) as number;
    if (point > 0xffff) index++;
    width += isWide(point) ? 2 : 1;
  }
  return width;
}

/** The text followed by spaces up to `width` cells. */
export function padDisplay(text: string, width: number): string {
  const missing = width - displayWidth(text);
  return missing > 0 ? text + ' '.repeat(missing) : text;
}

/** The lines of a table with a box around it, a rule under the head (when there is one) and none between rows. */
export function boxTable(head: readonly string[] | null, rows: readonly (readonly string[])[]): string {
  const lined = rows.map((row) => row.map((cell) => cell.split('\n')));
  const headLines = head?.map((cell) => [cell]);
  const columns = Math.max(head?.length ?? 0, ...rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, () => 0);
  for (const row of headLines === undefined ? lined : [headLines, ...lined]) {
    row.forEach((lines, column) => {
      for (const line of lines) widths[column] = Math.max(widths[column] as number, displayWidth(line));
    });
  }
  const rule = (left: string, middle: string, right: string) =>
    left + widths.map((width) => '─'.repeat(width + 2)).join(middle) + right;
  const out: string[] = [rule('┌', '┬', '┐')];
  const draw = (row: readonly string[][]) => {
    const height = Math.max(1, ...row.map((lines) => lines.length));
    for (let line = 0; line < height; line++) {
      out.push(`│${widths.map((width, column) => ` ${padDisplay(row[column]?.[line] ?? '', width)} `).join('│')}│`);
    }
  };
  if (headLines !== undefined) {
    draw(headLines);
    out.push(rule('├', '┼', '┤'));
  }
  for (const row of lined) draw(row);
  out.push(rule('└', '┴', '┘'));
  return out.join('\n');
}
