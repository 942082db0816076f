/**
 * The import rules of docs/architecture.md, enforced on every file of src/: which layer may import
 * which (type-only imports included), that the domain core and the census science do no I/O, that
 * the service and the census science stay apart (src/synthesis/README.md) on a floor of census
 * names that both stand on (src/census-names.ts), that the census reader (src/census-input) stands
 * on those names and the census vocabulary, that the serving product never loads the release
 * builder (nor the demo-input generator or the census reader it uses), and that no import cycle
 * runs through src/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..', 'src');

/** Which layers each layer may import (besides itself). A layer is src/<dir>, or a file of src/ (config.ts, census-names.ts). */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  // The census's names (data sets, area levels, states): the ground floor, under both domains.
  'census-names': [],
  // The census science: census vocabulary and tables, the synthesizer, quality measures.
  synthesis: ['census-names'],
  // The service's domain stands on the census's names, never on the science.
  core: ['census-names'],
  // The service above the core reaches into src/synthesis for the census vocabulary only (the rule below).
  ports: ['census-names', 'core', 'synthesis'],
  wire: ['census-names', 'core', 'synthesis'],
  app: ['census-names', 'core', 'synthesis', 'ports', 'wire', 'config'],
  adapters: ['census-names', 'core', 'synthesis', 'ports', 'config'],
  http: ['census-names', 'core', 'synthesis', 'ports', 'wire', 'app', 'config'],
  main: ['census-names', 'core', 'synthesis', 'ports', 'app', 'adapters', 'config'],
  // The reading of the ABS's published files into the science's inputs: the builder's side, I/O allowed.
  // Of core, Result alone (CENSUS_INPUT_MAY_IMPORT_OF_CORE); of synthesis, the vocabulary alone.
  'census-input': ['census-names', 'core', 'synthesis'],
  demo: ['census-names', 'core', 'synthesis', 'census-input', 'config'],
  'release-builder': ['census-names', 'core', 'synthesis', 'ports', 'adapters', 'census-input', 'demo', 'config'],
  cli: ['census-names', 'core', 'synthesis', 'ports', 'wire', 'app', 'adapters', 'http', 'main', 'census-input', 'demo', 'release-builder', 'config', 'clients'],
  config: [],
};

/** The layers that do no I/O: the census's names, the service's domain core, the census science. */
const PURE_LAYERS = new Set(['census-names', 'core', 'synthesis']);

/** What the core and the science may import from outside: hashing and the CSPRNG (keys, ids), a seeded PRNG. No I/O. */
const PURE_EXTERNALS = new Set(['node:crypto', 'pure-rand']);

/**
 * The census vocabulary: its variables and categories, table specs, universes, missing codes, the
 * shape of a population (over the census's names, src/census-names.ts). Data, no method: the
 * service above the core labels its columns with them.
 */
const VOCABULARY = 'synthesis/census/';

/** The method (the synthesizer), the measures of its output (quality) and what both use (shared: the affinity model, raking). */
const METHOD = 'synthesis/synthesizer/';
const MEASURES = 'synthesis/quality/';
const SHARED = 'synthesis/shared/';
/** What a build does with a level's inputs, as pure functions: the one way the release builder reaches the method and the measures. */
const PIPELINE = 'synthesis/pipeline/';

/**
 * The builder's side, which runs the science: the release builder and the demo-input generator
 * (which writes the hidden truth's realism figures and reads them back, src/demo/truth-files.ts).
 * The census reader, src/census-input, is not on it: it hands the science its inputs in the
 * vocabulary's shapes and runs none of it.
 */
const BUILDER_SIDE = ['release-builder/', 'demo/'];

/**
 * What the census reader takes of the service's core: Result, the shape of an expected failure
 * (a missing file, a malformed row) that its callers already handle. The names it reads by (the
 * states' ASGS codes) are the census's own, in src/census-names.ts.
 */
const CENSUS_INPUT_MAY_IMPORT_OF_CORE: readonly string[] = ['core/result.ts'];

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

