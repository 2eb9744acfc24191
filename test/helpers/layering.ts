// The rules of the house about who may import whom in src/, checked over an import graph (import-graph.ts).
//
// Dependencies point inward: the domain is pure; a venue (a directory under src/broker/) is a thin adapter that uses
// the domain and the port; the gateway (src/gateway/) is the layer every venue shares, and the only one that uses the
// store; the HTTP server and the CLI reach a venue only through the gateway, except the one file that builds it. The checker knows nothing of today's exceptions:
// they come in as an allow-list, each entry excusing one import from named rules, and an entry that excuses nothing
// any more is reported too, so the list shrinks as the code moves.

import type { ImportEdge, ImportKind } from './import-graph.js';

export type RuleId =
  | 'domain-is-pure'
  | 'port-uses-domain-only'
  | 'venue-uses-domain-and-port'
  | 'store-belongs-to-gateway'
  | 'gateway-uses-port-and-store'
  | 'server-and-cli-use-the-gateway'
  | 'cli-does-not-load-server'
  | 'cli-does-not-import-web'
  | 'web-is-self-contained'
  | 'contract-is-shared'
  | 'client-is-shared';

export const RULES: Record<RuleId, string> = {
  'domain-is-pure': 'src/domain/ imports nothing of ours outside src/domain/',
  'port-uses-domain-only': 'src/broker/port.ts imports only src/domain/',
  'venue-uses-domain-and-port':
    'a venue (src/broker/<venue>/) imports only its own files, src/domain/ and src/broker/port.ts',
  'store-belongs-to-gateway': 'src/store/ is imported only by src/store/ and src/gateway/',
  'gateway-uses-port-and-store':
    'src/gateway/ imports only its own files, src/domain/, src/contract/, src/broker/port.ts and src/store/; ' +
    'never a venue or the server',
  'server-and-cli-use-the-gateway':
    'src/server/ and src/cli/ import neither a venue, nor src/broker/port.ts, nor src/store/: they use src/gateway/; ' +
    'only the composition root (src/server/main.ts) imports a venue, and only its entry point (sim-venue.ts, shioaji-venue.ts)',
  'cli-does-not-load-server':
    'src/cli/ never imports src/server/, except the daemon loading src/server/main.ts with import() ' +
    'for `server start --foreground`',
  'cli-does-not-import-web': 'src/cli/ never imports src/web/',
  'web-is-self-contained':
    'src/web/ (the dashboard, built for the browser) imports nothing of ours outside src/web/ but src/contract/ and ' +
    'src/client/',
  'contract-is-shared':
    'src/contract/ (the route paths and wire types of server, CLI and dashboard) imports nothing of ours outside ' +
    'src/contract/',
  'client-is-shared':
    'src/client/ (the typed API client of CLI, dashboard and users, for Node and browsers) imports nothing of ours ' +
    'outside src/client/ but src/contract/',
};

/**
 * The file that builds the broker and hands it to the HTTP app. Some file has to know the concrete venue, so this
 * exception belongs to the rule rather than to the allow-list: it stays after the refactor.
 */
export const COMPOSITION_ROOT = 'src/server/main.ts';
/** What the composition root may import of each venue: its entry point, not its insides. */
export const VENUE_ENTRIES: readonly string[] = ['src/broker/sim/sim-venue.ts', 'src/broker/shioaji/shioaji-venue.ts'];
/** The CLI starts the gateway in its own process (`server start --foreground`) by loading this file on demand. */
export const DAEMON = 'src/cli/daemon.ts';
export const GATEWAY_START = 'src/server/main.ts';

/** One import excused from some rules until the refactor that removes it. */
export interface AllowedImport {
  from: string;
  to: string;
  rules: readonly RuleId[];
  /** Why it is there today and what takes it away. */
  why: string;
}

export interface Violation {
  rule: RuleId | 'area-cycle' | 'stale-allowance';
  from: string;
  to: string;
  message: string;
}

/**
 * The top-level area of a file: domain, broker, store, server, cli, web (or any other directory under src/), and
 * `root` for the shared files directly under src/ (config.ts, log.ts, version.ts, python-env.ts).
 */
export function areaOf(file: string): string {
  const parts = file.split('/');
  return parts.length > 2 ? parts[1]! : 'root';
}

const under = (file: string, dir: string) => file.startsWith(`${dir}/`);
/** A venue is any directory under src/broker/ (the simulator today, the Shioaji bridge later). */
const venueOf = (file: string): string | null => {
  const match = /^src\/broker\/([^/]+)\//.exec(file);
  return match ? match[1]! : null;
};

