import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCsvRows } from '../../src/census-input/csv.ts';
import { GCP_PART_HEADERS } from '../../src/synthesis/census/gcp/layout.generated.ts';
import { tabulateCells } from '../../src/synthesis/census/tabulate.ts';
import { createRng } from '../../src/synthesis/synthesizer/rng.ts';
import { fillClusters, planTable, trueCounts } from '../../src/demo/datapack-plan.ts';
import { DEMO_GCP_TABLES, universeOf } from '../../src/demo/datapack-writer.ts';
import { generateDemoInputs } from '../../src/demo/generate.ts';
import { buildDemoGeography } from '../../src/demo/geography.ts';
import { G02_HEADERS } from '../../src/demo/medians.ts';
import { drawSuburbPopulation } from '../../src/demo/truth-model.ts';
import { INPUT_TABLES } from '../../src/synthesis/census/tables.ts';

const DESCRIPTORS = fileURLToPath(new URL('../../../shared/abs/2021-gcp/gcp-cell-descriptors.csv', import.meta.url));
const GCP_DIR = join('2021 Census GCP Suburbs and Localities for AUS', 'SAL', 'AUS');
const SUBURBS = 6;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spq-datapack-'));
  await generateDemoInputs({ outDir: dir, scale: 'demo', seed: 11, suburbs: SUBURBS });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function headerRow(path: string): Promise<string[]> {
  for await (const { fields } of readCsvRows(path)) return fields;
  return [];
}

describe('demo DataPack files', () => {
  it('are exactly the real part files, each with the real header row (0 differences against the ABS metadata)', async () => {
    // Read the metadata itself when ../shared is beside the checkout, so this does not just compare the layout with itself.
    const expected = new Map<string, string[]>();
    if (existsSync(DESCRIPTORS)) {
      for await (const { row, fields } of readCsvRows(DESCRIPTORS)) {
        if (row === 1) continue;
        const part = fields[3]!.trim().toUpperCase();
        if (!(part in GCP_PART_HEADERS)) continue;
        expected.set(part, [...(expected.get(part) ?? []), fields[1]!.trim()]);
      }
    } else {
      console.warn('../shared/abs is not beside the checkout: comparing with the committed layout only');
      for (const [part, headers] of Object.entries(GCP_PART_HEADERS)) expected.set(part, [...headers]);
    }
    const written = readdirSync(join(dir, GCP_DIR)).sort();
    expect(written).toEqual([...expected.keys()].map((p) => `2021Census_${p}_AUST_SAL.csv`).sort());
    const differences: string[] = [];
    for (const [part, headers] of expected) {
      const got = await headerRow(join(dir, GCP_DIR, `2021Census_${part}_AUST_SAL.csv`));
      const want = ['SAL_CODE_2021', ...headers];
      if (got.join(',') !== want.join(',')) differences.push(`${part}: ${got.find((h, i) => h !== want[i]) ?? 'length'}`);
    }
    expect(differences).toEqual([]);
    expect(G02_HEADERS).toEqual(GCP_PART_HEADERS.G02);
  });

  it('have one whole-number row per suburb in every file', () => {
    for (const name of readdirSync(join(dir, GCP_DIR))) {
      const lines = readFileSync(join(dir, GCP_DIR, name), 'utf8').trimEnd().split('\n');
      expect(lines).toHaveLength(SUBURBS + 1);
      const width = lines[0]!.split(',').length;
      for (const line of lines.slice(1)) {
        const [key, ...values] = line.split(',');
        expect(key).toMatch(/^SAL\d{5}$/);
        expect(values).toHaveLength(width - 1);
        for (const v of values) expect(Number.isFinite(Number(v)) && Number(v) >= 0).toBe(true);
        if (!name.includes('_G02_')) for (const v of values) expect(Number.isInteger(Number(v))).toBe(true);
      }
    }
  });
});

describe('table plans (before perturbation)', () => {
  const pops = buildDemoGeography('demo', 3, 4).suburbs.map((s) => drawSuburbPopulation(s, createRng(3).fork(s.index)));

  it('tabulate every defined column from the truth, the fitted specs first', () => {
    for (const spec of INPUT_TABLES) {
      const plan = planTable(spec.id, spec.universe);
      const fitted = [...spec.cells, ...spec.otherCells];
      const at = new Map(plan.columns.map((c, i) => [c.header, i]));
      for (const [k, pop] of pops.entries()) {
        const counts = trueCounts(plan, pop, k);
        const direct = tabulateCells(pop, spec.universe, fitted);
        fitted.forEach((c, i) => expect(counts[at.get(c.header)!], `${spec.id} ${c.header}`).toBe(direct[i]));
      }
    }
  });

  it('fill the columns spq has no variable for so that children add up to their parents', () => {
    let checked = 0;
    for (const table of DEMO_GCP_TABLES.filter((t) => t !== 'G02')) {
      const plan = planTable(table, universeOf(table));
      for (const [k, pop] of pops.entries()) {
        const counts = trueCounts(plan, pop, k);
        for (const group of plan.groups) {
          const kids = new Map<number, number[]>();
          for (const n of group.nodes) if (!n.isTotal) kids.set(n.parent, [...(kids.get(n.parent) ?? []), n.column]);
          for (const [parent, children] of kids) {
            if (children.every((c) => plan.cells[c])) continue;
            const parentValue = parent < 0 ? tabulateCells(pop, plan.universe, [plan.tabulated[group.totalAt]!])[0]! : counts[parent]!;
            const nodes = group.nodes.filter((n) => children.includes(n.column));
            const definedSum = nodes.filter((n) => n.defined).reduce((s, n) => s + counts[n.column]!, 0);
            const where = `${table} under ${parent < 0 ? 'total' : plan.columns[parent]!.header}`;
            for (const cluster of fillClusters(nodes, parentValue, definedSum)) {
              const sum = cluster.nodes.reduce((s, n) => s + counts[n.column]!, 0);
              // Filled rows take what the defined rows leave (partition), or the whole parent per run of rows (overlapping rows).
              expect(sum, where).toBe(definedSum <= parentValue ? parentValue - definedSum : parentValue);
              checked++;
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
