#!/usr/bin/env node
// The release build: compiles src/ (and the TypeScript client the CLI uses) to dist/ with tsc,
// then copies the data files the code reads at run time. Incremental: a rebuild with nothing
// changed takes a couple of seconds. Plain JavaScript, so it needs no TypeScript loader.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const started = Date.now();
try {
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
} catch {
  process.stderr.write('spq build: TypeScript compilation failed (see above)\n');
  process.exit(1);
}
// tsc never deletes: drop the output of sources that were moved or removed since the last build.
for (const dir of ['src', 'clients']) {
  const out = join(root, 'dist', dir);
  if (!existsSync(out)) continue;
  for (const entry of readdirSync(out, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.js(\.map)?$/.test(entry.name)) continue;
    const compiled = join(entry.parentPath, entry.name);
    const source = join(root, compiled.slice(join(root, 'dist').length + 1)).replace(/\.js(\.map)?$/, '.ts');
    if (!existsSync(source)) rmSync(compiled);
  }
  // Then the directories that emptied, deepest first.
  const dirs = readdirSync(out, { recursive: true, withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(e.parentPath, e.name));
  for (const d of dirs.sort((a, b) => b.length - a.length)) if (readdirSync(d).length === 0) rmSync(d, { recursive: true });
}
// Reference geography (real ABS SAL, LGA and POA codes and names) that the loaders and the demo read next to the code.
cpSync(join(root, 'src', 'adapters', 'abs', 'reference'), join(root, 'dist', 'src', 'adapters', 'abs', 'reference'), { recursive: true });
if (!process.env.npm_config_loglevel || process.env.npm_config_loglevel !== 'silent') {
  process.stderr.write(`compiled to dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
