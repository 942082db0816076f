import type { DatasetType } from '../core/dataset.ts';
import { COMPANION_FILES, formatOfExtension, hasDictionaryBeside, HOUSEHOLD_FILE, OUTPUT_FORMAT_SPECS, type OutputFormat } from '../core/formats.ts';

/** The store key of a query's result file. */
export const resultFileKey = (queryId: string, format: OutputFormat): string => `${queryId}.${OUTPUT_FORMAT_SPECS[format].extension}`;

/** The file name a client saves: names the query and what it holds. */
export const resultFileName = (queryId: string, dataset: DatasetType, format: OutputFormat): string =>
  `spq-${queryId}-${dataset}.${OUTPUT_FORMAT_SPECS[format].extension}`;

/** A household sample (linked_records "household"): one zip of the dwellings, families and persons files. */
export const householdFileKey = (queryId: string): string => `${queryId}.${HOUSEHOLD_FILE.extension}`;
export const householdFileName = (queryId: string): string => `spq-${queryId}-household.${HOUSEHOLD_FILE.extension}`;

/** A sandbox query's files say so in their names too ("…-persons-TEST-DATA.csv"): a csv has no other place for it. */
const marked = (name: string, testData: boolean): string => (testData ? name.replace(/(\.[a-z]+)$/, '-TEST-DATA$1') : name);

/** The name a stored result downloads under: a household zip's, or the single file's. */
export function downloadNameOf(queryId: string, dataset: DatasetType, fileKey: string | null, format: OutputFormat, testData = false): string {
  return marked(fileKey?.endsWith(`.${HOUSEHOLD_FILE.extension}`) ? householdFileName(queryId) : resultFileName(queryId, dataset, format), testData);
}

/** A dictionary beside the result (codes, descriptions, labels and the query metadata), for a format with no place for it inside. */
const DICTIONARY = COMPANION_FILES.dictionary;
export const dictionaryFileKey = (queryId: string): string => `${queryId}.${DICTIONARY.suffix}.${DICTIONARY.extension}`;
export const dictionaryFileName = (queryId: string, dataset: DatasetType, testData = false): string => marked(`spq-${queryId}-${dataset}-${DICTIONARY.suffix}.${DICTIONARY.extension}`, testData);

/** The dictionary's signed link of a single-file result whose format has it beside (a household zip holds its own). */
export const hasDictionaryLink = (format: OutputFormat, household: boolean): boolean => !household && hasDictionaryBeside(format);

export function formatOfFileName(name: string): OutputFormat | undefined {
  return formatOfExtension(name.slice(name.lastIndexOf('.') + 1).toLowerCase());
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
