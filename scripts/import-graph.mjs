#!/usr/bin/env node
// Prints the import graph of src/ between its parts (domain, broker/port.ts, each venue, store, server, cli, web,
// the files at the top of src/) as the mermaid diagram docs/architecture.md carries; test/architecture.test.ts fails
// when the two differ, and checks the layering rules.
//
//   node scripts/import-graph.mjs            the diagram, ready to paste between the markers of the doc
//   node scripts/import-graph.mjs --edges    every import between two parts: file:line -> file (kind)
import { register } from 'tsx/esm/api';

register();
const { readImportGraph } = await import('../test/helpers/import-graph.ts');
const { diagramNodeOf, renderDiagram } = await import('../test/helpers/layering.ts');

const graph = readImportGraph();
for (const problem of graph.problems) console.error(`cannot read: ${problem}`);
if (graph.problems.length > 0) process.exitCode = 1;

if (process.argv.includes('--edges')) {
  for (const edge of graph.edges) {
    if (diagramNodeOf(edge.from) === diagramNodeOf(edge.to)) continue;
    console.log(`${edge.from}:${edge.line} -> ${edge.to} (${edge.kind})`);
  }
} else {
  console.log(['```mermaid', renderDiagram(graph.files, graph.edges), '```'].join('\n'));
}
