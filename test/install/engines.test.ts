// `npm ci` warns EBADENGINE when an installed package's engines.node does not admit the running Node. The README
// promises the Node versions of package.json's engines: every package of the lock (dev ones too, which `npm ci`
// installs) must admit the first release of each range promised, and the Node running this test when promised.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

type Version = [number, number, number];

function versionOf(text: string): Version {
  const [major = 0, minor = 0, patch = 0] = text.replace(/^v/, '').split('.').map(Number);
  return [major, minor, patch];
}

const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** One comparator (`>=20.19`, `^8.9.4`, `20.x`, `14`, `*`) as a test of a version; an unknown form throws. */
function comparator(text: string): (version: Version) => boolean {
  const match = /^(>=|<=|>|<|=|\^|~)?v?(\d+|\*)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(text);
  if (match === null) throw new Error(`an engines range this test cannot read: '${text}'`);
  const [, operator = '', major = '*', minor, patch] = match;
  if (major === '*') return () => true;
  const wild = (part: string | undefined) => part === undefined || part === 'x' || part === '*';
  const low: Version = [Number(major), wild(minor) ? 0 : Number(minor), wild(patch) ? 0 : Number(patch)];
  if (operator === '>=') return (v) => compare(v, low) >= 0;
  if (operator === '>') return (v) => compare(v, low) > 0;
  if (operator === '<') return (v) => compare(v, low) < 0;
  if (operator === '<=') return (v) => compare(v, low) <= 0;
  if (operator === '^') return (v) => v[0] === low[0] && compare(v, low) >= 0;
  if (operator === '~') return (v) => v[0] === low[0] && v[1] === low[1] && compare(v, low) >= 0;
  // A partial version is a range: 20 is 20.x.x, 20.19 is 20.19.x.
  return (v) => v[0] === low[0] && (wild(minor) || v[1] === low[1]) && (wild(patch) || v[2] === low[2]);
}

/** Whether `range` (npm's syntax: `||` between sets of space-separated comparators) admits the version. */
export function admits(range: string, version: string): boolean {
  const v = versionOf(version);
  return range.split('||').some((set) =>
    set
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .every((part) => comparator(part)(v)),
  );
}

/** The first version of each alternative of a range of ours (`^20.19.0 || >=22.12.0`: 20.19.0 and 22.12.0). */
function firstVersions(range: string): string[] {
  return range.split('||').map((set) => /(\d+(?:\.\d+){0,2})/.exec(set)?.[1] ?? '0');
}

describe('the Node versions promised', () => {
  test('the range reader reads the forms of the lock', () => {
    assert.ok(admits('>= 10.x', '20.19.0'));
    assert.ok(admits('18 || 20 || >=22', '20.20.2'));
    assert.ok(!admits('>=22', '20.20.2'));
    assert.ok(!admits('^20.19.0 || >=22.12.0', '22.11.0'));
    assert.ok(admits('>=16 || 14 >=14.17', '14.18.0'));
    assert.ok(!admits('>=16 || 14 >=14.17', '14.16.0'));
    assert.ok(admits('20.x || 22.x', '20.19.0'));
    assert.ok(admits('*', '20.19.0'));
  });

  test('every package of the lock admits each Node version package.json promises', () => {
    const promised = (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node;
    const versions = firstVersions(promised);
    if (admits(promised, process.version)) versions.push(process.version.slice(1));
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (path === '' || range === undefined) return [];
      const refused = versions.filter((version) => !admits(range, version));
      return refused.length === 0 ? [] : [`${path}@${entry.version}: node ${range} refuses ${refused.join(', ')}`];
    });
    assert.deepEqual(refusing, [], `package.json promises node ${promised}`);
  });
});
