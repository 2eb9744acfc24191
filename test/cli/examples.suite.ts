// Every contract code in the CLI's help texts, the README and the API page (docs/api.md) resolves in the simulator's
// catalog, on dates months and years apart (the injected clock): examples use codes that never expire, such as the
// continuous aliases.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { type Command, CommanderError } from 'commander';
import { SimBroker } from '../../src/broker/sim/sim-broker.js';
import { createProgram } from '../../src/cli/program.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { memoryIO } from '../helpers/cli.js';

const RUNTIME = { entry: '/nonexistent/sjgate-must-not-start.js', version: '0.0.0-test' };
// Across the calendar the simulator knows (to the end of 2027), past several expiries of the nearest month.
const DATES = ['2026-11-23', '2026-12-17', '2027-03-18', '2027-07-21', '2027-12-15'];

function commandPaths(command: Command, prefix: string[] = []): string[][] {
  return command.commands.flatMap((sub) => {
    const path = [...prefix, sub.name()];
    return [path, ...commandPaths(sub, path)];
  });
}

/** The help of the program and of every command, as `--help` prints it (the examples after the options included). */
async function allHelp(): Promise<string> {
  const paths = [[], ...commandPaths(createProgram(RUNTIME, memoryIO().io))];
  const texts: string[] = [];
  for (const path of paths) {
    const output = memoryIO();
    try {
      await createProgram(RUNTIME, output.io).parseAsync(['node', 'sjgate', ...path, '--help']);
    } catch (error) {
      if (!(error instanceof CommanderError)) throw error;
    }
    texts.push(output.stdout());
  }
  return texts.join('\n');
}

const CODE_PLACES: readonly RegExp[] = [
  /--(?:code|combo-with|underlying) ([A-Za-z0-9]+)/g,
  /--(?:codes|legs) ([A-Za-z0-9,+]+)/g,
  /contracts (?:get|info) ([A-Za-z0-9]+)/g,
  /"code": ?"([A-Za-z0-9]+)"/g,
  /contracts\/([A-Za-z0-9]*\d[A-Za-z0-9]*)(?:\/info)?\b/g,
  /code, e\.g\. ((?:[A-Z0-9]+, )*[A-Z0-9]+)/g,
];

/**
 * The contract codes a text names where a code goes; words without a digit (CODE, TXO) and placeholders shorter than
 * any code (C1) are not codes.
 */
export function exampleCodes(text: string): Set<string> {
  const codes = new Set<string>();
  for (const place of CODE_PLACES) {
    for (const match of text.matchAll(place)) {
      for (const code of (match[1] as string).split(/[,+ ]+/))
        if (/\d/.test(code) && code.length >= 4) codes.add(code.toUpperCase());
    }
  }
  return codes;
}

describe('example codes', () => {
  test('the places a code goes are found: flags, lists, JSON and paths', () => {
    assert.deepEqual(
      [
        ...exampleCodes(
          'sjgate data snapshots --codes 2330,TXFR1+TXFR2,C1 --code 2317; contracts get ix0001; code, e.g. 2303, MXFR1; ' +
            '{"code": "00878"} /data/contracts/2454/info --code CODE --underlying 2603 and 2026-11-20, e.g. 9A95',
        ),
      ].sort(),
      ['00878', '2303', '2317', '2330', '2454', '2603', 'IX0001', 'MXFR1', 'TXFR1', 'TXFR2'],
    );
  });

  test('every code in the help texts and the README resolves on each of several dates', async () => {
    const codes = new Set([
      ...exampleCodes(await allHelp()),
      ...exampleCodes(readFileSync('README.md', 'utf8')),
      ...exampleCodes(readFileSync('docs/api.md', 'utf8')),
    ]);
    for (const expected of ['2330', 'TXFR1', 'TXFR2', 'IX0001']) assert.ok(codes.has(expected), expected);
    for (const day of DATES) {
      const broker = new SimBroker({
        clock: new ManualClock(taipeiInstant(day, '10:00')),
        seed: 1,
        clockMode: 'exchange',
        apiKey: null,
      });
      try {
        const missing = [...codes].filter((code) => {
          try {
            broker.contracts.get(code);
            return false;
          } catch {
            return true;
          }
        });
        assert.deepEqual(missing, [], `not listed on ${day}`);
      } finally {
        await broker.close();
      }
    }
  });
});
