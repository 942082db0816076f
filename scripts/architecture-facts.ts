/**
 * The facts docs/architecture.md draws, read from the code's own imports: every part of src/
 * (a top-level folder or file, the census science by its parts), its lines, which parts it
 * imports (type-only included) and its floor (0 for a part that imports no other; otherwise one
 * above the highest part it imports).
 *   node bin/run-ts.js scripts/architecture-facts.ts            prints them
 *   node bin/run-ts.js scripts/architecture-facts.ts --write    rewrites them in docs/architecture.md
 * test/docs/architecture-facts.test.ts checks the document shows what this prints.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..');
export const ARCHITECTURE_DOC = join(ROOT, 'docs', 'architecture.md');

/** The part of a file under src/: its top folder, or synthesis/<part> for the census science. */
function partOf(src: string, file: string): string {
  const rel = relative(src, file).split('/');
  if (rel[0] === 'synthesis' && rel.length > 2) return `synthesis/${rel[1]}`;
  return rel.length === 1 ? rel[0]!.replace(/\.ts$/, '') : rel[0]!;
}

interface Parts {
  readonly files: number;
  readonly lines: ReadonlyMap<string, number>;
  /** For each part, the parts it imports and how many of its files import each. */
  readonly imports: ReadonlyMap<string, ReadonlyMap<string, number>>;
}

function readParts(src: string): Parts {
  const files = readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
  const lines = new Map<string, number>();
  const imports = new Map<string, Map<string, number>>();
  for (const file of files) {
    const part = partOf(src, file);
    const text = readFileSync(file, 'utf8');
    lines.set(part, (lines.get(part) ?? 0) + text.split('\n').length - 1);
    const targets = [
      ...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+['"](\.[^'"]+)['"]/gm),
      ...text.matchAll(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g),
    ].map((m) => resolve(dirname(file), m[1]!));
    for (const to of targets.filter((t) => t.startsWith(src + '/'))) {
      const other = partOf(src, to);
      if (other === part) continue;
      const row = imports.get(part) ?? new Map<string, number>();
      row.set(other, (row.get(other) ?? 0) + 1);
      imports.set(part, row);
    }
  }
  return { files: files.length, lines, imports };
}

/** Each part's floor: 0 when it imports no other part, else one above the highest it imports. */
function floorsOf(imports: Parts['imports']): (part: string) => number {
  const floors = new Map<string, number>();
  const floorOf = (part: string, path: readonly string[] = []): number => {
    if (path.includes(part)) throw new Error(`parts import each other: ${[...path, part].join(' → ')}`);
    const known = floors.get(part);
    if (known !== undefined) return known;
    const floor = Math.max(-1, ...[...(imports.get(part)?.keys() ?? [])].map((p) => floorOf(p, [...path, part]))) + 1;
    floors.set(part, floor);
    return floor;
  };
  return floorOf;
}

/** The figures as docs/architecture.md shows them: a summary line, a blank line, and the table of parts by floor. */
export function architectureFacts(src = join(ROOT, 'src')): string {
  const { files, lines, imports } = readParts(src);
  const floorOf = floorsOf(imports);
  const parts = [...lines.keys()].sort((a, b) => floorOf(a) - floorOf(b) || a.localeCompare(b));
  const total = [...lines.values()].reduce((a, b) => a + b, 0);
  const out = [`src/: ${files} files, ${total} lines, ${Math.max(...parts.map((p) => floorOf(p))) + 1} floors`, '', '| floor | part | lines | imports (files importing) |', '|---:|---|---:|---|'];
  for (const part of parts) {
    const row = [...(imports.get(part) ?? new Map<string, number>())].sort((a, b) => floorOf(b[0]) - floorOf(a[0]) || a[0].localeCompare(b[0]));
    out.push(`| ${floorOf(part)} | ${part} | ${lines.get(part)} | ${row.map(([p, n]) => `${p} (${n})`).join(', ') || '—'} |`);
  }
  return out.join('\n');
}

/** Where the figures stand in the document: from the "src/: … files" line to the table's last row. */
export function factsInDocument(doc: string): { readonly start: number; readonly end: number } {
  const start = doc.search(/^src\/: \d+ files, \d+ lines, \d+ floors$/m);
  if (start < 0) throw new Error('docs/architecture.md has no "src/: N files, N lines, N floors" line');
  const table = /^\|.*\|$/gm;
  table.lastIndex = doc.indexOf('\n| floor |', start) + 1;
  let end = table.lastIndex;
  for (let row = table.exec(doc); row && row.index === end; row = table.exec(doc)) end = row.index + row[0].length + 1;
  return { start, end: end - 1 };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const facts = architectureFacts();
  if (process.argv.includes('--write')) {
    const doc = readFileSync(ARCHITECTURE_DOC, 'utf8');
    const { start, end } = factsInDocument(doc);
    writeFileSync(ARCHITECTURE_DOC, doc.slice(0, start) + facts + doc.slice(end));
    process.stderr.write('docs/architecture.md: figures rewritten\n');
  } else console.log(facts);
}
