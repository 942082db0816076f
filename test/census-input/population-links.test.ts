/**
 * What carries an SA2's change to the other levels, read from the files census/2021-gcp ships:
 * each SA2's census count (the SA2 DataPack's G01), the ABS 2021 postcode → SA2 and SA2 → LGA 2022
 * correspondences (csv with the ABS's columns), and each area's SA2 shares through them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { indexInputs } from '../../src/census-input/file-index.ts';
import { areaSa2Shares, loadPopulationLinks, VIA } from '../../src/census-input/population-links.ts';
import type { SuburbGeography } from '../../src/synthesis/census/inputs.ts';

const SHIPPED = fileURLToPath(new URL('../../census/2021-gcp/', import.meta.url));

const area = (level: SuburbGeography['level'], salCode: string, postcode = ''): SuburbGeography => ({
  level, salCode, absName: salCode, name: salCode, suburbId: salCode, state: 'TAS', postcodes: [], lgas: [], postcode, lgaCode: '', lgaName: '', gccsa: '', remoteness: undefined, areaSqkm: 1,
});

describe('the census counts and 2021 correspondences census/2021-gcp ships', () => {
  it('reads every SA2\'s census count and both correspondences, and places each level\'s areas in SA2s', async () => {
    const loaded = await loadPopulationLinks(await indexInputs(SHIPPED));
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.error));
    const links = loaded.value;
    expect(links.notes).toEqual([]);
    // 99 + 134 + 68 spatial SA2s; Hobart's SA2 count is its G01 total.
    expect(links.sa2Census!.size).toBe(301);
    const sum = (list: readonly { ratio: number }[]) => list.reduce((s, l) => s + l.ratio, 0);
    // Postcode 7000 (Hobart) lies in several SA2s, its shares summing to 1.
    const hobart = links.postcodeSa2!.get('7000')!;
    expect(hobart.length).toBeGreaterThan(1);
    expect(sum(hobart)).toBeCloseTo(1, 5);
    const sharesOf = areaSa2Shares(links);
    expect(sharesOf(area('poa', 'POA7000', '7000'))).toEqual({ shares: hobart, via: VIA.postcode2021 });
    expect(sharesOf(area('sa2', '601021003'))).toEqual({ shares: [{ code: '601021003', ratio: 1 }], via: VIA.own });
    // An LGA's SA2s weighted by their people in it: Hobart (LGA62810) has SA2s, the largest weight a whole SA2's count.
    const lga = sharesOf(area('lga', 'LGA62810'));
    expect(lga.via).toBe(VIA.lga2022);
    expect(lga.shares.length).toBeGreaterThan(3);
    for (const s of lga.shares) expect(s.ratio).toBeLessThanOrEqual(links.sa2Census!.get(s.code)! + 1e-9);
  });

  it('names a correspondence whose ratio is not a share', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spq-links-'));
    try {
      await writeFile(join(dir, 'CG_SA2_2021_LGA_2022.csv'), 'SA2_CODE_2021,LGA_CODE_2022,RATIO_FROM_TO\n601021003,62810,1.7\n');
      const loaded = await loadPopulationLinks(await indexInputs(dir));
      expect(loaded.ok ? [] : loaded.error).toEqual([{ file: 'CG_SA2_2021_LGA_2022', row: 2, column: 'RATIO_FROM_TO', message: '"1.7" is not a share from 0 to 1' }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