/** Every file the roots load, following imports (static and dynamic) inside src/. */
function loadedFrom(roots: readonly string[], edges: readonly Edge[]): Set<string> {
  const bySource = new Map<string, Edge[]>();
  for (const e of edges) bySource.set(e.from, [...(bySource.get(e.from) ?? []), e]);
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const e of bySource.get(file) ?? []) if (e.to.startsWith(SRC)) stack.push(e.to);
  }
  return seen;
}

/** The import cycles of a graph: its strongly connected components of more than one file, or one importing itself (Tarjan). */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('architecture: the import rules of docs/architecture.md', () => {
  const files = sourceFiles();
  const edges = files.flatMap(importsOf);
  const rel = (file: string): string => relative(SRC, file);
  const internal = edges.filter((e) => e.to.startsWith(SRC));

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
      .map((e) => `${rel(e.from)} → ${e.specifier}`);
    expect(broken).toEqual([]);
  });

  it('the census names, the domain core and the census science do no I/O: no Node built-in but hashing, no package but a seeded PRNG', () => {
    const broken = edges
      .filter((e) => PURE_LAYERS.has(layerOf(e.from)!) && !e.to.startsWith('/'))
      .filter((e) => !PURE_EXTERNALS.has(e.specifier))
      .map((e) => `${rel(e.from)} → ${e.specifier}`);
    expect(broken).toEqual([]);
  });

  it('the census names are the floor under both domains: core and the science import them, they import nothing, and core imports nothing of the science', () => {
    const names = internal.filter((e) => layerOf(e.to) === 'census-names');
    // Both domains stand on the names (real imports, so the rule below is about real files).
    expect(names.some((e) => layerOf(e.from) === 'core') && names.some((e) => layerOf(e.from) === 'synthesis')).toBe(true);
    const broken = internal
      .filter((e) => (layerOf(e.from) === 'census-names' && layerOf(e.to) !== 'census-names') || (layerOf(e.from) === 'core' && layerOf(e.to) === 'synthesis'))
      .map((e) => `${rel(e.from)} → ${e.specifier}`);
    expect(broken).toEqual([]);
  });

  // The science hands its populations to the release builder, which writes the pools: it needs no port.
  it('the census science imports nothing of the service: no domain, port or adapter', () => {
    const broken = internal
      .filter((e) => layerOf(e.from) === 'synthesis' && layerOf(e.to) !== 'synthesis' && layerOf(e.to) !== 'census-names')
      .map((e) => `${rel(e.from)} → ${e.specifier}`);
    expect(broken).toEqual([]);
  });

  it('the service never imports the synthesizer or the quality measures: outside the builder side, src/synthesis is used for its census vocabulary only', () => {
    const users = internal.filter((e) => layerOf(e.from) !== 'synthesis' && layerOf(e.to) === 'synthesis');
    // The rule has something to hold: the service reads variables and missing codes from the vocabulary.
    expect(users.some((e) => rel(e.from).startsWith('ports/')) && users.some((e) => rel(e.from).startsWith('adapters/pools/'))).toBe(true);
    const broken = users
      .filter((e) => !BUILDER_SIDE.some((side) => rel(e.from).startsWith(side)))
      .filter((e) => !rel(e.to).startsWith(VOCABULARY))
      .map((e) => `${rel(e.from)} → ${e.specifier}`);
    expect(broken).toEqual([]);
  });

  it("the census reader stands on the census's names, the census vocabulary and core's Result alone", () => {
    const reads = internal.filter((e) => layerOf(e.from) === 'census-input' && layerOf(e.to) !== 'census-input');
    // Real imports of each kind it may have, so the filters below hold real paths.
    expect(reads.some((e) => rel(e.to).startsWith(VOCABULARY)) && reads.some((e) => CENSUS_INPUT_MAY_IMPORT_OF_CORE.includes(rel(e.to)))).toBe(true);
    const broken = reads
      .filter((e) => (layerOf(e.to) === 'core' && !CENSUS_INPUT_MAY_IMPORT_OF_CORE.includes(rel(e.to))) || (layerOf(e.to) === 'synthesis' && !rel(e.to).startsWith(VOCABULARY)))
      .map((e) => `${rel(e.from)} → ${e.specifier}`);
    expect(broken).toEqual([]);
  });

  it('the release builder runs the science through the pipeline alone: of src/synthesis it imports pipeline/ and the vocabulary', () => {
    const builder = internal.filter((e) => rel(e.from).startsWith('release-builder/') && layerOf(e.to) === 'synthesis');
    // Real edges: the builder calls the pipeline.
    expect(builder.some((e) => rel(e.to).startsWith(PIPELINE))).toBe(true);
    const broken = builder.filter((e) => !rel(e.to).startsWith(PIPELINE) && !rel(e.to).startsWith(VOCABULARY)).map((e) => `${rel(e.from)} → ${e.specifier}`);
    expect(broken).toEqual([]);
  });

  it('the census vocabulary imports neither the synthesizer nor the quality measures (so the service, reading it, loads no science)', () => {
    const broken = internal
      .filter((e) => rel(e.from).startsWith(VOCABULARY) && !rel(e.to).startsWith(VOCABULARY) && layerOf(e.to) !== 'census-names')
      .map((e) => `${rel(e.from)} → ${e.specifier}`);
    expect(broken).toEqual([]);
  });

  it('the quality measures load nothing of the synthesizer: what the method and the measures share sits in census/ and shared/', () => {
    const measures = files.filter((f) => rel(f).startsWith(MEASURES));
    // The rule holds on real edges: the measures read the shared affinity model and the census's family links.
    expect(internal.some((e) => rel(e.from).startsWith(MEASURES) && rel(e.to).startsWith(SHARED))).toBe(true);
    expect(internal.some((e) => rel(e.from).startsWith(MEASURES) && rel(e.to) === 'synthesis/census/family-links.ts')).toBe(true);
    const loaded = [...loadedFrom(measures, edges)].map(rel).filter((f) => f.startsWith(METHOD));
    expect(loaded).toEqual([]);
  });

  it('shared/ imports neither the synthesizer nor the quality measures (so both can stand on it)', () => {
    const broken = internal
      .filter((e) => rel(e.from).startsWith(SHARED) && (rel(e.to).startsWith(METHOD) || rel(e.to).startsWith(MEASURES)))
      .map((e) => `${rel(e.from)} → ${e.specifier}`);
    expect(broken).toEqual([]);
  });

  it('the serving product (composition root, HTTP, use cases, adapters) never loads the release builder, the demo generator, the census reader or the synthesizer', () => {
    const seen = loadedFrom([join(SRC, 'main', 'compose.ts'), join(SRC, 'http', 'app.ts')], edges);
    expect(seen.size).toBeGreaterThan(50);
    const builderOnly = ['release-builder/', 'demo/', 'census-input/'];
    const loaded = [...seen].map(rel).filter((f) => builderOnly.some((side) => f.startsWith(side)) || (f.startsWith('synthesis/') && !f.startsWith(VOCABULARY)));
    expect(loaded).toEqual([]);
    // What it does load of the science is vocabulary (variables to label columns by): the check above reads real paths.
    expect([...seen].map(rel).some((f) => f.startsWith(VOCABULARY))).toBe(true);
  });

  it('finds an import cycle when there is one', () => {
    const graph = new Map([
      ['tables', ['gcp/table']],
      ['gcp/table', ['gcp/cells']],
      ['gcp/cells', ['tables', 'layout']],
      ['layout', []],
      ['self', ['self']],
    ]);
    expect(cyclesOf(graph)).toEqual([['gcp/cells', 'gcp/table', 'tables'], ['self']]);
  });

  it('no import cycle runs through src/ (type-only imports included)', () => {
    const graph = new Map<string, string[]>(files.map((f) => [f, []]));
    for (const e of internal) graph.get(e.from)!.push(e.to);
    expect(cyclesOf(graph).map((cycle) => cycle.map(rel))).toEqual([]);
  });
});
