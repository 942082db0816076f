/**
 * A release's quality source (ports/release-quality.ts): quality.json and report.json read once,
 * when a quality page first asks, and checked against the manifest's SHA-256 (start-up checks
 * them by size or samples only); an area's records read from the column files in place.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DatasetType } from '../../core/dataset.ts';
import type { QualityFile, ReleaseQuality, ReleaseReportView } from '../../ports/release-quality.ts';
import type { ServedRecords } from '../../synthesis/census/quality-charts.ts';
import { RELEASE_FILES, type Catalog, type CatalogSuburb, type Manifest } from './catalog.ts';
import type { DatasetColumns } from './file-shape.ts';
import { QUALITY_FILE } from './quality-file.ts';

export function releaseQuality(dir: string, manifest: Manifest, catalog: Catalog, columns: Readonly<Record<DatasetType, DatasetColumns>>, catalogSuburbOf: (salCode: string) => CatalogSuburb): ReleaseQuality {
  /** A release file as the manifest records it, parsed; undefined where the release has none. */
  const verified = async <T>(name: string): Promise<T | undefined> => {
    const entry = manifest.files[name];
    if (entry === undefined) return undefined;
    const bytes = await readFile(join(dir, name));
    if (createHash('sha256').update(bytes).digest('hex') !== entry.sha256) throw new Error(`pool release ${dir}: ${name} does not match the manifest`);
    return JSON.parse(bytes.toString('utf8')) as T;
  };
  let file: Promise<QualityFile | undefined> | undefined;
  let report: Promise<ReleaseReportView | undefined> | undefined;
  let builtAt: Promise<Date> | undefined;
  return {
    file: () =>
      (file ??= verified<QualityFile>(QUALITY_FILE).then((q) => {
        if (q !== undefined && (q.format !== 1 || q.version !== manifest.version)) throw new Error(`pool release ${dir}: ${QUALITY_FILE} is not of version ${manifest.version}`);
        return q;
      })),
    report: () => (report ??= verified<ReleaseReportView | null>(RELEASE_FILES.report).then((r) => r ?? undefined)),
    builtAt: () => (builtAt ??= stat(join(dir, RELEASE_FILES.manifest)).then((s) => s.mtime)),
    areas: () => catalog.suburbs.map((c) => ({ code: c.salCode, level: c.level ?? 'sal', persons: c.pools.persons, small: c.smallSuburb })),
    coarsened: (area) => catalogSuburbOf(area.salCode).coarsened,
    async records(area, dataset, codes) {
      const c = catalogSuburbOf(area.salCode);
      const offset = c.offsets[dataset];
      const count = c.pools[dataset];
      const variables = catalog.variables[dataset];
      const out: Record<string, Uint8Array> = {};
      const labels: Record<string, readonly string[]> = {};
      for (const code of codes) {
        const k = variables.findIndex((v) => v.code === code);
        if (k < 0) throw new Error(`pool release ${dir}: no ${dataset} variable ${code}`);
        out[code] = columns[dataset].variables[k]!.bytes(offset, count);
        labels[code] = variables[k]!.labels;
      }
      return { count, columns: out, labels } satisfies ServedRecords;
    },
  };
}