/** The rules one import breaks, before any allowance. */
export function rulesBrokenBy(edge: Pick<ImportEdge, 'from' | 'to' | 'kind'>): RuleId[] {
  const { from, to, kind } = edge;
  const broken: RuleId[] = [];
  if (under(from, 'src/domain') && !under(to, 'src/domain')) broken.push('domain-is-pure');
  if (from === 'src/broker/port.ts' && !under(to, 'src/domain')) broken.push('port-uses-domain-only');
  const venue = venueOf(from);
  if (venue !== null && venueOf(to) !== venue && !under(to, 'src/domain') && to !== 'src/broker/port.ts') {
    broken.push('venue-uses-domain-and-port');
  }
  if (under(to, 'src/store') && !under(from, 'src/store') && !under(from, 'src/gateway')) {
    broken.push('store-belongs-to-gateway');
  }
  const gatewayMayUse = ['src/gateway', 'src/domain', 'src/contract', 'src/store'];
  if (under(from, 'src/gateway') && !gatewayMayUse.some((dir) => under(to, dir)) && to !== 'src/broker/port.ts') {
    broken.push('gateway-uses-port-and-store');
  }
  if (
    (under(from, 'src/server') || under(from, 'src/cli')) &&
    (venueOf(to) !== null || to === 'src/broker/port.ts' || under(to, 'src/store')) &&
    !(from === COMPOSITION_ROOT && VENUE_ENTRIES.includes(to))
  ) {
    broken.push('server-and-cli-use-the-gateway');
  }
  if (
    under(from, 'src/cli') &&
    under(to, 'src/server') &&
    !(from === DAEMON && to === GATEWAY_START && kind === 'dynamic')
  ) {
    broken.push('cli-does-not-load-server');
  }
  if (under(from, 'src/cli') && under(to, 'src/web')) broken.push('cli-does-not-import-web');
  // The dashboard is bundled for the browser, so of the rest of src/ it may load only the API contract (route paths
  // and wire types) and the client over it, written for server, CLI and browser alike; not the domain or the server.
  if (under(from, 'src/web') && !['src/web', 'src/contract', 'src/client'].some((dir) => under(to, dir))) {
    broken.push('web-is-self-contained');
  }
  // The client runs in Node and in browsers, and is published on its own (sjgate/client): only the contract with it.
  if (under(from, 'src/client') && !under(to, 'src/client') && !under(to, 'src/contract')) {
    broken.push('client-is-shared');
  }
  // The contract is loaded by all three, so it stands alone: what it shares cannot drag in the server or the domain.
  if (under(from, 'src/contract') && !under(to, 'src/contract')) broken.push('contract-is-shared');
  return broken;
}

/** Every broken rule not excused by the allow-list, every allowance that excuses nothing, and every area cycle. */
export function checkLayering(edges: readonly ImportEdge[], allowed: readonly AllowedImport[]): Violation[] {
  const violations: Violation[] = [];
  const used = new Set<string>();
  for (const edge of edges) {
    for (const rule of rulesBrokenBy(edge)) {
      const allowance = allowed.find((entry) => entry.from === edge.from && entry.to === edge.to);
      if (allowance?.rules.includes(rule)) {
        used.add(`${allowance.from} ${allowance.to} ${rule}`);
        continue;
      }
      violations.push({
        rule,
        from: edge.from,
        to: edge.to,
        message: `${edge.from}:${edge.line} imports ${edge.to} (${describeKind(edge.kind)}), which breaks ${rule}: ${RULES[rule]}`,
      });
    }
  }
  for (const entry of allowed) {
    for (const rule of entry.rules) {
      if (used.has(`${entry.from} ${entry.to} ${rule}`)) continue;
      violations.push({
        rule: 'stale-allowance',
        from: entry.from,
        to: entry.to,
        message: `the allow-list excuses ${entry.from} importing ${entry.to} from ${rule}, but no such import breaks it any more: remove the entry`,
      });
    }
  }
  for (const cycle of areaCycles(edges)) {
    const hops = cycle.map((hop) => `${hop.from} imports ${hop.to}`).join(', ');
    const first = cycle[0]!;
    violations.push({
      rule: 'area-cycle',
      from: first.from,
      to: first.to,
      message: `the areas ${cycle.map((hop) => areaOf(hop.from)).join(' -> ')} -> ${areaOf(first.from)} import each other in a cycle: ${hops}`,
    });
  }
  return violations;
}

function describeKind(kind: ImportKind): string {
  return kind === 'type' ? 'type-only' : kind === 'dynamic' ? 'import()' : 'static';
}

