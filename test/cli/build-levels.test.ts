import { describe, expect, it } from 'vitest';
import { levelLines } from '../../src/cli/commands/build.ts';
import type { BuildSummary } from '../../src/release-builder/build-release.ts';

type Figures = NonNullable<BuildSummary['by_level']['sa2']>;
const figures = (areas: number, median: number, band: number | null): Figures => ({
  areas, persons: areas * 1000, families: 0, dwellings: 0, srmse_median: median, srmse_p95: null, srmse_by_table: {},
  srmse_by_band: { '<500': { median: null, p95: null, pairs: 0 }, '500-4999': { median: null, p95: null, pairs: 0 }, '5000+': { median: band, p95: null, pairs: 1 } },
  truth_srmse_median: null, structural_violations: 0, totals_mismatched: 0, areas_failed: [{ area: 'x', reason: 'y' }], cells_not_published: { estimated: 0, structural: 0 }, own_tables: null,
});

describe('spq build, several levels', () => {
  it('prints one line of figures per level, finest first; nothing for one level', () => {
    const by_level = { sa2: figures(301, 0.0194, 0.0131), poa: figures(174, 0.0225, null) };
    expect(levelLines({ levels: ['sa2', 'poa'], by_level }).split('\n')).toEqual([
      'sa2: 301 areas, 301000 persons, SRMSE median 0.0194 (areas of 5,000+ persons 0.0131), 0 structural violations, 1 areas failed',
      'poa: 174 areas, 174000 persons, SRMSE median 0.0225 (areas of 5,000+ persons n/a), 0 structural violations, 1 areas failed',
      '',
    ]);
    expect(levelLines({ levels: ['sa2'], by_level: { sa2: by_level.sa2 } })).toBe('');
  });
});
