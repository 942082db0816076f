/**
 * The output formats, and everything the service knows of one, in one registry: a new format is
 * a name in OUTPUT_FORMATS and its entry here (the compiler asks for both, and for its writer in
 * src/adapters/pools/writers.ts). The request schema's enum (and so the OpenAPI document and the
 * clients' types), file keys and names, content types, the row cap and the companion files are
 * derived from it; the files a download link may also name (a household zip, a dictionary) are
 * described beside it.
 */

export const OUTPUT_FORMATS = ['parquet', 'csv', 'xlsx'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** A kind of file a download link serves. */
export interface ServedFile {
  /** The file name's extension, without the dot. */
  readonly extension: string;
  /** The Content-Type it is served with. */
  readonly contentType: string;
  /** Text the file store also holds compressed (zstd, gzip); parquet, xlsx and zip are compressed already. */
  readonly compressible: boolean;
}

export interface OutputFormatSpec extends ServedFile {
  /** The most records one file holds, and what holds them (for the refusal); absent: only the server's per-execute limit. */
  readonly maxRows?: { readonly rows: number; readonly holder: string };
  /**
   * The files served beside the result. A format with no place for the dictionary (codes,
   * labels, the query metadata) has it as a file of its own; parquet and xlsx carry it inside.
   */
  readonly companions: readonly Companion[];
}

export const OUTPUT_FORMAT_SPECS: Readonly<Record<OutputFormat, OutputFormatSpec>> = {
  parquet: { extension: 'parquet', contentType: 'application/vnd.apache.parquet', compressible: false, companions: [] },
  csv: { extension: 'csv', contentType: 'text/csv; charset=utf-8', compressible: true, companions: ['dictionary'] },
  // Excel's sheet limit: 1,048,576 rows, one of them the header.
  xlsx: {
    extension: 'xlsx',
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    compressible: false,
    maxRows: { rows: 1_048_575, holder: 'an xlsx sheet' },
    companions: [],
  },
};

/** A file served beside a result: today the dictionary of a format that cannot hold it. */
export type Companion = 'dictionary';

export const COMPANION_FILES: Readonly<Record<Companion, ServedFile & { readonly suffix: string }>> = {
  dictionary: { suffix: 'dictionary', extension: 'json', contentType: 'application/json; charset=utf-8', compressible: true },
};

/** A household sample (linked_records "household"): the dwellings, families and persons files in one zip. */
export const HOUSEHOLD_FILE: ServedFile = { extension: 'zip', contentType: 'application/zip', compressible: false };

/** Every kind of file a download link serves: each format's result, the household zip, the companions. */
export const SERVED_FILES: readonly ServedFile[] = [...OUTPUT_FORMATS.map((f) => OUTPUT_FORMAT_SPECS[f]), HOUSEHOLD_FILE, ...Object.values(COMPANION_FILES)];

/** The format whose files carry this extension (without the dot), if any. */
export const formatOfExtension = (extension: string): OutputFormat | undefined => OUTPUT_FORMATS.find((f) => OUTPUT_FORMAT_SPECS[f].extension === extension);

/** Whether the format's dictionary is a companion file (it has no place for it inside). */
export const hasDictionaryBeside = (format: OutputFormat): boolean => OUTPUT_FORMAT_SPECS[format].companions.includes('dictionary');

/** The formats whose dictionary is a file beside the result (csv). */
export const DICTIONARY_BESIDE_FORMATS: readonly OutputFormat[] = OUTPUT_FORMATS.filter(hasDictionaryBeside);

/** Words as a reader lists them: "parquet, csv or xlsx" (with `and`: "csv and tsv"). */
export const listed = (words: readonly string[], conjunction: 'or' | 'and' = 'or'): string =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}`;

/** A companion's file name beside a result's: "spq-….csv" → "spq-…-dictionary.json". */
export const companionNameOf = (resultName: string, companion: Companion): string =>
  `${resultName.slice(0, resultName.lastIndexOf('.'))}-${COMPANION_FILES[companion].suffix}.${COMPANION_FILES[companion].extension}`;

/** A media type without its parameters, lower case ("text/csv; charset=utf-8" → "text/csv"). */
export const mediaTypeOf = (contentType: string): string => contentType.split(';')[0]!.trim().toLowerCase();
