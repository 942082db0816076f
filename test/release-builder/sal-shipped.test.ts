/**
 * A suburb build from the real inputs the repository ships (census/2021-gcp: the SAL part files,
 * the SA2 and POA packs and the 2016 correspondences cut to Tasmania, the ACT and the NT), as
 * `npm run start:census` builds them, on a few suburbs to keep it short: twenty of the Northern
 * Territory's, Darwin City, three nobody lives in, and Oaks Estate (ACT), whose postcode 2620 the
 * shipped POA pack lacks (the ABS puts it with NSW); asked for LGAs too, which the shipped pack
 * does not hold. Every suburb built or reported with its reason, real links (Darwin City in 0800,
 * Darwin, Greater Darwin), suburbs with no people built and flagged, the postcode and the level
 * the pack lacks lines of the report, nothing aborted (issue 28, "Bad input").
 */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRelease, type BuildSummary } from '../../src/release-builder/build-release.ts';
import { loadCensusInputs } from '../../src/census-input/load-inputs.ts';
import { SOURCE } from '../../src/synthesis/census/own-cells.ts';
import { tableById } from '../../src/synthesis/census/tables.ts';

const SHIPPED = fileURLToPath(new URL('../../census/2021-gcp/', import.meta.url));
const DARWIN_CITY = 'SAL70073';
const OAKS_ESTATE = 'SAL80104';
const FIRST_TWENTY = Array.from({ length: 20 }, (_, i) => `SAL700${String(i + 1).padStart(2, '0')}`);

/** The shipped SAL rows of `keep` (all parts, both states), the NT's and the ACT's SA2 and POA packs, the correspondences, STE and AUS. */
async function subsetInputs(dir: string, keep: ReadonlySet<string>): Promise<void> {
  await mkdir(join(dir, 'SAL'), { recursive: true });
  for (const name of await readdir(join(SHIPPED, 'SAL'))) {
    if (!/_(NT|ACT)_SAL\.csv$/.test(name)) continue;
    const [header, ...rows] = (await readFile(join(SHIPPED, 'SAL', name), 'utf8')).trimEnd().split('\n');
    await writeFile(join(dir, 'SAL', name), [header, ...rows.filter((r) => keep.has(r.slice(0, r.indexOf(','))))].join('\n') + '\n');
  }
  for (const level of ['SA2', 'POA']) {
    await mkdir(join(dir, level));
    for (const name of await readdir(join(SHIPPED, level))) if (/_(NT|ACT)_/.test(name)) await symlink(join(SHIPPED, level, name), join(dir, level, name));
  }
  for (const other of ['STE', 'AUS', 'correspondences']) await symlink(join(SHIPPED, other), join(dir, other));
}

