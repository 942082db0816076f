import { describe, expect, it } from 'vitest';
import { columnsRead, renderReport, summariseReport } from '../../src/build/report.ts';
import { GCP_PART_HEADERS } from '../../src/core/census/gcp/layout.generated.ts';

describe('the build report', () => {
  it('says which real DataPack columns each input table reads, out of how many its part files have', () => {
    const read = columnsRead();
    const g46 = read.find((t) => t.tableId === 'G46')!;
    expect(g46.parts).toEqual(['G46A', 'G46B']);
    expect(g46.columns).toBe(360);
    expect(g46.fitted.length + g46.readOnly.length).toBeGreaterThanOrEqual(36);
    for (const t of read) {
      const real = new Set(t.parts.flatMap((p) => GCP_PART_HEADERS[p]!));
      expect(t.columns).toBe(real.size);
      for (const h of [...t.fitted, ...t.readOnly]) expect(real.has(h), `${t.tableId} ${h}`).toBe(true);
    }
  });

  it('prints the columns read in its readable summary and carries them in the JSON', () => {
    const report = summariseReport('v-test', [], []);
    expect(report.columnsRead).toEqual(columnsRead());
    const text = renderReport(report, 1);
    expect(text).toMatch(/columns read: \d+ of \d+ in \d+ tables/);
    expect(text).toMatch(/G46 \d+\+\d+\/360/);
  });
});
