import type { CellSpec } from '../table-spec.ts';
import { GCP_PART_HEADERS } from './layout.generated.ts';
import { GCP_PART_LONG_HEADERS } from './long-headers.generated.ts';
import { splitLongHeader, type LongHeaderParts } from './long-header.ts';
import { andWhere, readRest, type TableVocabulary, type Where } from './vocabulary.ts';
import { GCP_VOCABULARIES } from './vocabularies/index.ts';

/** One column of a real DataPack part file. */
export interface GcpColumn {
  readonly part: string;
  /** The short header (the file's column name). */
  readonly header: string;
  readonly long: string;
  readonly parts: LongHeaderParts;
  /** What the column counts in our variables, when the table's vocabulary reads all of it. */
  readonly cell?: CellSpec;
}

export const gcpTableOf = (part: string): string => part.slice(0, 3);

/** The real part files of a table, in order (e.g. G04 → G04A, G04B). */
export function gcpPartsOf(table: string): string[] {
  return Object.keys(GCP_PART_HEADERS).filter((p) => gcpTableOf(p) === table);
}

export function gcpVocabulary(table: string): TableVocabulary | undefined {
  return GCP_VOCABULARIES.get(table);
}

const SEX_WHERE: Readonly<Record<string, Where>> = { M: { SEXP: [0] }, F: { SEXP: [1] }, P: {} };

/** The definition of one column from its long header and the table's vocabulary, if it reads. */
export function defineColumn(vocabulary: TableVocabulary, header: string, parts: LongHeaderParts): CellSpec | undefined {
  if (vocabulary.populationNotExpressible) return undefined;
  const restWhere = readRest(vocabulary, parts.rest);
  if (!restWhere) return undefined;
  let where: Where = andWhere(vocabulary.where ?? {}, restWhere);
  let count: CellSpec['count'];
  if (vocabulary.universe === 'persons') {
    if (parts.sex) where = andWhere(where, SEX_WHERE[parts.sex]!);
  } else {
    if (parts.age) return undefined; // family/dwelling tables carry no person ages here
    count = parts.sex === 'P' ? 'members' : undefined;
  }
  let age: readonly [number, number] | undefined;
  if (vocabulary.universe === 'persons') {
    const [lo, hi] = vocabulary.ages ?? [0, 115];
    const [a, b] = parts.age ?? [lo, hi];
    age = lo === 0 && hi === 115 && !parts.age ? undefined : [Math.max(a, lo), Math.min(b, hi)];
  }
  return { header, where, ...(age ? { age } : {}), ...(count ? { count } : {}) };
}

const COLUMNS = new Map<string, readonly GcpColumn[]>();

/** Every column of a part file, in file order, with its definition where the vocabulary reads it. */
export function gcpColumns(part: string): readonly GcpColumn[] {
  let cols = COLUMNS.get(part);
  if (cols) return cols;
  const headers = GCP_PART_HEADERS[part];
  const longs = GCP_PART_LONG_HEADERS[part];
  if (!headers || !longs) throw new Error(`unknown DataPack part ${part}`);
  const vocabulary = gcpVocabulary(gcpTableOf(part));
  cols = headers.map((header, i) => {
    const long = longs[i]!;
    const parts = splitLongHeader(long);
    const cell = vocabulary ? defineColumn(vocabulary, header, parts) : undefined;
    return { part, header, long, parts, ...(cell ? { cell } : {}) };
  });
  COLUMNS.set(part, cols);
  return cols;
}
