import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readCsvRows } from '../src/census-input/csv.ts';

/** Where the ABS metadata sits when ../shared is beside the checkout. */
export const DEFAULT_DESCRIPTORS = fileURLToPath(new URL('../../shared/abs/2021-gcp/gcp-cell-descriptors.csv', import.meta.url));

/** The ABS list of GCP tables with each one's population (who is counted), beside the descriptors. */
export const DEFAULT_TABLE_LIST = fileURLToPath(new URL('../../shared/abs/2021-gcp/gcp-tables.csv', import.meta.url));

export interface CellDescriptor {
  readonly sequential: string;
  readonly shortHeader: string;
  readonly longHeader: string;
  readonly datapackFile: string;
  readonly columnHeading: string;
}

export async function readCellDescriptors(path: string): Promise<CellDescriptor[]> {
  readFileSync(path); // fail early and clearly when ../shared is missing
  const out: CellDescriptor[] = [];
  for await (const { row, fields } of readCsvRows(path)) {
    if (row === 1) continue;
    const [sequential, shortHeader, longHeader, datapackFile, , columnHeading] = fields.map((f) => f.trim());
    out.push({ sequential: sequential!, shortHeader: shortHeader!, longHeader: longHeader!, datapackFile: datapackFile!.toUpperCase(), columnHeading: columnHeading ?? '' });
  }
  return out;
}

export interface GcpTableDescriptor {
  readonly table: string;
  readonly name: string;
  /** Who the table counts, as the metadata words it ("Persons in occupied private dwellings"). */
  readonly population: string;
}

/** The metadata's table list (gcp-tables.csv: table, name, population). */
export async function readGcpTables(path: string): Promise<GcpTableDescriptor[]> {
  readFileSync(path);
  const out: GcpTableDescriptor[] = [];
  for await (const { row, fields } of readCsvRows(path)) {
    if (row === 1) continue;
    const [table, name, population] = fields.map((f) => f.trim());
    out.push({ table: table!, name: name ?? '', population: population ?? '' });
  }
  return out;
}
