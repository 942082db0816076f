/**
 * The output-format registry (src/core/formats.ts) drives every piece a format needs: each format
 * has a writer, a file name and store key the download link maps back to it, a content type the
 * download route declares and the store compresses as the registry says, a place in the
 * request's enum (and so in the OpenAPI document and the clients' types), and its row cap.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FILE_WRITERS } from '../../src/adapters/pools/writers.ts';
import { dictionaryFileName, formatOfFileName, hasDictionaryLink, resultFileKey, resultFileName } from '../../src/app/format.ts';
import { validateQuery } from '../../src/app/query-validation.ts';
import { DATASET_TYPES } from '../../src/core/dataset.ts';
import { COMPANION_FILES, companionNameOf, formatOfExtension, HOUSEHOLD_FILE, mediaTypeOf, OUTPUT_FORMAT_SPECS, OUTPUT_FORMATS, SERVED_FILES } from '../../src/core/formats.ts';
import { served } from '../../src/http/routes/downloads/file.ts';
import { isCompressible } from '../../src/ports/file-store.ts';
import type { PoolRelease } from '../../src/ports/pool-release.ts';
import { OPENAPI_PATH } from '../../scripts/export-openapi.ts';

interface OpenApi {
  readonly paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
  readonly components: { readonly schemas: Record<string, { properties: Record<string, { enum?: string[] }> }> };
}
const openapi = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as OpenApi;

describe('the output-format registry', () => {
  it('names each format once, with an extension no other format has', () => {
    expect(new Set(OUTPUT_FORMATS).size).toBe(OUTPUT_FORMATS.length);
    expect(new Set(OUTPUT_FORMATS.map((f) => OUTPUT_FORMAT_SPECS[f].extension)).size).toBe(OUTPUT_FORMATS.length);
    expect(Object.keys(OUTPUT_FORMAT_SPECS).sort()).toEqual([...OUTPUT_FORMATS].sort());
  });

  it('has a writer for every format and none for a format it does not list', () => {
    expect(Object.keys(FILE_WRITERS).sort()).toEqual([...OUTPUT_FORMATS].sort());
    for (const format of OUTPUT_FORMATS) expect(typeof FILE_WRITERS[format]).toBe('function');
  });

  it.each(OUTPUT_FORMATS)('%s: its file name and store key map back to it', (format) => {
    const { extension } = OUTPUT_FORMAT_SPECS[format];
    expect(formatOfExtension(extension)).toBe(format);
    for (const dataset of DATASET_TYPES) expect(formatOfFileName(resultFileName('qry_1', dataset, format))).toBe(format);
    expect(resultFileKey('qry_1', format)).toBe(`qry_1.${extension}`);
  });

  it('declares every served media type on the download route, as the OpenAPI document does', () => {
    const mediaTypes = SERVED_FILES.map((f) => mediaTypeOf(f.contentType));
    for (const format of OUTPUT_FORMATS) expect(mediaTypes).toContain(mediaTypeOf(OUTPUT_FORMAT_SPECS[format].contentType));
    expect(Object.keys(served)).toEqual(mediaTypes);
    const download = openapi.paths['/downloads/{token}/{fileName}']!;
    expect(Object.keys(download['get']!.responses['200']!.content!)).toEqual(mediaTypes);
  });

  it('gives the request its output_format enum, in the OpenAPI document too', () => {
    const { QueryRequest, QueryMetadata } = openapi.components.schemas;
    expect(QueryRequest!.properties['output_format']!.enum).toEqual([...OUTPUT_FORMATS]);
    expect(QueryMetadata!.properties['output_format']!.enum).toEqual([...OUTPUT_FORMATS]);
  });

  it('says which files the store also holds compressed', () => {
    for (const file of SERVED_FILES) expect(isCompressible(file.contentType)).toBe(file.compressible);
  });

  it('names a companion beside its result, and links it only for a single file whose format has one', () => {
    const csvName = resultFileName('qry_1', 'persons', 'csv');
    expect(companionNameOf(csvName, 'dictionary')).toBe(dictionaryFileName('qry_1', 'persons'));
    expect(COMPANION_FILES.dictionary.extension).toBe('json');
    for (const format of OUTPUT_FORMATS) {
      expect(hasDictionaryLink(format, false)).toBe(OUTPUT_FORMAT_SPECS[format].companions.includes('dictionary'));
      expect(hasDictionaryLink(format, true)).toBe(false);
    }
    expect(HOUSEHOLD_FILE.extension).toBe('zip');
  });

  it.each(OUTPUT_FORMATS)('%s: validation refuses a query over its row cap, offering the formats that hold it', (format) => {
    const cap = OUTPUT_FORMAT_SPECS[format].maxRows;
    const pools = {
      resolve: (level: 'suburb', input: string) => ({ ok: true, value: { level, input, canonical: input, suburbs: [] } }),
      poolSize: () => 10_000_000,
    } as unknown as PoolRelease;
    const n = (cap?.rows ?? 2_000_000) + 1;
    const result = validateQuery(pools, { maxRowsPerExecute: 10_000_000 }, { geography_level: 'suburb', geography_selections: ['Big'], dataset_type: 'persons', n_observations: n, output_format: format });
    if (cap === undefined) return expect(result.ok).toBe(true);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.detail).toContain(`more than ${cap.holder} holds (${cap.rows})`);
      for (const other of OUTPUT_FORMATS.filter((f) => (OUTPUT_FORMAT_SPECS[f].maxRows?.rows ?? Infinity) >= n)) expect(result.error.detail).toContain(`"${other}"`);
    }
  });
});