/** For each pair of areas with imports between them, the kinds of those imports and one example of each kind. */
export function areaGraph(edges: readonly ImportEdge[]): Map<string, Map<string, Map<ImportKind, ImportEdge>>> {
  const graph = new Map<string, Map<string, Map<ImportKind, ImportEdge>>>();
  for (const edge of edges) {
    const from = areaOf(edge.from);
    const to = areaOf(edge.to);
    if (from === to) continue;
    const targets = graph.get(from) ?? new Map<string, Map<ImportKind, ImportEdge>>();
    graph.set(from, targets);
    const kinds = targets.get(to) ?? new Map<ImportKind, ImportEdge>();
    targets.set(to, kinds);
    if (!kinds.has(edge.kind)) kinds.set(edge.kind, edge);
  }
  return graph;
}

/**
 * Cycles between areas, each as the imports that close it (one example import per hop). Every kind of import
 * counts: a type-only or dynamic import still ties the two areas together. Each cycle is reported once, from its
 * smallest area name.
 */
export function areaCycles(edges: readonly ImportEdge[]): ImportEdge[][] {
  const graph = areaGraph(edges);
  const example = (from: string, to: string) => graph.get(from)!.get(to)!.values().next().value as ImportEdge;
  const cycles: ImportEdge[][] = [];
  const areas = [...graph.keys()].sort();
  for (const start of areas) {
    // Simple paths from start through areas that sort after it, back to start: each cycle found once.
    const walk = (area: string, path: string[]): void => {
      for (const next of [...(graph.get(area)?.keys() ?? [])].sort()) {
        if (next === start) {
          const ring = [...path, start];
          cycles.push(ring.slice(0, -1).map((hop, i) => example(hop, ring[i + 1]!)));
        } else if (next > start && !path.includes(next)) {
          walk(next, [...path, next]);
        }
      }
    };
    walk(start, [start]);
  }
  return cycles;
}

/**
 * The node of the architecture diagram a file belongs to: its area, with src/broker/ split into the port and each
 * venue, since the difference between the two is what the layering is about.
 */
export function diagramNodeOf(file: string): string {
  if (file === 'src/broker/port.ts') return 'broker/port';
  const venue = venueOf(file);
  return venue === null ? areaOf(file) : `broker/${venue}`;
}

const DIAGRAM_ORDER = [
  'cli',
  'server',
  'web',
  'client',
  'contract',
  'broker/port',
  'broker/sim',
  'gateway',
  'store',
  'domain',
  'root',
];
const DIAGRAM_LABELS: Record<string, string> = {
  'broker/port': 'broker/port.ts',
  root: 'config.ts, log.ts, version.ts, python-env.ts',
};

/**
 * The import graph between diagram nodes as a mermaid flowchart, with a node for every part that has files: a solid
 * arrow where some import loads the module, `types` where every import is type-only, `import()` where the only
 * imports that load anything are dynamic.
 */
export function renderDiagram(files: readonly string[], edges: readonly ImportEdge[]): string {
  const links = new Map<string, Set<ImportKind>>();
  const nodes = new Set(files.map(diagramNodeOf));
  for (const edge of edges) {
    const from = diagramNodeOf(edge.from);
    const to = diagramNodeOf(edge.to);
    if (from === to) continue;
    nodes.add(from).add(to);
    const key = `${from}\t${to}`;
    links.set(key, (links.get(key) ?? new Set<ImportKind>()).add(edge.kind));
  }
  const rank = (node: string) => {
    const index = DIAGRAM_ORDER.indexOf(node);
    return index === -1 ? DIAGRAM_ORDER.length : index;
  };
  const byRank = (a: string, b: string) => rank(a) - rank(b) || a.localeCompare(b);
  const id = (node: string) => node.replaceAll('/', '_');
  const lines = ['flowchart TD'];
  for (const node of [...nodes].sort(byRank)) {
    lines.push(`  ${id(node)}["${DIAGRAM_LABELS[node] ?? `${node}/`}"]`);
  }
  const sortedLinks = [...links].sort(([a], [b]) => {
    const [aFrom, aTo] = a.split('\t') as [string, string];
    const [bFrom, bTo] = b.split('\t') as [string, string];
    return byRank(aFrom, bFrom) || byRank(aTo, bTo);
  });
  for (const [key, kinds] of sortedLinks) {
    const [from, to] = key.split('\t') as [string, string];
    const arrow = kinds.has('static') ? '-->' : kinds.has('dynamic') ? '-. "import()" .->' : '-. types .->';
    lines.push(`  ${id(from)} ${arrow} ${id(to)}`);
  }
  return lines.join('\n');
}
