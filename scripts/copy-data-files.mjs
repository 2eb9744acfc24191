#!/usr/bin/env node
// Copies the data files the server reads at run time (src/**/data/*, other than TypeScript) to the same place
// under dist/, since tsc emits only what it compiles. Part of `npm run build`.
import { cpSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const SOURCE = join(ROOT, 'src');
const OUTPUT = join(ROOT, 'dist');

function dataFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'web' ? [] : dataFiles(path);
    return dir.endsWith('/data') && !name.endsWith('.ts') ? [path] : [];
  });
}

for (const file of dataFiles(SOURCE)) cpSync(file, join(OUTPUT, relative(SOURCE, file)));
