// The import graph of src/: which file imports which, read from the syntax trees the TypeScript compiler builds.
//
// TypeScript 7 is the native compiler; its JavaScript API (typescript/unstable/sync) starts the compiler as a child
// process and hands back the syntax trees of a project's files. It has no parser of its own in JavaScript, so the
// projects are the ones tsc checks: tsconfig.json (src/ without the dashboard) and src/web/tsconfig.json. A file
// under src/ that neither project holds is reported rather than skipped, so nothing escapes the check. The package
// is pinned (7.0.2) because this API is marked unstable.
//
// An edge is an import of one of our files: `import ... from`, `export ... from`, `import x = require()`,
// `import('...')` and `typeof import('...')` types. Packages and node: builtins are not ours and are left out.
// Specifiers are resolved as Node and the bundler do it here: `./x.js` is x.ts or x.tsx, `./x` is x.ts, x.tsx or
// x/index.ts, anything else must name the file itself (the dashboard's styles.css).

import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { type Node, type SourceFile, SyntaxKind } from 'typescript/unstable/ast';
import { API } from 'typescript/unstable/sync';

/**
 * How an import binds: `static` is evaluated when the importing module loads, `type` is erased from the output
 * (`import type`, `export type`, import types), `dynamic` is `import()` and loads only when that line runs.
 * `import { type A } from` stays `static`: under verbatimModuleSyntax it still loads the module.
 */
export type ImportKind = 'static' | 'type' | 'dynamic';

export interface ImportEdge {
  /** Repository-relative paths with forward slashes, e.g. `src/server/app.ts`. */
  from: string;
  to: string;
  kind: ImportKind;
  /** 1-based line of the specifier in `from`. */
  line: number;
}

export interface ImportGraph {
  /** Every .ts and .tsx file under src/, sorted. */
  files: string[];
  edges: ImportEdge[];
  /** What could not be read as an edge: a relative import that names no file, `import(expr)`, a file in no project. */
  problems: string[];
}

/** The repository this helper belongs to. */
export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

/** The projects whose files make up src/: the server and CLI, and the dashboard. */
export const SOURCE_PROJECTS = ['tsconfig.json', 'src/web/tsconfig.json'];

/** Reads the import graph of `<root>/src` through the given tsconfig files (relative to root). */
export function readImportGraph(root: string = REPO_ROOT, projects: readonly string[] = SOURCE_PROJECTS): ImportGraph {
  const files = sourceFilesUnder(join(root, 'src')).map((path) => toRepoPath(root, path));
  const edges: ImportEdge[] = [];
  const problems: string[] = [];
  const api = new API({ cwd: root });
  try {
    const snapshot = api.updateSnapshot({ openProjects: projects.map((project) => join(root, project)) });
    try {
      const loaded = snapshot.getProjects();
      for (const file of files) {
        const absolute = join(root, file);
        const project = loaded.find((candidate) => candidate.rootFiles.some((name) => resolve(name) === absolute));
        const source = project?.program.getSourceFile(absolute);
        if (!source) {
          problems.push(`${file} is in none of ${projects.join(', ')}, so its imports cannot be read`);
          continue;
        }
        for (const found of importsOf(source)) {
          if (found.specifier === null) {
            problems.push(`${file}:${found.line} imports a computed module name, which cannot be checked`);
            continue;
          }
          if (!found.specifier.startsWith('.')) continue;
          const target = resolveRelative(dirname(absolute), found.specifier);
          if (target === null) {
            problems.push(`${file}:${found.line} imports '${found.specifier}', which names no file`);
            continue;
          }
          edges.push({ from: file, to: toRepoPath(root, target), kind: found.kind, line: found.line });
        }
      }
    } finally {
      snapshot.dispose();
    }
  } finally {
    api.close();
  }
  return { files, edges, problems };
}

interface FoundImport {
  /** null when the module name is computed (`import(name)`). */
  specifier: string | null;
  kind: ImportKind;
  line: number;
}

/** Every import in a file's syntax tree, nested ones (a dynamic import in a function) included. */
function importsOf(source: SourceFile): FoundImport[] {
  const found: FoundImport[] = [];
  const lineStarts = source.getLineStarts();
  const add = (specifierNode: Node | undefined, kind: ImportKind) => {
    const literal = specifierNode && stringLiteralText(specifierNode);
    const at = specifierNode ?? source;
    found.push({ specifier: literal ?? null, kind, line: lineOf(lineStarts, at.getStart(source)) });
  };
  const visit = (node: Node): void => {
    switch (node.kind) {
      case SyntaxKind.ImportDeclaration: {
        const declaration = node as Node & { importClause?: { phaseModifier?: SyntaxKind }; moduleSpecifier: Node };
        add(
          declaration.moduleSpecifier,
          declaration.importClause?.phaseModifier === SyntaxKind.TypeKeyword ? 'type' : 'static',
        );
        break;
      }
      case SyntaxKind.ExportDeclaration: {
        const declaration = node as Node & { isTypeOnly: boolean; moduleSpecifier?: Node };
        if (declaration.moduleSpecifier) add(declaration.moduleSpecifier, declaration.isTypeOnly ? 'type' : 'static');
        break;
      }
      case SyntaxKind.ImportEqualsDeclaration: {
        const declaration = node as Node & { isTypeOnly: boolean; moduleReference: Node & { expression?: Node } };
        if (declaration.moduleReference.kind === SyntaxKind.ExternalModuleReference) {
          add(declaration.moduleReference.expression, declaration.isTypeOnly ? 'type' : 'static');
        }
        break;
      }
      case SyntaxKind.CallExpression: {
        const call = node as Node & { expression: Node; arguments: readonly Node[] };
        if (call.expression.kind === SyntaxKind.ImportKeyword) add(call.arguments[0], 'dynamic');
        break;
      }
      case SyntaxKind.ImportType: {
        const type = node as Node & { argument: Node & { literal?: Node } };
        add(type.argument.literal ?? type.argument, 'type');
        break;
      }
    }
    node.forEachChild(visit);
  };
  source.forEachChild(visit);
  return found;
}

function stringLiteralText(node: Node): string | undefined {
  if (node.kind !== SyntaxKind.StringLiteral && node.kind !== SyntaxKind.NoSubstitutionTemplateLiteral)
    return undefined;
  return (node as Node & { text: string }).text;
}

function lineOf(lineStarts: readonly number[], offset: number): number {
  let line = 0;
  while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= offset) line++;
  return line + 1;
}

function resolveRelative(fromDir: string, specifier: string): string | null {
  const base = resolve(fromDir, specifier);
  const candidates = base.endsWith('.js')
    ? [`${base.slice(0, -3)}.ts`, `${base.slice(0, -3)}.tsx`]
    : base.endsWith('.jsx')
      ? [`${base.slice(0, -4)}.tsx`]
      : [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile()) ?? null;
}

function sourceFilesUnder(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sourceFilesUnder(path);
      return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
    })
    .sort();
}

function toRepoPath(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}
