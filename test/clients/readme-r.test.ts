/**
 * clients/r/README.md, "Without the client, the same in base R and jsonlite": the block after
 * `<!-- ci: r-without-client -->` run as written (Rscript, jsonlite from Debian) on a csv and its
 * dictionary downloaded from a live server, under the names the README uses; its HEAP count, NAs
 * and maximum must be the TypeScript client's reading of the same file (issue 38, item 9).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTable, type Dictionary } from '../../clients/typescript/src/table.ts';
import { query, startTestServer, type TestServer } from '../http/harness.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'clients', 'r', 'README.md'), 'utf8');
const block = /<!-- ci: r-without-client -->\s*```r\n([\s\S]*?)```/.exec(README)?.[1];
const RSCRIPT = spawnSync('Rscript', ['-e', 'library(jsonlite)'], { encoding: 'utf8' }).status === 0 ? 'Rscript' : undefined;
if (!RSCRIPT) console.warn('no Rscript with jsonlite: the R README snippet is skipped (Debian: apt-get install r-base-core r-cran-jsonlite)');

let s: TestServer;
const work = mkdtempSync(join(tmpdir(), 'spq-readme-r-'));
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
  rmSync(work, { recursive: true, force: true });
});

describe('clients/r/README.md: base R without the client', () => {
  it.skipIf(!RSCRIPT)('runs as written and gives the client\'s HEAP count, NAs and maximum', async () => {
    expect(block, 'the README has the <!-- ci: r-without-client --> block').toBeDefined();
    const { key } = await s.account({ grant: 20 });
    const executed = await (await s.call('/query/execute', { key, body: query({ geography_level: 'postcode', geography_selections: ['3121'], n_observations: 300, output_format: 'csv' }) })).json();
    const csv = await (await fetch(executed.download_url)).text();
    const dictionaryText = await (await fetch(executed.dictionary_url)).text();
    writeFileSync(join(work, 'hobart.csv'), csv);
    writeFileSync(join(work, 'hobart.csv.dictionary.json'), dictionaryText);

    const run = spawnSync(RSCRIPT!, ['-e', block!], { cwd: work, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const [count, na, ...max] = run.stdout.trim().split(' ');

    const table = readTable(csv, JSON.parse(dictionaryText) as Dictionary);
    const bachelor = table.rank('HEAP', 'Bachelor Degree Level')!;
    const heap = table.rows.map((r) => r['HEAP'] ?? null);
    const ranks = heap.map((v) => table.rank('HEAP', v)).filter((r): r is number => r !== undefined);
    expect(Number(count)).toBe(ranks.filter((r) => r >= bachelor).length);
    expect(Number(na)).toBe(heap.filter((v) => v === null).length);
    expect(max.join(' ')).toBe(table.levels['HEAP']![Math.max(...ranks)]);
    expect(Number(count)).toBeGreaterThan(0);
    expect(Number(na)).toBeGreaterThan(0);
  }, 60_000);
});
