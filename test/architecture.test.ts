/**
 * The import rules of docs/architecture.md, enforced on every file of src/: which layer may import
 * which (type-only imports included), that the domain core does no I/O, and that the serving
 * product never loads the release builder (nor the demo-input generator it uses).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..', 'src');

/** Which layers each layer may import (besides itself). A layer is src/<dir>, or src/config.ts. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  synthesis: [],
  core: ['synthesis'],
  ports: ['core', 'synthesis'],
  wire: ['core', 'synthesis'],
  app: ['core', 'synthesis', 'ports', 'wire', 'config'],
  adapters: ['core', 'synthesis', 'ports', 'config'],
  http: ['core', 'synthesis', 'ports', 'wire', 'app', 'config'],
  main: ['core', 'synthesis', 'ports', 'app', 'adapters', 'config'],
  demo: ['core', 'synthesis', 'adapters', 'config'],
  'release-builder': ['core', 'synthesis', 'ports', 'adapters', 'demo', 'config'],
  cli: ['core', 'synthesis', 'ports', 'wire', 'app', 'adapters', 'http', 'main', 'demo', 'release-builder', 'config', 'clients'],
  config: [],
};

/** What the core may import from outside: hashing and the CSPRNG (keys, ids), a seeded PRNG. No I/O. */
const CORE_EXTERNALS = new Set(['node:crypto', 'pure-rand']);

interface Edge {
  readonly from: string;
  readonly to: string;
  readonly specifier: string;
  readonly dynamic: boolean;
}

function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

function importsOf(file: string): Edge[] {
  const text = readFileSync(file, 'utf8');
  const edges: Edge[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+['"]([^'"]+)['"]/gm)) edges.push({ from: file, to: target(file, m[1]!), specifier: m[1]!, dynamic: false });
  for (const m of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) edges.push({ from: file, to: target(file, m[1]!), specifier: m[1]!, dynamic: false });
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) edges.push({ from: file, to: target(file, m[1]!), specifier: m[1]!, dynamic: true });
  return edges;
}

const target = (file: string, specifier: string): string => (specifier.startsWith('.') ? resolve(dirname(file), specifier) : specifier);

/** The layer of a file under src/ ("core", "http", …, "config"), "clients" for the TS client, or undefined for packages. */
function layerOf(path: string): string | undefined {
  if (!path.startsWith('/')) return undefined;
  const rel = relative(SRC, path);
  if (rel.startsWith('..')) return relative(join(SRC, '..'), path).split('/')[0];
  const first = rel.split('/')[0]!;
  return first.endsWith('.ts') ? first.replace(/\.ts$/, '') : first;
}

describe('architecture: the import rules of docs/architecture.md', () => {
  const files = sourceFiles();
  const edges = files.flatMap(importsOf);

  it('reads the whole tree', () => {
    expect(files.length).toBeGreaterThan(150);
    expect(new Set(files.map((f) => layerOf(f)))).toEqual(new Set(Object.keys(ALLOWED)));
  });

  it('every import goes to the layer itself or to one it may use', () => {
    const broken = edges
      .filter((e) => e.to.startsWith('/'))
      .filter((e) => {
        const from = layerOf(e.from)!;
        const to = layerOf(e.to)!;
        return from !== to && !ALLOWED[from]!.includes(to);
      })
      .map((e) => `${relative(SRC, e.from)} → ${e.specifier}`);
    expect(broken).toEqual([]);
  });

  it('the domain core does no I/O: no Node built-in but hashing, no package but a seeded PRNG', () => {
    const broken = edges
      .filter((e) => (layerOf(e.from) === 'core' || layerOf(e.from) === 'synthesis') && !e.to.startsWith('/'))
      .filter((e) => !CORE_EXTERNALS.has(e.specifier))
      .map((e) => `${relative(SRC, e.from)} → ${e.specifier}`);
    expect(broken).toEqual([]);
  });

  it('the serving product (composition root, HTTP, use cases, adapters) never loads the release builder or the demo generator', () => {
    const bySource = new Map<string, Edge[]>();
    for (const e of edges) bySource.set(e.from, [...(bySource.get(e.from) ?? []), e]);
    const roots = [join(SRC, 'main', 'compose.ts'), join(SRC, 'http', 'app.ts')];
    const seen = new Set<string>();
    const stack = [...roots];
    while (stack.length > 0) {
      const file = stack.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const e of bySource.get(file) ?? []) if (e.to.startsWith(SRC)) stack.push(e.to);
    }
    expect(seen.size).toBeGreaterThan(50);
    const loaded = [...seen].map((f) => relative(SRC, f)).filter((f) => f.startsWith('release-builder/') || f.startsWith('demo/'));
    expect(loaded).toEqual([]);
  });
});
