// The layering of src/ (issue 15): the import graph, read from the compiler's syntax trees, keeps the rules of the
// house as far as they can hold today, and docs/architecture.md draws the graph as it is.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { before, describe, test } from 'node:test';
import { type ImportEdge, type ImportGraph, REPO_ROOT, readImportGraph } from './helpers/import-graph.js';
import {
  type AllowedImport,
  areaCycles,
  checkLayering,
  type RuleId,
  renderDiagram,
  type Violation,
} from './helpers/layering.js';

/**
 * Today's exceptions, each one import the coming refactor removes. When the gateway layer (src/gateway/) owns the
 * journal and the venue port is async, the simulator stops opening the store itself and these entries go; the test
 * fails on an entry that no longer excuses anything, so the list cannot outlive the imports it names.
 * docs/architecture.md lists the same imports as what is left to move.
 */
export const ALLOWED: readonly AllowedImport[] = [];

const DOC = join(REPO_ROOT, 'docs', 'architecture.md');

describe('the import graph of src/', () => {
  let graph: ImportGraph;
  before(
    () => {
      graph = readImportGraph();
    },
    { timeout: 30_000 },
  );

  test('every file under src/ is read and every import of ours resolves to a file', { timeout: 10_000 }, () => {
    assert.deepEqual(graph.problems, []);
    assert.ok(graph.files.includes('src/server/main.ts') && graph.files.includes('src/web/main.tsx'));
    // The one dynamic import of src/ is seen, so an import() elsewhere would be too.
    assert.ok(
      graph.edges.some(
        (edge) => edge.from === 'src/cli/daemon.ts' && edge.to === 'src/server/main.ts' && edge.kind === 'dynamic',
      ),
    );
  });

  test('the rules of the house hold, save the allow-list', { timeout: 10_000 }, () => {
    const violations = checkLayering(graph.edges, ALLOWED);
    assert.deepEqual(
      violations.map((violation) => violation.message),
      [],
    );
  });

  test('docs/architecture.md draws the graph as it is', { timeout: 10_000 }, () => {
    const doc = readFileSync(DOC, 'utf8');
    const drawn = /<!-- import-graph:begin -->\s*```mermaid\n([\s\S]*?)\n```\s*<!-- import-graph:end -->/.exec(doc);
    assert.ok(drawn, 'docs/architecture.md has a mermaid block between the import-graph markers');
    assert.equal(
      drawn[1],
      renderDiagram(graph.files, graph.edges),
      'the diagram is out of date: `node scripts/import-graph.mjs` prints the current one',
    );
  });

  test('docs/architecture.md lists every allowed import as left to move', { timeout: 10_000 }, () => {
    const doc = readFileSync(DOC, 'utf8');
    for (const entry of ALLOWED) {
      assert.ok(
        doc.includes(`\`${entry.from}\` → \`${entry.to}\``),
        `docs/architecture.md names ${entry.from} → ${entry.to}`,
      );
    }
  });
});

