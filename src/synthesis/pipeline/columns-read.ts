/**
 * Which DataPack columns a build reads, per input table: what the report lists, from the table
 * specs against the ABS layout's own headers.
 */
import { INPUT_TABLES } from '../census/tables.ts';
import { GCP_PART_HEADERS } from '../census/gcp/layout.generated.ts';

/** Which real DataPack columns a build reads, per input table. */
export interface TableColumnsRead {
  readonly tableId: string;
  readonly parts: readonly string[];
  /** Columns the part files have (the ABS metadata's count). */
  readonly columns: number;
  /** Columns fitted cell by cell. */
  readonly fitted: readonly string[];
  /** Totals and subtotals read but not fitted (anchors, remainders). */
  readonly readOnly: readonly string[];
}

/** The real columns every input table's spec reads (src/synthesis/census/tables.ts), against the part files' own. */
export function columnsRead(): TableColumnsRead[] {
  return INPUT_TABLES.map((spec) => ({
    tableId: spec.id,
    parts: spec.files,
    columns: spec.files.reduce((n, part) => n + (GCP_PART_HEADERS[part]?.length ?? 0), 0),
    fitted: spec.cells.map((c) => c.header),
    readOnly: spec.otherHeaders,
  }));
}

/** "G46: 36 of 360 columns read (G46A, G46B): 16 fitted, 20 totals". */
export const columnsReadLine = (t: TableColumnsRead): string =>
  `${t.tableId}: ${t.fitted.length + t.readOnly.length} of ${t.columns} columns read (${t.parts.join(', ')}): ${t.fitted.length} fitted, ${t.readOnly.length} totals`;

