// The CLI examples of the README's CLI section, run against a simulated gateway: each command line that ends by
// itself (not a stream, not an upload of a folder the reader has) exits 0.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { simCli } from '../helpers/sim-cli.js';

/** The sjgate command lines of the first sh block after the CLI section's command table, `a && b` as two. */
function readmeCliExamples(): string[][] {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## CLI\n'), readme.indexOf('## API\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .flatMap((line) => line.replace(/\s+#.*$/, '').split('&&'))
    .map((command) => command.split('|')[0]?.trim() ?? '')
    .filter((command) => command.startsWith('sjgate '))
    .map((command) => command.split(/\s+/).slice(1));
}

/** Commands that run until Ctrl+C, or need files of the reader's own. */
const ENDLESS_OR_LOCAL = [/^data stream/, /^order events/, /^apps upload/];

describe("the README's CLI examples against the simulator", () => {
  const sim = simCli();

  test('each one that ends by itself exits 0', async () => {
    const commands = readmeCliExamples().filter((args) => !ENDLESS_OR_LOCAL.some((skip) => skip.test(args.join(' '))));
    assert.ok(commands.length >= 12, `${commands.length} commands found`);
    for (const args of commands) {
      const run = await sim.sjgate(...args);
      assert.equal(run.code, 0, `sjgate ${args.join(' ')}: ${run.stderr}`);
    }
  });
});