describe('the layering checker', () => {
  const edge = (from: string, to: string, kind: ImportEdge['kind'] = 'static'): ImportEdge => ({
    from,
    to,
    kind,
    line: 1,
  });
  const broken = (edges: ImportEdge[], allowed: AllowedImport[] = []) =>
    checkLayering(edges, allowed).map(({ rule, from, to }) => `${rule} ${from} -> ${to}`);

  /** A graph that keeps every rule: the shape of src/ without today's exceptions. */
  const clean: ImportEdge[] = [
    edge('src/domain/orders.ts', 'src/domain/ticks.ts'),
    edge('src/broker/port.ts', 'src/domain/orders.ts', 'type'),
    edge('src/broker/sim/sim-broker.ts', 'src/broker/port.ts', 'type'),
    edge('src/broker/sim/sim-broker.ts', 'src/broker/sim/market/feed.ts'),
    edge('src/broker/sim/sim-broker.ts', 'src/domain/time.ts'),
    edge('src/broker/sim/sim-venue.ts', 'src/broker/sim/sim-broker.ts'),
    edge('src/gateway/order-journal.ts', 'src/store/journal.ts'),
    edge('src/server/main.ts', 'src/broker/sim/sim-venue.ts'),
    edge('src/server/main.ts', 'src/gateway/gateway.ts'),
    edge('src/server/app.ts', 'src/gateway/gateway.ts', 'type'),
    edge('src/server/app.ts', 'src/config.ts'),
    edge('src/cli/daemon.ts', 'src/server/main.ts', 'dynamic'),
    edge('src/cli/commands/order.ts', 'src/domain/orders.ts'),
    edge('src/web/App.tsx', 'src/web/api.ts'),
    edge('src/web/App.tsx', 'src/contract/paths.ts'),
    edge('src/web/types.ts', 'src/contract/wire.ts', 'type'),
    edge('src/server/routes/orders.ts', 'src/contract/paths.ts'),
    edge('src/cli/commands/order.ts', 'src/contract/paths.ts'),
    edge('src/contract/wire.ts', 'src/contract/paths.ts', 'type'),
    edge('src/web/api.ts', 'src/client/index.ts'),
    edge('src/cli/client.ts', 'src/client/index.ts'),
    edge('src/client/index.ts', 'src/contract/paths.ts'),
  ];

  test('a graph that keeps the rules passes', () => {
    assert.deepEqual(broken(clean), []);
  });

  // Each bad import, with every rule it breaks: some break two (the store is the gateway's, and the server may not
  // reach it either), and one closes a cycle between areas besides.
  const cases: [string, ImportEdge, Violation['rule'][]][] = [
    [
      'the domain imports the store',
      edge('src/domain/orders.ts', 'src/store/journal.ts'),
      ['domain-is-pure', 'store-belongs-to-gateway'],
    ],
    ['the domain imports a root file', edge('src/domain/time.ts', 'src/config.ts', 'type'), ['domain-is-pure']],
    [
      'the port imports the simulator',
      edge('src/broker/port.ts', 'src/broker/sim/accounts.ts'),
      ['port-uses-domain-only'],
    ],
    [
      'the simulator imports the server',
      edge('src/broker/sim/sim-broker.ts', 'src/server/plugins/errors.ts'),
      ['venue-uses-domain-and-port', 'area-cycle'],
    ],
    [
      'one venue imports another',
      edge('src/broker/shioaji/bridge.ts', 'src/broker/sim/market/rng.ts'),
      ['venue-uses-domain-and-port'],
    ],
    [
      'the server imports the store',
      edge('src/server/routes/orders.ts', 'src/store/journal.ts'),
      ['store-belongs-to-gateway', 'server-and-cli-use-the-gateway'],
    ],
    [
      'a route imports the simulator',
      edge('src/server/routes/orders.ts', 'src/broker/sim/sim-broker.ts', 'type'),
      ['server-and-cli-use-the-gateway'],
    ],
    [
      'the composition root imports the simulator past its entry point',
      edge('src/server/main.ts', 'src/broker/sim/sim-broker.ts'),
      ['server-and-cli-use-the-gateway'],
    ],
    [
      'a route reaches past the gateway to the port',
      edge('src/server/routes/orders.ts', 'src/broker/port.ts', 'type'),
      ['server-and-cli-use-the-gateway'],
    ],
    [
      'the gateway imports the simulator',
      edge('src/gateway/gateway.ts', 'src/broker/sim/sim-venue.ts'),
      ['gateway-uses-port-and-store'],
    ],
    [
      'the gateway imports the server',
      edge('src/gateway/order-desk.ts', 'src/server/plugins/errors.ts'),
      ['gateway-uses-port-and-store', 'area-cycle'],
    ],
    [
      'the CLI imports the simulator',
      edge('src/cli/commands/data.ts', 'src/broker/sim/market/history.ts'),
      ['server-and-cli-use-the-gateway'],
    ],
    [
      'the CLI imports the server statically',
      edge('src/cli/daemon.ts', 'src/server/main.ts'),
      ['cli-does-not-load-server'],
    ],
    [
      'another CLI file loads the server dynamically',
      edge('src/cli/commands/server.ts', 'src/server/main.ts', 'dynamic'),
      ['cli-does-not-load-server'],
    ],
    [
      'the daemon loads a server file other than main.ts',
      edge('src/cli/daemon.ts', 'src/server/app.ts', 'dynamic'),
      ['cli-does-not-load-server'],
    ],
    [
      'the CLI imports the dashboard',
      edge('src/cli/output.ts', 'src/web/format.ts', 'type'),
      ['cli-does-not-import-web'],
    ],
    ['the dashboard imports the domain', edge('src/web/quotes.ts', 'src/domain/quotes.ts'), ['web-is-self-contained']],
    [
      'the dashboard imports server types',
      edge('src/web/api.ts', 'src/server/schemas/orders.ts', 'type'),
      ['web-is-self-contained'],
    ],
    [
      'the dashboard imports the domain through a type-only import',
      edge('src/web/types.ts', 'src/domain/orders.ts', 'type'),
      ['web-is-self-contained'],
    ],
    [
      'the contract imports the domain',
      edge('src/contract/wire.ts', 'src/domain/orders.ts', 'type'),
      ['contract-is-shared'],
    ],
    [
      'the contract imports a server schema',
      edge('src/contract/wire.ts', 'src/server/schemas/orders.ts'),
      ['contract-is-shared', 'area-cycle'],
    ],
    [
      'the client imports the domain',
      edge('src/client/errors.ts', 'src/domain/errors.ts', 'type'),
      ['client-is-shared'],
    ],
    [
      'the client imports the CLI',
      edge('src/client/index.ts', 'src/cli/client.ts'),
      ['client-is-shared', 'area-cycle'],
    ],
  ];
  for (const [name, bad, rules] of cases) {
    test(`fails when ${name} (${rules.join(', ')})`, () => {
      const violations = checkLayering([...clean, bad], []);
      assert.deepEqual(
        violations.map((violation) => violation.rule),
        rules,
      );
      for (const violation of violations) {
        assert.ok(violation.message.includes(bad.from), violation.message);
        assert.ok(violation.message.includes(bad.to), violation.message);
        if (violation.rule !== 'area-cycle') assert.ok(violation.message.includes(violation.rule), violation.message);
      }
    });
  }

  test('the store imported by the simulator breaks two rules, each excused only by name', () => {
    const simToStore = edge('src/broker/sim/orders/sim-orders.ts', 'src/store/journal.ts', 'type');
    assert.deepEqual(broken([...clean, simToStore]), [
      'venue-uses-domain-and-port src/broker/sim/orders/sim-orders.ts -> src/store/journal.ts',
      'store-belongs-to-gateway src/broker/sim/orders/sim-orders.ts -> src/store/journal.ts',
    ]);
    const partly: AllowedImport = {
      from: simToStore.from,
      to: simToStore.to,
      rules: ['store-belongs-to-gateway'],
      why: '',
    };
    assert.deepEqual(broken([...clean, simToStore], [partly]), [
      'venue-uses-domain-and-port src/broker/sim/orders/sim-orders.ts -> src/store/journal.ts',
    ]);
    const fully = { ...partly, rules: ['store-belongs-to-gateway', 'venue-uses-domain-and-port'] as RuleId[] };
    assert.deepEqual(broken([...clean, simToStore], [fully]), []);
    // The allowance covers that import only, not another file of the simulator doing the same.
    const another = edge('src/broker/sim/sim-broker.ts', 'src/store/journal.ts');
    assert.equal(broken([...clean, simToStore, another], [fully]).length, 2);
  });

  test('an allowance that excuses nothing any more fails, so the allow-list shrinks with the refactor', () => {
    const gone: AllowedImport = {
      from: 'src/broker/sim/sim-broker.ts',
      to: 'src/store/journal.ts',
      rules: ['store-belongs-to-gateway'],
      why: '',
    };
    const violations = checkLayering(clean, [gone]);
    assert.deepEqual(
      violations.map((violation) => violation.rule),
      ['stale-allowance'],
    );
    assert.match(violations[0]!.message, /src\/broker\/sim\/sim-broker\.ts importing src\/store\/journal\.ts/);
  });

  test('a cycle between areas fails, whatever kind its imports are, and names the imports that close it', () => {
    // Each import is allowed by every per-file rule; together they tie the areas in a ring.
    const ring = [
      edge('src/server/app.ts', 'src/config.ts'),
      edge('src/config.ts', 'src/cli/context.ts', 'type'),
      edge('src/cli/daemon.ts', 'src/server/main.ts', 'dynamic'),
    ];
    const violations = checkLayering(ring, []);
    assert.deepEqual(
      violations.map((violation) => violation.rule),
      ['area-cycle'],
    );
    assert.match(violations[0]!.message, /cli -> server -> root -> cli/);
    for (const hop of ring) assert.ok(violations[0]!.message.includes(`${hop.from} imports ${hop.to}`));
    assert.deepEqual(areaCycles(clean), []);
  });
});

