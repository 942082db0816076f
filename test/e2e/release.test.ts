/**
 * Issue 12, item 6: the release build. `spq` runs the compiled JavaScript in dist/ (npm ci builds
 * it; the test setup rebuilds it), never a TypeScript loader; its commands load their
 * implementation only when run, so `spq --help` loads no server, database or synthesizer code.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const SPQ = join(ROOT, 'bin', 'spq.js');

/** The specifiers a JavaScript module imports statically (its top-level import declarations). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*import\s+(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => join(e.parentPath, e.name));
}

describe('the release build', () => {
  it('bin/spq.js and dist/ import no TypeScript loader and no .ts file', () => {
    const files = [SPQ, ...jsFiles(join(ROOT, 'dist'))];
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      // The loaders as modules (imported, dynamically imported or required), not the word in a page's text.
      expect(text, file).not.toMatch(/(?:from |import\(|require\()['"](?:tsx|typescript)(?:\/[^'"]*)?['"]/);
      for (const specifier of staticImports(file)) expect(specifier, file).not.toMatch(/\.ts$/);
    }
  });

  it('runs from dist: --version prints the package version, --help lists every command', async () => {
    const version = await run(process.execPath, [SPQ, '--version']);
    expect(version.stdout.trim()).toBe((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
    const help = await run(process.execPath, [SPQ, '--help']);
    for (const command of ['serve', 'build', 'demo-inputs', 'admin', 'migrate', 'config', 'client']) expect(help.stdout).toContain(command);
  });

  it('command modules load only commander, node built-ins, config and small helpers (the clock port, the format registry, release paths) until a command runs', () => {
    const allowed = /^(commander|node:.*|\.\.\/\.\.\/config\.js|\.\.\/\.\.\/ports\/clock\.js|\.\.\/\.\.\/core\/formats\.js|\.\.\/progress\.js|\.\.\/options\.js|\.\.\/\.\.\/release-builder\/releases\.js|\.\.\/\.\.\/adapters\/pools\/release-dirs\.js|\.\.\/\.\.\/\.\.\/clients\/typescript\/src\/index\.js|\.\/[a-z-]+\.js)$/;
    const dir = join(ROOT, 'dist', 'src', 'cli', 'commands');
    for (const file of jsFiles(dir)) {
      for (const specifier of staticImports(file)) expect(specifier, file).toMatch(allowed);
    }
    expect(staticImports(join(ROOT, 'dist', 'src', 'cli', 'main.js')).every((s) => /^(commander|node:.*|\.\/commands\/index\.js)$/.test(s))).toBe(true);
  });
});
