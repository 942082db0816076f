import { join } from 'node:path';
import type { DatasetType } from '../core/dataset.ts';
import type { Population } from '../synthesis/census/population.ts';
import { INPUT_TABLES } from '../synthesis/census/tables.ts';
import { GCP_PART_HEADERS } from '../synthesis/census/gcp/layout.generated.ts';
import { gcpTableOf, gcpVocabulary } from '../synthesis/census/gcp/cells.ts';
import { SAL_KEY, dataPackFile } from '../census-input/file-names.ts';
import { csvLine } from '../census-input/csv.ts';
import { BufferedFile } from './buffered-file.ts';
import { planTable, publishedCounts, trueCounts, type TablePlan } from './datapack-plan.ts';
import { G02_HEADERS, g02Values } from './medians.ts';

/** Every GCP table the demo writes: all those in the generated layout (issue 9's list). */
export const DEMO_GCP_TABLES: readonly string[] = [...new Set(Object.keys(GCP_PART_HEADERS).map(gcpTableOf))];

export function universeOf(table: string): DatasetType {
  const fitted = INPUT_TABLES.find((t) => t.id === table);
  const vocabulary = gcpVocabulary(table);
  if (fitted) return fitted.universe;
  if (vocabulary) return vocabulary.universe;
  throw new Error(`GCP table ${table} has no vocabulary: add one (src/synthesis/census/gcp/vocabularies) to say whom it counts`);
}

/**
 * The demo's DataPack: one file per real part file, with exactly the real header row
 * (SAL_CODE_2021, then the metadata's short headers in order) and a row per suburb.
 */
export class DemoDataPackWriter {
  private readonly plans: { plan: TablePlan; files: BufferedFile[] }[];
  private readonly g02: BufferedFile;

  constructor(dir: string) {
    this.g02 = new BufferedFile(join(dir, dataPackFile('G02')));
    this.g02.write(csvLine([SAL_KEY, ...G02_HEADERS]));
    this.plans = DEMO_GCP_TABLES.filter((t) => t !== 'G02').map((table) => {
      const plan = planTable(table, universeOf(table));
      const files = plan.parts.map(({ part }) => {
        const file = new BufferedFile(join(dir, dataPackFile(part)));
        file.write(csvLine([SAL_KEY, ...GCP_PART_HEADERS[part]!]));
        return file;
      });
      return { plan, files };
    });
  }

  get fileCount(): number {
    return 1 + this.plans.reduce((n, p) => n + p.files.length, 0);
  }

  /**
   * One suburb's row in every file; `area` keys the perturbation and the made-up fills.
   * `observe` sees each table's true and published counts (per column, file order) as written.
   */
  write(salCode: string, pop: Population, area: number, observe?: (plan: TablePlan, truth: Float64Array, published: Float64Array) => void): void {
    this.g02.write(`${salCode},${g02Values(pop).join(',')}\n`);
    for (const { plan, files } of this.plans) {
      const truth = trueCounts(plan, pop, area);
      const published = publishedCounts(plan, truth, area);
      observe?.(plan, truth, published);
      plan.parts.forEach((part, k) => {
        let line = salCode;
        for (let i = part.from; i < part.to; i++) line += `,${published[i]}`;
        files[k]!.write(line + '\n');
      });
    }
  }

  close(): void {
    this.g02.close();
    for (const { files } of this.plans) for (const f of files) f.close();
  }
}
