// A size guard on src/: no file over MAX_FILE_LINES lines and no class with more than MAX_CLASS_MEMBERS members, so
// that a file or a class that grows past what one reader holds in mind is split by concern before it grows further.
//
// Classes are read from the syntax trees of the TypeScript compiler, through the same API as the import graph
// (helpers/import-graph.ts): the projects tsc checks, so every file under src/ is read.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, describe, test } from 'node:test';
import { type Node, type SourceFile, SyntaxKind } from 'typescript/unstable/ast';
import { API } from 'typescript/unstable/sync';
import { REPO_ROOT, readImportGraph, SOURCE_PROJECTS } from './helpers/import-graph.js';

const MAX_FILE_LINES = 500;
const MAX_CLASS_MEMBERS = 20;

/** Files that may be longer: generated or pure data, each with why. Paths are repository-relative. */
const LONG_FILES: Readonly<Record<string, string>> = {};

interface ClassSize {
  /** `path:ClassName`. */
  name: string;
  members: number;
}

/** Modifiers that make a constructor parameter a property of the class. */
const PARAMETER_PROPERTY_MODIFIERS = new Set<SyntaxKind>([
  SyntaxKind.PublicKeyword,
  SyntaxKind.PrivateKeyword,
  SyntaxKind.ProtectedKeyword,
  SyntaxKind.ReadonlyKeyword,
  SyntaxKind.OverrideKeyword,
]);

type ClassNode = Node & { name?: Node & { text: string }; members: readonly Node[] };
type MemberNode = Node & {
  name?: Node & { text?: string };
  parameters?: readonly (Node & { modifiers?: readonly Node[]; name: Node & { text?: string } })[];
};

/**
 * Members of a class: methods, properties, accessors, index signatures and static blocks, and the parameter
 * properties of its constructor; not the constructor itself. Overloads of a method and the get and set of one accessor
 * count once.
 */
function memberCount(node: ClassNode, source: SourceFile): number {
  const names = new Set<string>();
  let unnamed = 0;
  for (const member of node.members as readonly MemberNode[]) {
    if (member.kind === SyntaxKind.SemicolonClassElement) continue;
    if (member.kind === SyntaxKind.Constructor) {
      for (const parameter of member.parameters ?? []) {
        if (parameter.modifiers?.some((modifier) => PARAMETER_PROPERTY_MODIFIERS.has(modifier.kind))) {
          names.add(`property ${parameter.name.getText(source)}`);
        }
      }
      continue;
    }
    if (member.name) {
      const isStatic = (member as Node & { modifiers?: readonly Node[] }).modifiers?.some(
        (modifier) => modifier.kind === SyntaxKind.StaticKeyword,
      );
      names.add(`${isStatic ? 'static ' : ''}${member.name.getText(source)}`);
    } else {
      unnamed++;
    }
  }
  return names.size + unnamed;
}

function classesOf(source: SourceFile, file: string): ClassSize[] {
  const found: ClassSize[] = [];
  const visit = (node: Node): void => {
    if (node.kind === SyntaxKind.ClassDeclaration || node.kind === SyntaxKind.ClassExpression) {
      const cls = node as ClassNode;
      found.push({ name: `${file}:${cls.name?.text ?? '(anonymous class)'}`, members: memberCount(cls, source) });
    }
    node.forEachChild(visit);
  };
  source.forEachChild(visit);
  return found;
}

/** Every class of every file under src/, with its member count. */
function readClasses(files: readonly string[]): ClassSize[] {
  const classes: ClassSize[] = [];
  const api = new API({ cwd: REPO_ROOT });
  try {
    const snapshot = api.updateSnapshot({ openProjects: SOURCE_PROJECTS.map((project) => join(REPO_ROOT, project)) });
    try {
      const projects = snapshot.getProjects();
      for (const file of files) {
        const absolute = join(REPO_ROOT, file);
        const project = projects.find((candidate) => candidate.rootFiles.some((name) => resolve(name) === absolute));
        const source = project?.program.getSourceFile(absolute);
        assert.ok(source, `${file} is in none of ${SOURCE_PROJECTS.join(', ')}`);
        classes.push(...classesOf(source, file));
      }
    } finally {
      snapshot.dispose();
    }
  } finally {
    api.close();
  }
  return classes;
}

const lineCount = (file: string): number => {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
};

describe('the size of src/', () => {
  let files: string[];
  let classes: ClassSize[];
  before(
    () => {
      files = readImportGraph().files;
      classes = readClasses(files);
    },
    { timeout: 40_000 },
  );

  test(`no file is over ${MAX_FILE_LINES} lines, save the allow-lists`, () => {
    const long = files.filter((file) => lineCount(file) > MAX_FILE_LINES);
    const excused = new Set(Object.keys(LONG_FILES));
    assert.deepEqual(
      long.filter((file) => !excused.has(file)).map((file) => `${file}: ${lineCount(file)} lines`),
      [],
    );
    assert.deepEqual(
      [...excused].filter((file) => !long.includes(file)),
      [],
      'an allowed file that is no longer over the limit leaves the list',
    );
  });

  test(`no class has more than ${MAX_CLASS_MEMBERS} members`, () => {
    const large = classes.filter((cls) => cls.members > MAX_CLASS_MEMBERS);
    assert.deepEqual(
      large.map((cls) => `${cls.name}: ${cls.members}`),
      [],
    );
  });

  test('the member count reads every class of src/', () => {
    assert.ok(classes.some((cls) => cls.name === 'src/domain/errors.ts:DomainError'));
    // DomainError: its parameter properties kind and details; the constructor itself does not count.
    assert.equal(classes.find((cls) => cls.name === 'src/domain/errors.ts:DomainError')?.members, 2);
  });
});