describe('suburbs built from the shipped census inputs (start:census)', () => {
  let root: string;
  let summary: BuildSummary;
  let noPeople: string[];
  const kept = new Set([...FIRST_TWENTY, DARWIN_CITY, OAKS_ESTATE]);

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'spq-sal-shipped-'));
    // Three NT suburbs whose G14 total (its last column) is 0, as the shipped rows have them.
    const g14 = (await readFile(join(SHIPPED, 'SAL', '2021Census_G14_NT_SAL.csv'), 'utf8')).trimEnd().split('\n').slice(1);
    noPeople = g14.filter((r) => r.endsWith(',0')).slice(0, 3).map((r) => r.slice(0, r.indexOf(',')));
    for (const code of noPeople) kept.add(code);
    await subsetInputs(join(root, 'inputs'), kept);
    summary = await buildRelease({ inputsDir: join(root, 'inputs'), poolsDir: join(root, 'pools'), version: 'sal-shipped-test', seed: 3, smallSuburbThreshold: 100, levels: ['sal', 'lga'], threads: 2 });
  }, 900_000);

  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('builds the level the inputs hold and says which they do not', () => {
    expect(summary.levels).toEqual(['sal']);
    expect(summary.input_notes).toContain('lga: the inputs hold no LGA DataPack files (2021Census_<part>_AUST_LGA.csv): this level is not built');
  });

  it('builds every suburb or reports it with its reason, nothing failed', () => {
    expect(noPeople).toHaveLength(3);
    expect(summary.areas.sal! + summary.areas_left_out.length).toBe(kept.size);
    expect(summary.areas.sal).toBeGreaterThanOrEqual(kept.size - 2);
    for (const left of summary.areas_left_out) expect(left.reason.length, left.area).toBeGreaterThan(10);
    expect(summary.areas_failed).toEqual([]);
    expect(summary.structural_violations).toBe(0);
    expect(summary.input_notes.some((n) => new RegExp(`^sal: suburbs: \\d+ of ${kept.size} 2021 suburbs .* matched`).test(n))).toBe(true);
    expect(summary.by_level.sal?.own_tables?.pairs).toBeGreaterThan(0);
  });

  it('a postcode the correspondences name and the shipped POA pack lacks is a line of the report', () => {
    expect(summary.input_notes.some((n) => /^sal: postcodes: \d+ postcodes of the 2016 correspondences are not in the POA pack \(.*2620/.test(n))).toBe(true);
  });

  it('gives real links and builds the suburbs with no people, flagged small', async () => {
    const catalog = JSON.parse(await readFile(join(summary.dir, 'catalog.json'), 'utf8')) as {
      suburbs: { salCode: string; suburbId: string; smallSuburb: boolean; lga: string; gccsa: string; postcode: string; sa2Code?: string }[];
    };
    // With its SA2 (the files' sa2_code and sa2_name), from the correspondences it was built with.
    expect(catalog.suburbs.find((s) => s.salCode === DARWIN_CITY)).toMatchObject({ suburbId: 'Darwin City', postcode: '0800', lga: 'Darwin', gccsa: 'Greater Darwin', sa2Code: '701011002', sa2: 'Darwin City' });
    for (const s of catalog.suburbs) expect(s.sa2Code, s.salCode).toMatch(/^[78]\d{8}$/);
    expect(catalog.suburbs.find((s) => s.salCode === OAKS_ESTATE)).toMatchObject({ postcode: '2620', gccsa: 'Australian Capital Territory' });
    for (const s of catalog.suburbs) expect(s.lga, s.salCode).not.toBe('');
    const empty = summary.report.perSuburb.filter((f) => noPeople.includes(f.salCode));
    expect(empty).toHaveLength(3);
    for (const f of empty) expect(f).toMatchObject({ persons: 0, small: true });
  });

  it("a suburb's own published figures bind its tables taken from parents (issue 39)", async () => {
    const loaded = await loadCensusInputs(join(root, 'inputs'), undefined, { level: 'sal' });
    if (!loaded.ok) throw new Error(loaded.error.map((e) => e.message).join('; '));
    const inputs = loaded.value;
    const G01 = tableById('G01');
    const G04 = tableById('G04');
    const at = (spec: typeof G01, id: string, code: string, header: string) => {
      const i = spec.cells.findIndex((c) => c.header === header);
      return i >= 0 ? inputs.tables.get(id)!.get(code)![i]! : inputs.aggregates.get(id)!.get(code)![spec.otherHeaders.indexOf(header)]!;
    };
    // Darwin City's G01 (not in the SAL pack) takes its ages from 55 and its persons by sex from its own G04B.
    expect(at(G01, 'G01', DARWIN_CITY, 'Age_55_64_yr_M')).toBe(at(G04, 'G04', DARWIN_CITY, 'Age_yr_55_59_M') + at(G04, 'G04', DARWIN_CITY, 'Age_yr_60_64_M'));
    expect(at(G01, 'G01', DARWIN_CITY, 'Tot_P_F')).toBe(at(G04, 'G04', DARWIN_CITY, 'Tot_F'));
    // G04's single years under 55 (from parents) add up, with its own years from 55, to its own total per sex,
    // within what its own figures' perturbation lets them (G17C's own persons by age bind the same years: 3,808 against 3,806).
    const males = G04.cells.reduce((a, c, i) => a + (c.where['SEXP']![0] === 0 ? inputs.tables.get('G04')!.get(DARWIN_CITY)![i]! : 0), 0);
    expect(Math.abs(males - at(G04, 'G04', DARWIN_CITY, 'Tot_M'))).toBeLessThanOrEqual(3);
    expect(inputs.figureSources?.get('G04')?.cells.filter((v) => v === SOURCE.own).length).toBe(58);
    expect(summary.input_notes.some((n) => n.startsWith('sal: G01: cells 0 own, 2 bound'))).toBe(true);
    // The fit on own cells and on targets taken from parents, apart.
    expect(summary.by_level.sal?.own_cells?.pairs).toBeGreaterThan(0);
    expect(summary.by_level.sal?.derived_targets?.pairs).toBeGreaterThan(0);
    expect(Object.keys(summary.by_level.sal?.own_tables?.by_band ?? {})).toEqual(['<500', '500-4999', '5000+']);
  });
});
