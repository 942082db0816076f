/**
 * The console's preview says, for a release sized to an estimated resident population, each
 * place's estimate and its 2021 Census count; for a release sized to the census it says nothing more.
 */
import { describe, expect, it } from 'vitest';
import { previewBody } from '../../../src/http/web/pages/render.ts';
import type { PreviewOutcome } from '../../../src/app/preview.ts';

const preview = (matches: PreviewOutcome['geography_matches']): PreviewOutcome => ({ valid: true, n_observations: 10, credit_cost: 1, pool_available: 1000, geography_matches: matches, warnings: [] });
const text = (p: PreviewOutcome) => String(previewBody('csrf', { geography: 'x' }, p, 'idem', 100, false));

describe('the console\'s preview of a release sized to an estimated resident population', () => {
  it('shows each place\'s estimate and census count', () => {
    const body = text(preview([
      { suburb_id: 'Darwin City', pool_size: 8_000, small_suburb_flag: false, census_count: 7_679, estimated_population: 8_012, quality_url: '/quality/areas/suburb/SAL70073' },
      { suburb_id: '0810', pool_size: 40_000, small_suburb_flag: false, census_count: 38_000, estimated_population: 40_300, quality_url: '/quality/areas/postcode/0810' },
    ]));
    expect(body).toContain('<dt>Population</dt><dd>Darwin City: 8,012 estimated <span class="hint">(2021 Census count 7,679)</span>; 0810: 40,300 estimated');
  });

  it('says nothing of it for a release sized to the census', () => {
    expect(text(preview([{ suburb_id: 'Darwin City', pool_size: 7_679, small_suburb_flag: false, quality_url: '/quality/areas/suburb/SAL70073' }]))).not.toContain('Population');
  });
});
