import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCensusInputs, loadTruth } from '../../src/adapters/abs/load-inputs.ts';
import type { CensusInputs } from '../../src/core/census/inputs.ts';
import { tableById } from '../../src/core/census/tables.ts';
import { generateDemoInputs } from '../../src/demo/generate.ts';

const SUBURBS = 16;
let dir: string;
let again: string;
let other: string;
let inputs: CensusInputs;

/** SHA-256 of every file under a directory, by relative path. */
function digest(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[p.slice(root.length)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(root);
  return out;
}

beforeAll(async () => {
  const base = mkdtempSync(join(tmpdir(), 'spq-demo-'));
  dir = join(base, 'a');
  again = join(base, 'b');
  other = join(base, 'c');
  const summary = await generateDemoInputs({ outDir: dir, scale: 'demo', seed: 7, suburbs: SUBURBS });
  expect(summary.suburbs).toBe(SUBURBS);
  await generateDemoInputs({ outDir: again, scale: 'demo', seed: 7, suburbs: SUBURBS });
  await generateDemoInputs({ outDir: other, scale: 'demo', seed: 8, suburbs: SUBURBS });
  const loaded = await loadCensusInputs(dir);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.error));
  inputs = loaded.value;
});
afterAll(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

describe('demo inputs', () => {
  it('are byte-for-byte reproducible from the seed, and differ for another seed', () => {
    const a = digest(dir);
    expect(Object.keys(a).length).toBeGreaterThan(40);
    expect(digest(again)).toEqual(a);
    const c = digest(other);
    expect(c['/README.txt']).not.toBe(a['/README.txt']);
    expect(Object.keys(a).filter((k) => a[k] !== c[k]).length).toBeGreaterThan(30);
  });

  it('are read by the real loaders, truth included', async () => {
    expect(inputs.suburbs).toHaveLength(SUBURBS);
    const truth = await loadTruth(dir);
    if (!truth.ok) throw new Error(JSON.stringify(truth.error));
    expect(truth.value.get('V_STRD_BEDRD')!.size).toBe(SUBURBS);
  });

  it('cover all eight states, names shared by several states, and small suburbs', () => {
    expect(new Set(inputs.suburbs.map((s) => s.state)).size).toBe(8);
    const qualified = inputs.suburbs.filter((s) => new RegExp(`^${s.name} \\((NSW|VIC|QLD|SA|WA|TAS|NT|ACT)\\)$`).test(s.suburbId));
    expect(qualified.length).toBeGreaterThanOrEqual(2);
    const sizes = inputs.suburbs.map((s) => inputs.totals.get('G04')!.get(s.salCode)!);
    expect(sizes.filter((n) => n < 500).length / SUBURBS).toBeGreaterThanOrEqual(0.05);
    expect(new Set(inputs.suburbs.map((s) => s.suburbId)).size).toBe(SUBURBS);
    expect(readFileSync(join(dir, 'README.txt'), 'utf8')).toMatch(/MADE UP/);
  });

  it('perturb like the ABS: identical cells agree, tables do not add up exactly, no negatives', () => {
    const g04 = inputs.totals.get('G04')!;
    const g01 = inputs.totals.get('G01')!;
    let mismatched = 0;
    for (const s of inputs.suburbs) {
      expect(g01.get(s.salCode)).toBe(g04.get(s.salCode)); // Tot_P_P and Tot_P count the same people
      const cells = inputs.tables.get('G04')!.get(s.salCode)!;
      if (cells.reduce((a, b) => a + b, 0) !== g04.get(s.salCode)) mismatched++;
      for (const t of inputs.tables.values()) for (const v of t.get(s.salCode)!) expect(v).toBeGreaterThanOrEqual(0);
    }
    expect(mismatched).toBeGreaterThan(SUBURBS / 2);
  });

  it('stay close to the hidden truth: perturbation is small', async () => {
    const truth = await loadTruth(dir);
    if (!truth.ok) throw new Error('no truth');
    const spec = tableById('V_NPRD_VEHRD');
    for (const s of inputs.suburbs) {
      const dwellingsTruth = truth.value.get(spec.id)!.get(s.salCode)!.reduce((a, b) => a + b, 0);
      const published = inputs.totals.get('G35')!.get(s.salCode)!;
      expect(Math.abs(published - dwellingsTruth)).toBeLessThanOrEqual(2);
    }
  });
});

describe('demo geography at the default size', () => {
  it('has ~300 suburbs, ≥10 shared names, ≥5% small, LGAs and postcodes spanning several suburbs, straddlers', async () => {
    const { buildDemoGeography } = await import('../../src/demo/geography.ts');
    const { suburbs } = buildDemoGeography('demo', 2021);
    expect(suburbs.length).toBe(300);
    const statesOf = new Map<string, Set<string>>();
    for (const s of suburbs) statesOf.set(s.name, (statesOf.get(s.name) ?? new Set()).add(s.state));
    expect([...statesOf.values()].filter((st) => st.size >= 2).length).toBeGreaterThanOrEqual(10);
    expect(suburbs.filter((s) => s.persons < 500).length / suburbs.length).toBeGreaterThanOrEqual(0.05);
    expect(Math.min(...suburbs.map((s) => s.persons))).toBeLessThan(100);
    expect(Math.max(...suburbs.map((s) => s.persons))).toBeGreaterThanOrEqual(29_000);
    const perLga = new Map<string, number>();
    const perPostcode = new Map<string, number>();
    for (const s of suburbs) {
      perLga.set(s.lgas[0]!.code, (perLga.get(s.lgas[0]!.code) ?? 0) + 1);
      perPostcode.set(s.postcodes[0]!.code, (perPostcode.get(s.postcodes[0]!.code) ?? 0) + 1);
    }
    expect([...perLga.values()].filter((n) => n >= 3).length).toBeGreaterThan(10);
    expect([...perPostcode.values()].filter((n) => n >= 2).length).toBeGreaterThan(10);
    expect(suburbs.filter((s) => s.lgas.length > 1).length).toBeGreaterThan(3);
    expect(suburbs.filter((s) => s.postcodes.length > 1).length).toBeGreaterThan(3);
  });
});

describe('demo geography (shape only, no populations drawn)', () => {
  it('is the real SAL list at national scale: every spatial SAL once, with its real name and area, ~1,700 persons each', async () => {
    const { buildDemoGeography } = await import('../../src/demo/geography.ts');
    const { realSals } = await import('../../src/demo/asgs-reference.ts');
    const { suburbs } = buildDemoGeography('national', 3);
    const real = realSals();
    expect(real.length).toBe(15_334); // 15,352 SALs less the 18 "No usual address" and "Migratory" ones
    expect(suburbs.map((s) => s.salCode).sort()).toEqual(real.map((s) => s.code).sort());
    const byCode = new Map(real.map((s) => [s.code, s]));
    for (const s of suburbs) {
      expect(s.absName).toBe(byCode.get(s.salCode)!.absName);
      expect(s.areaSqkm).toBe(byCode.get(s.salCode)!.areaSqkm);
    }
    const mean = suburbs.reduce((a, s) => a + s.persons, 0) / suburbs.length;
    expect(mean).toBeGreaterThan(1500);
    expect(mean).toBeLessThan(2000);
    expect(suburbs.filter((s) => s.remoteness >= 3).length).toBeGreaterThan(100);
    // Every postcode a real 4-digit POA code (some ABS POA names say "2406 crosses NSW/QLD").
    expect(suburbs.flatMap((s) => s.postcodes.map((p) => p.code)).filter((c) => !/^\d{4}$/.test(c))).toEqual([]);
  });

  it("keeps the demo's named places on their real SAL codes, LGAs and postcodes", async () => {
    const { buildDemoGeography } = await import('../../src/demo/geography.ts');
    const { realLgas, realPostcodes } = await import('../../src/demo/asgs-reference.ts');
    const { suburbs } = buildDemoGeography('demo', 7);
    expect(suburbs).toHaveLength(300);
    const richmond = suburbs.find((s) => s.absName === 'Richmond (Vic.)')!;
    expect(richmond).toMatchObject({ salCode: 'SAL22170', name: 'Richmond', state: 'VIC' });
    expect(richmond.lgas[0]).toMatchObject({ code: 'LGA27350', name: 'Yarra' });
    const lgaCodes = new Set(realLgas().map((l) => l.code));
    const postcodes = new Set(realPostcodes().map((p) => p.name));
    for (const s of suburbs) {
      for (const l of s.lgas) expect(lgaCodes.has(l.code), l.code).toBe(true);
      for (const p of s.postcodes) expect(postcodes.has(p.code) && /^\d{4}$/.test(p.code), p.code).toBe(true);
    }
  });
});
