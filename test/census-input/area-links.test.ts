/**
 * Postal areas and SA2s built from their own tables name their real LGAs, GCCSA and largest
 * suburbs (from the suburbs' links the ABS correspondences give, reference/sal-links-2021.csv):
 * no empty `lga` or `gccsa`, on the real inputs the repository ships (census/2021-gcp).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCensusInputs } from '../../src/census-input/load-inputs.ts';

const SHIPPED = fileURLToPath(new URL('../../census/2021-gcp/', import.meta.url));

describe('links of postal areas and SA2s', () => {
  it('a postal area names its LGAs, GCCSA and largest suburbs', async () => {
    const loaded = await loadCensusInputs(SHIPPED, undefined, { level: 'poa' });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.error.slice(0, 3)));
    const hobart = loaded.value.suburbs.find((s) => s.suburbId === '7000')!;
    expect(hobart).toMatchObject({ lgaName: 'Hobart', lgaCode: 'LGA62810', gccsa: 'Greater Hobart' });
    expect(hobart.largestSuburbs?.slice(0, 2)).toEqual(['West Hobart', 'Hobart']);
    expect(loaded.value.suburbs.find((s) => s.suburbId === '0800')).toMatchObject({ lgaName: 'Darwin', gccsa: 'Greater Darwin', largestSuburbs: ['Darwin City'] });
    // 7139 (Strathgordon, a locality new in 2021) is the one postal area here no linked suburb lies in: it stays unlinked, not guessed.
    expect(loaded.value.suburbs.filter((s) => s.lgaName === '' || s.gccsa === '').map((s) => s.suburbId)).toEqual(['7139']);
  }, 120_000);

  it('an SA2 names its GCCSA (from its SA4), LGAs, postcodes and largest suburbs', async () => {
    const loaded = await loadCensusInputs(SHIPPED, undefined, { level: 'sa2' });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.error.slice(0, 3)));
    const bellerive = loaded.value.suburbs.find((s) => s.salCode === '601021004')!;
    expect(bellerive).toMatchObject({ lgaName: 'Clarence', gccsa: 'Greater Hobart', postcode: '7018' });
    expect(bellerive.largestSuburbs?.[0]).toBe('Bellerive');
    for (const s of loaded.value.suburbs) expect(s.gccsa, s.suburbId).not.toBe('');
  }, 120_000);
});
