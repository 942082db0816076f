/**
 * The real ABS 2016 correspondences in ../shared/abs (xlsx, data in "Table 3" under ABS title
 * rows) as a suburb build reads them: 2021's suburbs matched by name and state, linked to their
 * real postcodes, LGAs, SA2s and GCCSA; what cannot be linked, and areas the pack lacks, are
 * report lines, never an abort or a guess. Skips, saying so, when ../shared is not beside the checkout.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { realSals } from '../../src/census-input/asgs-reference.ts';
import { CORRESPONDENCES_2016, loadSuburbs2016, readCorrespondence, type Suburbs2016 } from '../../src/census-input/correspondences-2016.ts';
import { indexFiles } from '../../src/census-input/file-index.ts';
import { linkSuburbs2016, type SalLinks } from '../../src/census-input/sal-links.ts';
import { realSalLinks } from '../../src/census-input/sal-links-reference.ts';

const DIR = fileURLToPath(new URL('../../../shared/abs/asgs-2016-correspondences/', import.meta.url));
/** The same workbooks cut to Tasmania's, the ACT's and the NT's rows (scripts/extract-correspondences.ts), for `npm run start:census`. */
const SHIPPED = fileURLToPath(new URL('../../census/2021-gcp/correspondences/', import.meta.url));
const present = existsSync(DIR);
if (!present) console.warn(`skipping the real correspondence tests: ${DIR} is absent`);

