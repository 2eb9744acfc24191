import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXIT } from '../../src/cli/context.js';
import { toToon } from '../../src/cli/toon.js';
import { OFFICIAL_SERVER_VERSION } from '../../src/version.js';
import { fakeDaemon } from '../helpers/cli.js';

describe('toToon', () => {
  test('objects are key: value lines, nested ones indented by two spaces', () => {
    assert.equal(
      toToon({ code: '2330', price: 1005.5, odd: false, note: null, account: { broker_id: '9A95', id: 7 } }),
      'code: "2330"\nprice: 1005.5\nodd: false\nnote: null\naccount:\n  broker_id: 9A95\n  id: 7',
    );
    assert.equal(toToon({ gone: undefined, empty: {} }), 'empty:');
  });

  test('strings that could be read as something else are quoted, with escapes', () => {
    assert.equal(
      toToon({ a: '', b: ' x', c: 'true', d: '007', e: 'a,b', f: 'k: v', g: 'say "hi"\n', h: '-1x', i: '台積電' }),
      [
        'a: ""',
        'b: " x"',
        'c: "true"',
        'd: "007"',
        'e: "a,b"',
        'f: "k: v"',
        'g: "say \\"hi\\"\\n"',
        'h: "-1x"',
        'i: 台積電',
      ].join('\n'),
    );
    assert.equal(toToon({ 'odd key': 1 }), '"odd key": 1');
  });

  test('strings are quoted as the official 1.7.9 CLI quotes them (each case measured on it)', () => {
    const bare = [
      ...['plain', 'a b', 'TRUE', 'e5', '+5', '.5', '0x1F', 'Infinity', '#x', 'a|b', "'x'", '台積電', '1_000', '=x'],
      // dates with a time, and times: bare although they hold ':' and '-'
      ...['2026-11-26T00:00:00', '2026-11-27 00:50:53.924000', '2026-11-26T00:00:00+08:00', '12:30', '12:30:00'],
      ...['00:00:00', '-12:30', 'T00:00:00', '1-2 3:4', '2026-13-45T99:99:99', '12:30Z', '1.5:2', ':::::'],
    ];
    const quoted = [
      ...['a:b', 'a-b', '-a', 'a,b', '[x]', 'x]', '{x}', 'a}', 'true', 'null', '05', '00', '0', '-0', '5', '0.5'],
      ...['1e5', '1.2.3', '1e', '5+', '5.', '1,000', '1.5e-3', 'a"b', 'a\\b', 'a\tb', 'a\nb', '2026-11-26', '1-2'],
      // too short, or a character beyond digits, ':-.+TZ' and space
      ...[
        '06240P',
        '1:2',
        '12:3',
        'T1:2',
        '12:30x',
        'a 12:30',
        '2026-11-26t00:00:00',
        '2026-11-26T00:00:00,5',
        '2026-11',
      ],
    ];
    for (const text of bare) assert.equal(toToon({ v: text }), `v: ${text}`, text);
    for (const text of quoted) assert.match(toToon({ v: text }), /^v: ".*"$/s, text);
  });

  test('numbers in plain decimal; non-finite ones null', () => {
    assert.equal(
      toToon({ big: 1e21, small: 1e-7, nan: Number.NaN, neg0: -0 }),
      'big: 1000000000000000000000\nsmall: 0.0000001\nnan: null\nneg0: 0',
    );
  });

  test('arrays: primitives inline, uniform objects as a table, anything else as - items', () => {
    assert.equal(toToon({ codes: ['2330', 'TXFR1'], none: [] }), 'codes[2]: "2330",TXFR1\nnone[0]:');
    assert.equal(
      toToon([
        { id: 'a1', qty: 2 },
        { id: 'b2', qty: 1 },
      ]),
      '[2]{id,qty}:\n  a1,2\n  b2,1',
    );
    assert.equal(
      toToon({ trades: [{ id: 1, order: { qty: 2 } }, 'x', [1, 2]] }),
      'trades[3]:\n  - id: 1\n    order:\n      qty: 2\n  - x\n  - [2]: 1,2',
    );
  });
});

describe('--format toon', () => {
  const daemon = fakeDaemon(({ url }) =>
    url === '/api/v1/info' ? [200, { version: '1.7.9', sjgate_version: '9.9.9', api_version: 'v1' }] : [404, {}],
  );
  before(() => daemon.start());
  after(() => daemon.stop());

  test('a command prints its result in TOON', async () => {
    const run = await daemon.sjgate('--format', 'toon', 'version');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.equal(
      run.stdout,
      `sjgate: "0.0.0-test"\nofficial: "${OFFICIAL_SERVER_VERSION}"\nsource: daemon\ndaemon_sjgate: "9.9.9"\n` +
        'daemon_official: "1.7.9"\ndaemon_api: v1\n',
    );
  });

  test('--json with --format toon is exit 2; an unknown format names the three', async () => {
    const both = await daemon.sjgate('--format', 'toon', '--json', 'sjgate', 'version');
    assert.equal(both.code, EXIT.usage);
    assert.match(both.stderr, /--json prints JSON; leave out --format toon/);
    const yaml = await daemon.sjgate('--format', 'yaml', 'version');
    assert.equal(yaml.code, EXIT.usage);
    assert.match(yaml.stderr, /Allowed choices are human, json, toon/);
    assert.deepEqual(daemon.seen, []);
  });
});
