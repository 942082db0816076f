import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCensusInputs } from '../../src/census-input/load-inputs.ts';
import { loadTruth } from '../../src/demo/truth-files.ts';
import type { CensusInputs } from '../../src/synthesis/census/inputs.ts';
import { tableById } from '../../src/synthesis/census/tables.ts';
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

  it('give each suburb a real Remoteness Area of its state, by SA1, and that RA as its remoteness', async () => {
    const { realRemotenessAreas } = await import('../../src/census-input/asgs-reference.ts');
    const real = new Map(realRemotenessAreas().map((r) => [r.code, r.name]));
    const rows = readFileSync(join(dir, 'asgs', 'RA_2021_AUST.csv'), 'utf8').trim().split('\n');
    expect(rows[0]).toBe('SA1_CODE_2021,RA_CODE_2021,RA_NAME_2021,STATE_CODE_2021,STATE_NAME_2021,AUS_CODE_2021,AUS_NAME_2021,AREA_ALBERS_SQKM,ASGS_LOCI_URI_2021');
    for (const row of rows.slice(1)) {
      const [sa1, code, name, state] = row.split(',');
      expect(real.get(code!), row).toBe(name);
      expect(code![0]).toBe(state);
      expect(sa1![0]).toBe(state);
    }
    expect(new Set(inputs.suburbs.map((s) => s.remoteness)).size).toBeGreaterThanOrEqual(3);
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
    const { realSals } = await import('../../src/census-input/asgs-reference.ts');
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

  it('gives every suburb a Remoteness Area its state really has; at national scale about the real RA areas', async () => {
    const { buildDemoGeography } = await import('../../src/demo/geography.ts');
    const { realRemotenessAreas } = await import('../../src/census-input/asgs-reference.ts');
    const ras = realRemotenessAreas();
    expect(ras).toHaveLength(35); // classes 0-4 of nine states and territories, as the ABS has them
    expect(ras.find((r) => r.code === '34')).toMatchObject({ name: 'Very Remote Australia', state: 'QLD', cls: 4 });
    expect(ras.filter((r) => r.state === 'TAS').map((r) => r.cls)).toEqual([1, 2, 3, 4]); // no Major Cities
    expect(ras.filter((r) => r.state === 'NT').map((r) => r.cls)).toEqual([2, 3, 4]);
    const has = new Set(ras.map((r) => `${r.state}|${r.cls}`));
    const demo = buildDemoGeography('demo', 2021).suburbs;
    const national = buildDemoGeography('national', 2021).suburbs;
    for (const s of [...demo, ...national]) expect(has.has(`${s.state}|${s.remoteness}`), `${s.absName} ${s.remoteness}`).toBe(true);
    // Outside Greater Darwin the NT is Remote or Very Remote; remote places are never capital-city suburbs.
    for (const s of [...demo, ...national]) {
      if (s.state === 'NT' && s.gccsaCode !== '7GDAR') expect(s.remoteness, s.absName).toBeGreaterThanOrEqual(3);
      if (s.remoteness >= 3) expect(s.gccsaCode, s.absName).toMatch(/^\dR|^9OTER$/);
      if (s.archetype === 'X') expect(s.remoteness, s.absName).toBeGreaterThanOrEqual(3);
    }
    // National: each state's SAL area per class within a few points of the real RA's share of the state.
    for (const st of ['NSW', 'VIC', 'QLD', 'SA', 'WA', 'TAS', 'NT']) {
      const mine = national.filter((s) => s.state === st);
      const total = mine.reduce((a, s) => a + s.areaSqkm, 0);
      const raTotal = ras.filter((r) => r.state === st).reduce((a, r) => a + r.areaSqkm, 0);
      for (const r of ras.filter((x) => x.state === st)) {
        const got = mine.filter((s) => s.remoteness === r.cls).reduce((a, s) => a + s.areaSqkm, 0) / total;
        expect(Math.abs(got - r.areaSqkm / raTotal), `${st} ${r.name}`).toBeLessThan(0.05);
      }
    }
    // About seven in ten persons in Major Cities; a few per cent Remote or Very Remote.
    const persons = (f: (s: (typeof national)[number]) => boolean) => national.filter(f).reduce((a, s) => a + s.persons, 0);
    const all = persons(() => true);
    expect(persons((s) => s.remoteness === 0) / all).toBeGreaterThan(0.6);
    expect(persons((s) => s.remoteness >= 3) / all).toBeGreaterThan(0.01);
    expect(persons((s) => s.remoteness >= 3) / all).toBeLessThan(0.06);
  });

  it("keeps the demo's named places on their real SAL codes, LGAs and postcodes", async () => {
    const { buildDemoGeography } = await import('../../src/demo/geography.ts');
    const { realLgas, realPostcodes } = await import('../../src/census-input/asgs-reference.ts');
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