describe('the import reader', () => {
  test('finds every form of import in the syntax tree, and reports what it cannot follow', { timeout: 30_000 }, () => {
    const root = mkdtempSync(join(tmpdir(), 'sjgate-import-graph-'));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
      };
      write(
        'tsconfig.json',
        JSON.stringify({
          compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', types: [], noEmit: true },
          include: ['src'],
          exclude: ['src/outside'],
        }),
      );
      for (const name of ['b', 'c', 'd', 'e', 'side', 'lazy', 'q', 'nested/index']) {
        write(`src/${name}.ts`, 'export const x = 1;\nexport type E = number;\n');
      }
      write('src/outside/skipped.ts', 'export {};\n');
      write(
        'src/a.ts',
        [
          "// import { fake } from './commented.js';",
          "import type { E } from './b.js';",
          'import {',
          '  x,',
          "} from './c.js';",
          "export { x as d } from './d.js';",
          "export type { E as F } from './e.js';",
          "import './side.js';",
          "import { readFileSync } from 'node:fs';",
          'const text = "import(\'./in-a-string.js\')";',
          "export async function later() { return import('./lazy.js'); }",
          "export type Q = typeof import('./q.js');",
          "import { x as y } from './nested';",
          "import { z } from './missing.js';",
          'export const computed = (name: string) => import(name);',
          'export const used = [x, y, z, text, readFileSync];',
          '',
        ].join('\n'),
      );
      const graph = readImportGraph(root, ['tsconfig.json']);
      assert.deepEqual(
        graph.edges.map(({ to, kind, line }) => `${line} ${to} ${kind}`),
        [
          '2 src/b.ts type',
          '5 src/c.ts static',
          '6 src/d.ts static',
          '7 src/e.ts type',
          '8 src/side.ts static',
          '11 src/lazy.ts dynamic',
          '12 src/q.ts type',
          '13 src/nested/index.ts static',
        ],
      );
      assert.deepEqual(graph.problems, [
        "src/a.ts:14 imports './missing.js', which names no file",
        'src/a.ts:15 imports a computed module name, which cannot be checked',
        'src/outside/skipped.ts is in none of tsconfig.json, so its imports cannot be read',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
