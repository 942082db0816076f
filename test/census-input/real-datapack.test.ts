/**
 * The real 2021 "All Geographies for AUS" DataPack in ../shared/abs (postcodes, LGAs, states and
 * Australia complete; 40 suburb part files) loads as the ABS publishes it: `..` cells included,
 * Australia-wide and state packs, through symbolic links, every problem of an incomplete set
 * reported in one run. Skips, saying so, when ../shared is not beside the checkout.
 */
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCensusInputs } from '../../src/census-input/load-inputs.ts';
import { indexInputs } from '../../src/census-input/file-index.ts';
import { GCP_ALL_PARTS } from '../../src/synthesis/census/gcp/parts.generated.ts';
import { INPUT_TABLES } from '../../src/synthesis/census/tables.ts';

const PACK = fileURLToPath(new URL('../../../shared/abs/2021-gcp/datapack/2021 Census GCP All Geographies for AUS/', import.meta.url));
const present = existsSync(PACK);
if (!present) console.warn(`skipping the real DataPack tests: ${PACK} is absent (put ../shared beside the checkout to run them)`);

const scratch = mkdtempSync(join(tmpdir(), 'spq-real-pack-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const INPUT_PARTS = [...new Set(INPUT_TABLES.flatMap((t) => t.files))];

/** Part → the header and the rows of one state's postal areas (POA codes starting with `digit`). */
function writeStatePack(dir: string, state: string, digit: string): void {
  mkdirSync(dir, { recursive: true });
  for (const part of INPUT_PARTS) {
    const lines = readFileSync(join(PACK, 'POA', 'AUS', `2021Census_${part}_AUST_POA.csv`), 'utf8').trimEnd().split('\n');
    const rows = lines.slice(1).filter((l) => l.startsWith(`POA${digit}`));
    writeFileSync(join(dir, `2021Census_${part}_${state}_POA.csv`), [lines[0], ...rows].join('\n') + '\n');
  }
}

describe.skipIf(!present)('the real 2021 DataPack (../shared/abs)', () => {
  it('knows every one of its part files from the ABS metadata (119), read or not', async () => {
    expect(Object.keys(GCP_ALL_PARTS)).toHaveLength(119);
    const index = await indexInputs(PACK);
    expect(index.unknownParts).toEqual([]);
    for (const level of ['POA', 'SA2', 'LGA', 'STE', 'AUS']) expect(index.dataPack.get(level)?.size, level).toBe(115); // all but G02, G06, G12A-B
    expect(index.dataPack.get('SAL')?.size).toBe(40);
  });

  it('loads every postal area and LGA with its `..` cells as not published, and the states and Australia as parents', async () => {
    for (const [level, code, areas] of [['poa', 'POA7000', 2641], ['lga', 'LGA62810', 547]] as const) {
      const loaded = await loadCensusInputs(PACK, undefined, { level });
      if (!loaded.ok) throw new Error(loaded.error.map((e) => e.message).join('; '));
      const inputs = loaded.value;
      // 2,643 postal areas and 566 LGAs less "No usual address" and "Migratory - Offshore - Shipping".
      expect(inputs.suburbs, level).toHaveLength(areas);
      const g27 = inputs.tables.get('G27')!.get(code)!;
      const unpublished = g27.filter(Number.isNaN).length;
      expect(unpublished, `${level} G27`).toBeGreaterThan(40); // partners, lone parents, … aged 0–14
      expect(inputs.parents.states.size).toBe(9);
      // Australia leaves the same cells unpublished: they are impossible by definition (structural zeros).
      const australia = inputs.parents.australia!.get('G27')!;
      expect(australia.map((v, i) => Number(Number.isNaN(v) !== Number.isNaN(g27[i]!))).reduce((a, b) => a + b, 0), level).toBe(0);
      expect(inputs.totals.get('G01')!.get(code)).toBeGreaterThan(10_000);
    }
    const poa = await loadCensusInputs(PACK, undefined, { level: 'poa' });
    if (!poa.ok) throw new Error('unreachable');
    const hobart = poa.value.suburbs.find((s) => s.salCode === 'POA7000')!;
    expect(hobart).toMatchObject({ level: 'poa', suburbId: '7000', postcode: '7000', state: 'TAS', remoteness: undefined });
  }, 300_000);

  it('loads every SA2 with its nine-digit code, named from the ABS descriptors, its state from the code', async () => {
    const sa2 = await loadCensusInputs(PACK, undefined, { level: 'sa2' });
    if (!sa2.ok) throw new Error(sa2.error.map((e) => e.message).join('; '));
    // 2,472 SA2 rows less the 18 "No usual address" and "Migratory - Offshore - Shipping" ones.
    expect(sa2.value.suburbs).toHaveLength(2454);
    expect(sa2.value.totals.get('G01')!.get('601051027')).toBe(9_025);
    expect(sa2.value.tables.get('G27')!.get('601051027')!.filter(Number.isNaN).length).toBeGreaterThan(40);
    // Named from the ABS descriptors, the state from the code's first digit; no prefix on the code;
    // the principal postcode (the one holding most of its people) from the suburbs that make it up.
    const byCode = new Map(sa2.value.suburbs.map((s) => [s.salCode, s]));
    expect(byCode.get('601051027')).toMatchObject({ level: 'sa2', suburbId: 'Hobart', name: 'Hobart', state: 'TAS', postcode: '7000', remoteness: undefined });
    expect(byCode.get('404031108')).toMatchObject({ suburbId: 'Richmond (SA)', absName: 'Richmond (SA)', name: 'Richmond', state: 'SA' });
    expect(byCode.get('901011001')?.state).toBe('OT');
    expect([...byCode.keys()].filter((c) => /(?:9799|9499)$/.test(c))).toEqual([]);
    expect(new Set(sa2.value.suburbs.map((s) => s.suburbId)).size).toBe(2454);
  }, 300_000);

  it('reports the incomplete suburb set in one run: every missing part file and every missing ASGS file', async () => {
    const loaded = await loadCensusInputs(PACK, undefined, { level: 'sal' });
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    const files = loaded.error.map((e) => e.file);
    const sal = new Set((await indexInputs(PACK)).dataPack.get('SAL')!.keys());
    const missingParts = INPUT_PARTS.filter((p) => !sal.has(p));
    expect(missingParts.length).toBeGreaterThan(10);
    for (const part of missingParts) expect(files).toContain(`2021Census_${part}_AUST_SAL.csv`);
    for (const asgs of ['MB_2021_AUST.csv', 'SAL_2021_AUST.csv', 'RA_2021_AUST.csv', 'CG_SAL_2021_POA_2021.csv', 'CG_SAL_2021_LGA_2021.csv']) expect(files).toContain(asgs);
    expect(loaded.error).toHaveLength(missingParts.length + 5);
  });

  it('finds state packs under any folder layout and through symbolic links', async () => {
    const root = join(scratch, 'links');
    writeStatePack(join(scratch, 'elsewhere', 'tas'), 'TAS', '7');
    writeStatePack(join(scratch, 'elsewhere', 'nt'), 'NT', '08');
    mkdirSync(join(root, 'deep', 'er'), { recursive: true });
    symlinkSync(join(scratch, 'elsewhere', 'tas'), join(root, 'deep', 'er', 'tasmania'));
    symlinkSync(join(scratch, 'elsewhere', 'nt'), join(root, 'nt'));
    symlinkSync(root, join(root, 'deep', 'loop')); // a cycle ends
    const loaded = await loadCensusInputs(root, undefined, { level: 'poa' });
    if (!loaded.ok) throw new Error(loaded.error.map((e) => e.message).join('; '));
    const states = new Set(loaded.value.suburbs.map((s) => s.state));
    expect([...states].sort()).toEqual(['NT', 'TAS']);
    expect(loaded.value.suburbs.find((s) => s.suburbId === '0800')?.state).toBe('NT');
    expect(loaded.value.parents.states.size).toBe(0); // no STE files here: the build sums its own
  });

  it('names each problem of a malformed pack (a postcode twice across state packs, a row cut short)', async () => {
    const root = join(scratch, 'bad');
    writeStatePack(join(root, 'a'), 'TAS', '7');
    writeStatePack(join(root, 'b'), 'VIC', '7'); // Tasmania's rows again, under another state's name
    const g05 = join(root, 'a', '2021Census_G05_TAS_POA.csv');
    const lines = readFileSync(g05, 'utf8').split('\n');
    lines[3] = lines[3]!.split(',').slice(0, 10).join(',');
    writeFileSync(g05, lines.join('\n'));
    const loaded = await loadCensusInputs(root, undefined, { level: 'poa' });
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    const messages = loaded.error.map((e) => `${e.file}: ${e.message}`);
    expect(messages.some((m) => /2021Census_G05_TAS_POA\.csv: row has 10 fields/.test(m))).toBe(true);
    expect(messages.some((m) => /POA7\d{3} is in 2021Census_G\w+_(VIC|TAS)_POA\.csv and in 2021Census_G\w+_(TAS|VIC)_POA\.csv/.test(m))).toBe(true);
    expect(loaded.error.length).toBeGreaterThan(10); // every table's files, not only the first
  });
});
