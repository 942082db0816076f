import { describe, expect, it } from 'vitest';
import { columnsRead, columnsReadLine, renderReport, summariseReport } from '../../src/build/report.ts';
import { GCP_PART_HEADERS } from '../../src/core/census/gcp/layout.generated.ts';
import { INPUT_TABLES } from '../../src/core/census/tables.ts';

describe('the build report', () => {
  it('says which real DataPack columns each input table reads, out of how many its part files have', () => {
    const read = columnsRead();
    expect(read.map((t) => t.tableId)).toEqual(INPUT_TABLES.map((t) => t.id));
    const g46 = read.find((t) => t.tableId === 'G46')!;
    expect(g46.parts).toEqual(['G46A', 'G46B']);
    expect(g46.columns).toBe(360);
    expect(g46.fitted).toHaveLength(16);
    expect(g46.readOnly).toHaveLength(20);
    expect(g46.readOnly).toContain('P_Tot_Tot');
    for (const t of read) {
      const real = new Set(t.parts.flatMap((p) => GCP_PART_HEADERS[p]!));
      expect(t.columns).toBe(real.size);
      expect(new Set([...t.fitted, ...t.readOnly]).size, t.tableId).toBe(t.fitted.length + t.readOnly.length);
      for (const h of [...t.fitted, ...t.readOnly]) expect(real.has(h), `${t.tableId} ${h}`).toBe(true);
    }
  });

  it('carries the columns read in the JSON report as data, and prints one short line per table', () => {
    const report = summariseReport('v-test', [], []);
    const json = JSON.parse(JSON.stringify(report)) as typeof report;
    expect(json.columnsRead).toEqual(columnsRead());
    expect(json.columnsRead.find((t) => t.tableId === 'G17')).toMatchObject({ parts: ['G17A', 'G17B', 'G17C'], columns: 510 });
    const text = renderReport(report, 1);
    const read = columnsRead();
    const fitted = read.reduce((n, t) => n + t.fitted.length, 0);
    const totals = read.reduce((n, t) => n + t.readOnly.length, 0);
    const columns = read.reduce((n, t) => n + t.columns, 0);
    expect(text).toContain(`DataPack columns read: ${fitted + totals} of ${columns} in ${read.length} tables`);
    expect(text).toContain('\n  G46: 36 of 360 columns read (G46A, G46B): 16 fitted, 20 totals\n');
    for (const t of read) expect(text).toContain(columnsReadLine(t));
  });
});