describe.skipIf(!present)('the real ABS 2016 correspondences', () => {
  let old: Suburbs2016;
  let links: SalLinks;
  const byCode = (code: string) => links.suburbs.find((s) => s.salCode === code)!;

  beforeAll(async () => {
    const loaded = await loadSuburbs2016(await indexFiles(DIR));
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.error));
    old = loaded.value;
    links = linkSuburbs2016(realSals(), old, {});
  }, 300_000);

  it('reads Table 3 under the title rows, up to the copyright footer', async () => {
    const rows = await readCorrespondence(await indexFiles(DIR), CORRESPONDENCES_2016.sscSa2);
    expect(rows.ok).toBe(true);
    if (!rows.ok) return;
    expect(rows.value[0]).toEqual({ from: '10001', fromName: 'Aarons Pass', to: '103031073', toName: 'Mudgee Region - East', ratio: 1, extra: '' });
    expect(rows.value.every((r) => /^\d+$/.test(r.from) && r.ratio >= 0 && r.ratio <= 1)).toBe(true);
  });

  it('links real suburbs to their real principal postcode, LGA and GCCSA', () => {
    expect(byCode('SAL22170')).toMatchObject({ suburbId: 'Richmond (VIC)', postcode: '3121', lgaName: 'Yarra', lgaCode: 'LGA27350', gccsa: 'Greater Melbourne' });
    expect(links.suburbs.find((s) => s.absName === 'Fitzroy (Vic.)')).toMatchObject({ postcode: '3065', lgaName: 'Yarra' });
    expect(links.suburbs.find((s) => s.absName === 'Darwin City')).toMatchObject({ postcode: '0800', lgaName: 'Darwin', gccsa: 'Greater Darwin' });
    for (const s of links.suburbs) {
      expect(s.lgaName).not.toBe('');
      expect(s.gccsa).not.toBe('');
      expect(s.postcodes.reduce((a, p) => a + p.ratio, 0)).toBeCloseTo(1, 4);
    }
  });

  it('matches over 99% of 2021 suburbs and reports every one it leaves out with its reason', () => {
    const sals = realSals();
    expect(links.notes[0]).toMatch(/^suburbs: 15200 of 15334 2021 suburbs \(99\.1%\) matched/);
    expect(links.suburbs.length + links.leftOut.length).toBe(sals.length);
    const springvale = links.leftOut.find((l) => l.area.startsWith('Springvale (NSW)'));
    expect(springvale?.reason).toMatch(/matches 2 2016 suburbs .* not guessed/);
    expect(links.notes.some((n) => n.startsWith('suburb Springvale (NSW)'))).toBe(true);
  });

  it('a correspondence naming areas the pack lacks is a report line, and those parents are left out', () => {
    const richmondSa2s = old.sa2s.get([...old.names].find(([, n]) => n === 'Richmond (Vic.)')![0])!.map((s) => s.code);
    const partial = linkSuburbs2016(
      realSals().filter((s) => s.state === 'VIC'),
      old,
      { sa2: new Set<string>(), poa: new Set(['3121']) },
    );
    expect(partial.notes.some((n) => /^SA2s: \d+ SA2s of 2016 .* have no 2021 SA2/.test(n) && n.includes('take that share of their tables from their postcodes'))).toBe(true);
    expect(partial.notes.some((n) => /^postcodes: \d+ postcodes of the 2016 correspondences are not in the POA pack/.test(n))).toBe(true);
    expect(partial.suburbs.find((s) => s.salCode === 'SAL22170')!.sa2s).toEqual([]);
    expect(richmondSa2s.length).toBeGreaterThan(0);
  });

  it('the shipped links file is what the correspondences give (scripts/gen-sal-links.ts)', () => {
    const shipped = realSalLinks();
    for (const code of ['SAL22170', 'SAL20945', 'SAL70073']) {
      const s = byCode(code);
      expect(shipped.get(code)?.postcodes[0]?.code).toBe(s.postcode);
      expect(shipped.get(code)?.lgas[0]).toMatchObject({ code: s.lgaCode, name: s.lgaName });
      expect(shipped.get(code)?.gccsa).toBe(s.gccsa);
    }
  });

  it('the shipped correspondences hold the three states\' rows of every map and link their suburbs as the whole files do', async () => {
    const loaded = await loadSuburbs2016(await indexFiles(SHIPPED));
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.error));
    const shipped = loaded.value;
    // SA1, SA2 and 2016 suburb codes begin with their state's digit: 6 Tasmania, 7 the NT, 8 the ACT.
    const ofStates = (map: ReadonlyMap<string, unknown>) => new Map([...map].filter(([code]) => /^[678]/.test(code)));
    for (const key of ['names', 'sa2s', 'sa1Ssc', 'sa1Poa', 'sa1Lga', 'localityPostcodes', 'sa2Lga'] as const) {
      expect(shipped[key].size, key).toBeGreaterThan(0);
      expect(shipped[key], key).toEqual(ofStates(old[key]));
    }
    const sals = realSals().filter((s) => ['TAS', 'ACT', 'NT'].includes(s.state));
    const fromShipped = linkSuburbs2016(sals, shipped, {});
    const fromWhole = linkSuburbs2016(sals, old, {});
    expect(fromShipped.suburbs.length).toBeGreaterThan(1150);
    expect(fromShipped.suburbs).toEqual(fromWhole.suburbs);
    expect(fromShipped.leftOut).toEqual(fromWhole.leftOut);
  }, 120_000);

  it('a file that is not a workbook is an error naming it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spq-corr-'));
    try {
      await writeFile(join(dir, CORRESPONDENCES_2016.sscSa2.file), 'not a workbook');
      const read = await readCorrespondence(await indexFiles(dir), CORRESPONDENCES_2016.sscSa2);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.error).toMatchObject({ file: 'CG_SSC_2016_SA2_2016.xlsx', message: expect.stringMatching(/not a readable xlsx workbook/) });
      const missing = await loadSuburbs2016(await indexFiles(dir));
      expect(missing.ok).toBe(false);
      if (!missing.ok) expect(missing.error.map((e) => e.file)).toEqual(expect.arrayContaining(['CG_SA1_2016_SSC_2016.xlsx', 'CG_SA1_2016_POA_2016.xlsx', 'CG_SA1_2016_LGA_2018.xlsx']));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
