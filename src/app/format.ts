import type { DatasetType, OutputFormat } from '../core/dataset.ts';

export const CONTENT_TYPES: Readonly<Record<OutputFormat, string>> = {
  parquet: 'application/vnd.apache.parquet',
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The store key of a query's result file. */
export const resultFileKey = (queryId: string, format: OutputFormat): string => `${queryId}.${format}`;

/** The file name a client saves: names the query and what it holds. */
export const resultFileName = (queryId: string, dataset: DatasetType, format: OutputFormat): string =>
  `spq-${queryId}-${dataset}.${format}`;

/** A household sample (linked_records "household"): one zip of the dwellings, families and persons files. */
export const HOUSEHOLD_CONTENT_TYPE = 'application/zip';
export const householdFileKey = (queryId: string): string => `${queryId}.zip`;
export const householdFileName = (queryId: string): string => `spq-${queryId}-household.zip`;

/** The name a stored result downloads under: a household zip's, or the single file's. */
/** A sandbox query's files say so in their names too ("…-persons-TEST-DATA.csv"): a csv has no other place for it. */
const marked = (name: string, testData: boolean): string => (testData ? name.replace(/(\.[a-z]+)$/, '-TEST-DATA$1') : name);

export function downloadNameOf(queryId: string, dataset: DatasetType, fileKey: string | null, format: OutputFormat, testData = false): string {
  return marked(fileKey?.endsWith('.zip') ? householdFileName(queryId) : resultFileName(queryId, dataset, format), testData);
}

/** A csv result's dictionary (codes, descriptions, labels and the query metadata) is a second file beside it. */
export const dictionaryFileKey = (queryId: string): string => `${queryId}.dictionary.json`;
export const dictionaryFileName = (queryId: string, dataset: DatasetType, testData = false): string => marked(`spq-${queryId}-${dataset}-dictionary.json`, testData);
export const DICTIONARY_CONTENT_TYPE = 'application/json; charset=utf-8';


export function formatOfFileName(name: string): OutputFormat | undefined {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return ext === 'parquet' || ext === 'csv' || ext === 'xlsx' ? ext : undefined;
}

/**
 * ISO 8601 with the zone's offset, e.g. "2026-11-23T00:00:00+11:00" for Australia/Sydney, so a
 * client sees the reset as the local Monday midnight it is.
 */
const zoneFormatters = new Map<string, Intl.DateTimeFormat>();

export function isoInZone(date: Date, timeZone: string): string {
  let formatter = zoneFormatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    });
    zoneFormatters.set(timeZone, formatter); // building one costs far more than using it
  }
  const parts = Object.fromEntries(formatter.formatToParts(date).map((p) => [p.type, p.value]));
  const offset = String(parts.timeZoneName).replace('GMT', '') || '+00:00';
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}
