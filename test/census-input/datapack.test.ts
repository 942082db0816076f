import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readDataPackPart } from '../../src/census-input/datapack.ts';
import { GCP_PART_HEADERS } from '../../src/synthesis/census/gcp/layout.generated.ts';

/** readDataPackPart at geography levels other than SAL, on small files in the real G34 layout. */
const G34 = GCP_PART_HEADERS['G34']!;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function file(name: string, lines: readonly (readonly (string | number)[])[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'spq-part-'));
  dirs.push(dir);
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => l.join(',')).join('\n') + '\n');
  return path;
}
const row = (key: string, base: number) => [key, ...G34.map((_, i) => base + i)];

describe('readDataPackPart', () => {
  it('reads any geography level by its key column, every column in the metadata order', async () => {
    const path = file('2021Census_G34_AUST_STE.csv', [['STE_CODE_2021', ...G34], row('1', 10), row('2', 20)]);
    const read = await readDataPackPart(path, 'G34', { keyColumn: 'STE_CODE_2021' });
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.keys).toEqual(['1', '2']);
    expect(read.value.headers).toEqual(G34);
    expect(Array.from(read.value.rows.get('2')!)).toEqual(G34.map((_, i) => 20 + i));
  });

  it('returns only the requested columns and skips the others unparsed', async () => {
    const bad = row('20601100101', 0);
    bad[1] = 'n/a'; // Num_MVs_per_dweling_0_MVs: not requested, never parsed
    const path = file('2021Census_G34_VIC_SA1.csv', [['SA1_CODE_2021', ...G34], bad]);
    const read = await readDataPackPart(path, 'G34', { keyColumn: 'SA1_CODE_2021', headers: ['Total_dwelings', 'Num_MVs_NS'] });
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.headers).toEqual(['Total_dwelings', 'Num_MVs_NS']);
    expect(Array.from(read.value.rows.get('20601100101')!)).toEqual([7, 6]);
    expect(read.value.columns).toEqual(G34);
  });

  it('names file, row 1 and column for an unknown header, a header of another part, and a missing key column', async () => {
    const unknown = file('x.csv', [['STE_CODE_2021', ...G34.slice(0, 7), 'Num_MVs_Mystery'], row('1', 0)]);
    expect(await readDataPackPart(unknown, 'G34', { keyColumn: 'STE_CODE_2021' })).toMatchObject({
      ok: false,
      error: { file: 'x.csv', row: 1, column: 'Num_MVs_Mystery', message: expect.stringMatching(/unknown header/) },
    });
    const otherPart = file('y.csv', [['STE_CODE_2021', ...G34.slice(0, 7), 'Tot_P_P'], row('1', 0)]);
    expect(await readDataPackPart(otherPart, 'G34', { keyColumn: 'STE_CODE_2021' })).toMatchObject({
      ok: false,
      error: { row: 1, column: 'Tot_P_P', message: expect.stringMatching(/belongs to DataPack part G01, not G34/) },
    });
    const lenient = await readDataPackPart(unknown, 'G34', { keyColumn: 'STE_CODE_2021', allowUnknownHeaders: true, headers: ['Num_MVs_NS'] });
    expect(lenient.ok).toBe(true);
    const noKey = file('z.csv', [['SAL_CODE_2021', ...G34], row('SAL20001', 0)]);
    expect(await readDataPackPart(noKey, 'G34', { keyColumn: 'LGA_CODE_2021' })).toMatchObject({
      ok: false,
      error: { row: 1, column: 'LGA_CODE_2021' },
    });
  });

  it('names a requested column the file lacks, unless optional', async () => {
    const path = file('g.csv', [['STE_CODE_2021', ...G34.slice(0, 7)], ['1', 0, 1, 2, 3, 4, 5, 6]]);
    expect(await readDataPackPart(path, 'G34', { keyColumn: 'STE_CODE_2021' })).toMatchObject({
      ok: false,
      error: { file: 'g.csv', row: 1, column: 'Total_dwelings', message: expect.stringMatching(/missing column/) },
    });
    const optional = await readDataPackPart(path, 'G34', { keyColumn: 'STE_CODE_2021', optionalHeaders: true });
    expect(optional.ok && optional.value.headers).toEqual(G34.slice(0, 7));
  });

  it('names file, row and column for a value that is not a number, a short row and a key twice', async () => {
    const text = row('2', 0);
    text[3] = '';
    const nan = file('n.csv', [['STE_CODE_2021', ...G34], row('1', 0), text]);
    expect(await readDataPackPart(nan, 'G34', { keyColumn: 'STE_CODE_2021' })).toMatchObject({
      ok: false,
      error: { file: 'n.csv', row: 3, column: G34[2], message: 'not a number: ""' },
    });
    const short = file('s.csv', [['STE_CODE_2021', ...G34], row('1', 0).slice(0, 5)]);
    expect(await readDataPackPart(short, 'G34', { keyColumn: 'STE_CODE_2021' })).toMatchObject({ ok: false, error: { row: 2 } });
    const twice = file('t.csv', [['STE_CODE_2021', ...G34], row('1', 0), row('1', 5)]);
    expect(await readDataPackPart(twice, 'G34', { keyColumn: 'STE_CODE_2021' })).toMatchObject({
      ok: false,
      error: { row: 3, column: 'STE_CODE_2021', message: expect.stringMatching(/twice/) },
    });
  });

  it('maps and skips keys with the key option, reporting its errors at the key column', async () => {
    const path = file('k.csv', [['STE_CODE_2021', ...G34], row('1', 0), row('9', 0), row('X', 0)]);
    const key = (raw: string) => (raw === '9' ? null : /^\d$/.test(raw) ? `STE${raw}` : { error: `not a state code: "${raw}"` });
    expect(await readDataPackPart(path, 'G34', { keyColumn: 'STE_CODE_2021', key })).toMatchObject({
      ok: false,
      error: { row: 4, column: 'STE_CODE_2021', message: 'not a state code: "X"' },
    });
    const fine = file('f.csv', [['STE_CODE_2021', ...G34], row('1', 0), row('9', 0)]);
    const read = await readDataPackPart(fine, 'G34', { keyColumn: 'STE_CODE_2021', key });
    expect(read.ok && read.value.keys).toEqual(['STE1']);
  });

  it('refuses a part it does not know', async () => {
    const path = file('q.csv', [['STE_CODE_2021', ...G34]]);
    expect((await readDataPackPart(path, 'G99Z')).ok).toBe(false);
  });
});
