/**
 * The facts docs/architecture.md draws, read from the code's own imports: every part of src/
 * (a top-level folder, the census science by its three parts), its lines, which parts it
 * imports (type-only included) and its floor (0 for a part that imports no other; otherwise one
 * above the highest part it imports). Run: node bin/run-ts.js scripts/architecture-facts.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SRC = resolve(import.meta.dirname, '..', 'src');

/** The part of a file under src/: its top folder, or synthesis/<part> for the census science. */
function partOf(file: string): string {
  const rel = relative(SRC, file).split('/');
  if (rel[0] === 'synthesis' && rel.length > 2) return `synthesis/${rel[1]}`;
  return rel.length === 1 ? rel[0]!.replace(/\.ts$/, '') : rel[0]!;
}

const files = readdirSync(SRC, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.ts'))
  .map((e) => join(e.parentPath, e.name));
const lines = new Map<string, number>();
const imports = new Map<string, Map<string, number>>();
for (const file of files) {
  const part = partOf(file);
  const text = readFileSync(file, 'utf8');
  lines.set(part, (lines.get(part) ?? 0) + text.split('\n').length - 1);
  const targets = [
    ...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+['"](\.[^'"]+)['"]/gm),
    ...text.matchAll(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g),
  ].map((m) => resolve(dirname(file), m[1]!));
  for (const to of targets.filter((t) => t.startsWith(SRC + '/'))) {
    const other = partOf(to);
    if (other === part) continue;
    const row = imports.get(part) ?? new Map<string, number>();
    row.set(other, (row.get(other) ?? 0) + 1);
    imports.set(part, row);
  }
}

const floors = new Map<string, number>();
const floorOf = (part: string, path: readonly string[] = []): number => {
  if (path.includes(part)) throw new Error(`parts import each other: ${[...path, part].join(' → ')}`);
  const known = floors.get(part);
  if (known !== undefined) return known;
  const floor = Math.max(-1, ...[...(imports.get(part)?.keys() ?? [])].map((p) => floorOf(p, [...path, part]))) + 1;
  floors.set(part, floor);
  return floor;
};
const parts = [...lines.keys()].sort((a, b) => floorOf(a) - floorOf(b) || a.localeCompare(b));
const total = [...lines.values()].reduce((a, b) => a + b, 0);
console.log(`src/: ${files.length} files, ${total} lines, ${Math.max(...parts.map((p) => floorOf(p))) + 1} floors\n`);
console.log('| floor | part | lines | imports (files importing) |');
console.log('|---:|---|---:|---|');
for (const part of parts) {
  const row = [...(imports.get(part) ?? new Map<string, number>())].sort((a, b) => floorOf(b[0]) - floorOf(a[0]) || a[0].localeCompare(b[0]));
  console.log(`| ${floorOf(part)} | ${part} | ${lines.get(part)} | ${row.map(([p, n]) => `${p} (${n})`).join(', ') || '—'} |`);
}
