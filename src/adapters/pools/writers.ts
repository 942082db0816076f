/**
 * The file writer of each output format (the adapter's half of the format registry,
 * src/core/formats.ts): a format without a writer here does not compile. Each takes the same
 * coded batches (export.ts) and the file's dictionary, which it carries inside where the format
 * has a place for it; a format whose registry entry names the dictionary as a companion has it
 * written beside the file by export.ts.
 */
import type { OutputFormat } from '../../core/formats.ts';
import type { ExportRequest } from '../../ports/pool-release.ts';
import type { Catalog } from './catalog.ts';
import { writeCsv, type CsvColumn } from './csv.ts';
import { describeColumns, dictionarySheetRows, measurementOf, type dictionaryOf } from './dictionary.ts';
import { streamedColumns, type FileShape } from './file-shape.ts';
import { writeParquet, type ParquetColumn, type ParquetEncoding } from './parquet.ts';
import { writeXlsx, type XlsxColumn } from './xlsx.ts';

/** The rows in file order, a batch of coded columns at a time (export.ts codedBatches). */
export type CodedBatches = Generator<{ rowCount: number; columns: ArrayLike<number>[] }>;

/** What a writer is given: the file's shape, its rows, its dictionary and the request (destination, metadata). */
export interface FileWrite {
  readonly catalog: Catalog;
  readonly shape: FileShape;
  readonly batches: CodedBatches;
  readonly dictionary: ReturnType<typeof dictionaryOf>;
  readonly request: ExportRequest;
  readonly parquetEncoding?: ParquetEncoding | undefined;
}

export type FileWriter = (write: FileWrite) => Promise<void>;

export const FILE_WRITERS: Readonly<Record<OutputFormat, FileWriter>> = {
  parquet: writeParquetFile,
  csv: writeCsvFile,
  xlsx: writeXlsxFile,
};

async function writeCsvFile({ shape, batches, request }: FileWrite): Promise<void> {
  const columns: CsvColumn[] = streamedColumns(shape);
  await writeCsv({ destPath: request.destPath, columns, batches });
}

/**
 * The parquet file, written from the coded columns (parquet.ts); an ordinal variable's columns
 * (fine and coarse: substantive categories only) are ordered dictionaries, its missing-code
 * column an unordered one; the dictionary in its key-value metadata (and the Arrow schema's).
 */
async function writeParquetFile({ catalog, shape, batches, dictionary, request, parquetEncoding }: FileWrite): Promise<void> {
  const isOrdinal = (c: (typeof shape.fileColumns)[number]) => c.role !== 'missing' && measurementOf(catalog.variables[c.source.dataset][c.source.variable]!) === 'ordinal';
  const ordinal = new Set(shape.fileColumns.filter(isOrdinal).map((c) => c.name));
  const columns: ParquetColumn[] = streamedColumns(shape).map((c) => (c.kind === 'coded' ? { ...c, ordered: ordinal.has(c.name) } : c));
  const keyValue = { ...request.metadata, dictionary: JSON.stringify(dictionary) };
  const rows = shape.parts.reduce((n, p) => n + p.rows.length, 0);
  await writeParquet({ destPath: request.destPath, columns, batches, keyValue, rows, ...(parquetEncoding === undefined ? {} : { encoding: parquetEncoding }) });
}

/** The data sheet, then the dictionary, the columns' meanings and the query metadata as sheets of their own. */
async function writeXlsxFile({ catalog, shape, batches, request }: FileWrite): Promise<void> {
  const columns: XlsxColumn[] = streamedColumns(shape);
  const described = describeColumns(catalog, shape.dataset, shape.fileColumns, shape.parts, request.includeGeography === 'hierarchical');
  await writeXlsx({
    destPath: request.destPath,
    sheetName: shape.dataset,
    columns,
    batches,
    extraSheets: [
      { name: 'dictionary', rows: dictionarySheetRows(catalog, shape.dataset, shape.fileColumns) },
      { name: 'columns', rows: [['name', 'kind', 'description'], ...described.map((c) => [c.name, c.kind, c.description])] },
      { name: 'metadata', rows: [['key', 'value'], ...Object.entries(request.metadata).map(([k, v]) => [k, v])] },
    ],
  });
}
