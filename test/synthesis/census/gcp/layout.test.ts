import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DESCRIPTORS, DEFAULT_TABLE_LIST, readCellDescriptors, readGcpTables } from '../../../../scripts/gcp-descriptors.ts';
import { LAYOUT_FILE, LONG_HEADERS_FILE, PARTS_FILE, POPULATIONS_FILE, renderLayout, renderPopulations } from '../../../../scripts/gen-gcp-layout.ts';
import { GCP_PART_HEADERS } from '../../../../src/synthesis/census/gcp/layout.generated.ts';
import { gcpPartsOf } from '../../../../src/synthesis/census/gcp/cells.ts';
import { INPUT_TABLES } from '../../../../src/synthesis/census/tables.ts';

const metadata = existsSync(DEFAULT_DESCRIPTORS);
if (!metadata) console.warn(`ABS metadata not found at ${DEFAULT_DESCRIPTORS}: put ../shared beside the checkout to check the generated layout`);

describe('the GCP header map', () => {
  it.skipIf(!metadata)('is exactly what the ABS metadata gives (regenerate with scripts/gen-gcp-layout.ts)', async () => {
    const { layout, longHeaders, parts } = renderLayout(await readCellDescriptors(DEFAULT_DESCRIPTORS));
    expect(readFileSync(LAYOUT_FILE, 'utf8') === layout).toBe(true);
    expect(readFileSync(LONG_HEADERS_FILE, 'utf8') === longHeaders).toBe(true);
    expect(readFileSync(PARTS_FILE, 'utf8') === parts).toBe(true);
    expect(readFileSync(POPULATIONS_FILE, 'utf8') === renderPopulations(await readGcpTables(DEFAULT_TABLE_LIST))).toBe(true);
  });

  it("lists every header the synthesizer reads, in one of its table's real part files", () => {
    const problems: string[] = [];
    for (const spec of INPUT_TABLES) {
      if (spec.files.join() !== gcpPartsOf(spec.id).join()) problems.push(`${spec.id}: parts ${spec.files} vs metadata ${gcpPartsOf(spec.id)}`);
      const real = new Set(spec.files.flatMap((p) => GCP_PART_HEADERS[p] ?? []));
      for (const h of [...spec.cells.map((c) => c.header), ...spec.otherHeaders, ...(spec.totalHeader ? [spec.totalHeader] : [])]) {
        if (!real.has(h)) problems.push(`${spec.id}: ${h}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('has no header twice within a table', () => {
    for (const table of new Set(Object.keys(GCP_PART_HEADERS).map((p) => p.slice(0, 3)))) {
      const all = gcpPartsOf(table).flatMap((p) => GCP_PART_HEADERS[p]!);
      expect(new Set(all).size, table).toBe(all.length);
    }
  });
});
