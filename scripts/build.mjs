#!/usr/bin/env node
// The release build: compiles src/ (and the TypeScript client the CLI uses) to dist/ with tsc,
// then copies the data files the code reads at run time. Incremental: a rebuild with nothing
// changed takes a couple of seconds. Plain JavaScript, so it needs no TypeScript loader.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const stamp = join(root, 'dist', '.build-stamp');

/** Newest modification time of what the build reads: the compiled sources, their configs, the reference data, this script. */
function newestInput() {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const info = statSync(path);
    newest = Math.max(newest, info.mtimeMs);
    if (info.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  for (const path of ['src', 'clients/typescript/src', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json', 'scripts/build.mjs']) visit(join(root, path));
  return newest;
}

// `--if-stale` (npm start's prestart): a dist/ built after every input last changed is used as
// it is. tsc's own incremental check still costs seconds (it loads the whole program), and
// `npm ci` has just built dist/ through `prepare`, so a first `npm start` would pay it for nothing.
if (process.argv.includes('--if-stale') && existsSync(stamp) && statSync(stamp).mtimeMs >= newestInput()) {
  process.stderr.write(`dist/ is up to date (${Date.now() - started} ms)\n`);
  process.exit(0);
}
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
try {
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
} catch {
  process.stderr.write('spq build: TypeScript compilation failed (see above)\n');
  process.exit(1);
}
// tsc never deletes: drop the output of sources that were moved or removed since the last build,
// and the copies of data files (below) that were.
for (const dir of ['src', 'clients']) {
  const out = join(root, 'dist', dir);
  if (!existsSync(out)) continue;
  for (const entry of readdirSync(out, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const built = join(entry.parentPath, entry.name);
    const mirrored = join(root, built.slice(join(root, 'dist').length + 1));
    const source = /\.js(\.map)?$/.test(entry.name) ? mirrored.replace(/\.js(\.map)?$/, '.ts') : mirrored;
    if (!existsSync(source)) rmSync(built);
  }
  // Then the directories that emptied, deepest first.
  const dirs = readdirSync(out, { recursive: true, withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(e.parentPath, e.name));
  for (const d of dirs.sort((a, b) => b.length - a.length)) if (readdirSync(d).length === 0) rmSync(d, { recursive: true });
}
// Reference geography (real ABS SAL, LGA and POA codes and names) that the census reader and the demo read next to the code.
cpSync(join(root, 'src', 'census-input', 'reference'), join(root, 'dist', 'src', 'census-input', 'reference'), { recursive: true });
// The packed demo inputs a first start unpacks (src/demo/shipped-inputs.ts).
cpSync(join(root, 'src', 'demo', 'inputs.pack.gz'), join(root, 'dist', 'src', 'demo', 'inputs.pack.gz'));
// The common-password list, a JSON module of src/core/common-passwords.ts. tsc emits imported JSON
// itself, but re-indented (a third larger); the file as committed is what ships.
cpSync(join(root, 'src', 'core', 'common-passwords.json'), join(root, 'dist', 'src', 'core', 'common-passwords.json'));
// Written last, after a complete build: its time is what --if-stale compares the inputs with.
writeFileSync(stamp, `${new Date().toISOString()}\n`);
if (!process.env.npm_config_loglevel || process.env.npm_config_loglevel !== 'silent') {
  process.stderr.write(`compiled to dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
