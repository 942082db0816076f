import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCensusInputs } from '../../src/census-input/load-inputs.ts';
import { tableById } from '../../src/synthesis/census/tables.ts';
import { GCP_SUBDIR, writeFixture } from './fixtures.ts';

const dirs: string[] = [];
const fixture = (value?: (sal: string, header: string, i: number) => number) => {
  const d = writeFixture(value);
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const replaceIn = (path: string, from: string | RegExp, to: string) => writeFileSync(path, readFileSync(path, 'utf8').replace(from, to));
const gcpFile = (dir: string, part: string) => join(dir, GCP_SUBDIR, `2021Census_${part}_AUST_SAL.csv`);
/** Removes a column (header and every row's field) from a CSV without quoted fields. */
const dropColumn = (path: string, header: string) => {
  const lines = readFileSync(path, 'utf8').split('\n');
  const at = lines[0]!.split(',').indexOf(header);
  if (at < 0) throw new Error(`no ${header} in ${path}`);
  writeFileSync(path, lines.map((l) => (l === '' ? l : l.split(',').filter((_, i) => i !== at).join(','))).join('\n'));
};

describe('loadCensusInputs', () => {
  it('reads geography: codes, names, identifiers, ratios and primaries', async () => {
    const result = await loadCensusInputs(fixture());
    if (!result.ok) throw new Error(result.error.map((e) => e.message).join('; '));
    const { suburbs } = result.value;
    expect(suburbs.map((s) => s.salCode)).toEqual(['SAL13250', 'SAL20100', 'SAL20900', 'SAL22170']);
    const richmond = suburbs.find((s) => s.salCode === 'SAL22170')!;
    expect(richmond).toMatchObject({
      absName: 'Richmond (Vic.)',
      name: 'Richmond',
      suburbId: 'Richmond (VIC)',
      state: 'VIC',
      postcode: '3121',
      lgaCode: 'LGA24600',
      lgaName: 'Melbourne',
      gccsa: 'Greater Melbourne',
    });
    expect(richmond.postcodes).toEqual([{ code: '3121', ratio: 0.93 }, { code: '3002', ratio: 0.07 }]);
    expect(richmond.lgas.map((l) => l.code)).toEqual(['LGA24600', 'LGA27350']);
    expect(suburbs.find((s) => s.salCode === 'SAL20900')!.suburbId).toBe('Fitzroy');
    // The ABS qualified it for a namesake these inputs do not hold: alone in its state, it needs no qualifier.
    expect(suburbs.find((s) => s.salCode === 'SAL20100')!).toMatchObject({ name: 'Ascot', suburbId: 'Ascot', gccsa: 'Rest of Vic.' });
    expect(suburbs.find((s) => s.salCode === 'SAL13250')!.suburbId).toBe('Richmond (NSW)');
  });

  it("reads each SAL's Remoteness Area (most of its mesh blocks) and area", async () => {
    const result = await loadCensusInputs(fixture());
    if (!result.ok) throw new Error(result.error.map((e) => e.message).join('; '));
    const by = new Map(result.value.suburbs.map((s) => [s.salCode, s]));
    expect([...['SAL22170', 'SAL20900', 'SAL20100', 'SAL13250'].map((c) => by.get(c)!.remoteness)]).toEqual([0, 0, 1, 2]);
    expect(by.get('SAL22170')!.areaSqkm).toBeCloseTo(0.3, 6);
  });

  it('reads a Remoteness Area file keyed by mesh block as well as the ABS one keyed by SA1', async () => {
    const dir = fixture();
    replaceIn(join(dir, 'asgs', 'RA_2021_AUST.csv'), /^SA1_CODE_2021/, 'MB_CODE_2021');
    const result = await loadCensusInputs(dir);
    if (!result.ok) throw new Error(result.error.map((e) => e.message).join('; '));
    expect(result.value.suburbs.map((s) => s.remoteness)).toEqual([2, 1, 0, 0]);
  });

  it('rejects a Remoteness Area code that is not one, and a mesh block the RA file lacks', async () => {
    const dir = fixture();
    replaceIn(join(dir, 'asgs', 'RA_2021_AUST.csv'), '20000000004,20,', '20000000004,2X,');
    const bad = await loadCensusInputs(dir);
    expect(!bad.ok && bad.error[0]).toMatchObject({ file: 'RA_2021_AUST.csv', row: 5, column: 'RA_CODE_2021' });
    const dir2 = fixture();
    replaceIn(join(dir2, 'asgs', 'RA_2021_AUST.csv'), /\n20000000004,20,[^\n]*/, '');
    const missing = await loadCensusInputs(dir2);
    expect(!missing.ok && missing.error[0]).toMatchObject({ file: 'SAL_2021_AUST.csv', column: 'MB_CODE_2021', message: expect.stringMatching(/RA_2021_AUST/) });
  });

  it('names a missing Remoteness Area file, and reads RA codes written with the descriptors\' "RA" prefix', async () => {
    const dir = fixture();
    unlinkSync(join(dir, 'asgs', 'RA_2021_AUST.csv'));
    const missing = await loadCensusInputs(dir);
    expect(!missing.ok && missing.error[0]).toMatchObject({ file: 'RA_2021_AUST.csv', message: expect.stringMatching(/missing/) });
    const prefixed = fixture();
    replaceIn(join(prefixed, 'asgs', 'RA_2021_AUST.csv'), '10000000001,12,', '10000000001,RA12,');
    const result = await loadCensusInputs(prefixed);
    if (!result.ok) throw new Error(result.error.map((e) => e.message).join('; '));
    expect(result.value.suburbs.find((s) => s.salCode === 'SAL13250')!.remoteness).toBe(2);
  });

  it('reads every table in spec order, with totals, across part files', async () => {
    const result = await loadCensusInputs(fixture((sal, _h, i) => (sal === 'SAL20900' ? i + 1 : 0)));
    if (!result.ok) throw new Error(result.error.map((e) => e.message).join('; '));
    for (const id of ['G04', 'G17', 'G29', 'G36']) {
      const spec = tableById(id);
      const cells = result.value.tables.get(id)!.get('SAL20900')!;
      expect(Array.from(cells)).toEqual(spec.cells.map((_, i) => i + 1));
      const totalAt = spec.cells.length + spec.otherHeaders.indexOf(spec.totalHeader!);
      expect(result.value.totals.get(id)!.get('SAL20900')).toBe(totalAt + 1);
    }
    expect(result.value.tables.get('G04')!.has('SAL29494')).toBe(false);
  });

  it('reports progress per table', async () => {
    const seen: string[] = [];
    await loadCensusInputs(fixture(), (_d, _t, what) => seen.push(what));
    expect(seen).toContain('G04');
    expect(seen.at(-1)).toBe('done');
  });

  it('names a missing DataPack file', async () => {
    const dir = fixture();
    unlinkSync(gcpFile(dir, 'G17B'));
    const result = await loadCensusInputs(dir);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error[0]).toMatchObject({ file: '2021Census_G17B_AUST_SAL.csv' });
  });

  it('names a missing ASGS file', async () => {
    const dir = fixture();
    unlinkSync(join(dir, 'asgs', 'CG_SAL_2021_LGA_2021.csv'));
    const result = await loadCensusInputs(dir);
    expect(!result.ok && result.error[0]!.file).toBe('CG_SAL_2021_LGA_2021.csv');
  });

  it('rejects an unknown header, naming file, row and column (and accepts it on request)', async () => {
    const dir = fixture();
    replaceIn(gcpFile(dir, 'G34'), 'Num_MVs_NS', 'Num_MVs_Mystery');
    const result = await loadCensusInputs(dir);
    expect(!result.ok && result.error[0]).toMatchObject({ file: '2021Census_G34_AUST_SAL.csv', row: 1, column: 'Num_MVs_Mystery' });
    const lenient = await loadCensusInputs(dir, undefined, { allowUnknownHeaders: true });
    // Still an error: the spec's own header is now missing.
    expect(!lenient.ok && lenient.error[0]).toMatchObject({ column: 'Num_MVs_NS', message: expect.stringMatching(/missing column/) });
  });

  it('rejects a column in the wrong part file, naming the part the ABS metadata puts it in', async () => {
    const dir = fixture();
    // M_650_799_85ov is G17A's; put it in G17C's header row in place of one of G17C's own columns.
    replaceIn(gcpFile(dir, 'G17C'), /,P_650_799_85ov,/, ',M_650_799_85ov,');
    const result = await loadCensusInputs(dir);
    expect(!result.ok && result.error[0]).toMatchObject({
      file: '2021Census_G17C_AUST_SAL.csv',
      row: 1,
      column: 'M_650_799_85ov',
      message: expect.stringMatching(/belongs to DataPack part G17A/),
    });
  });

  it('rejects a part file without a column the spec reads, naming file, row 1 and column', async () => {
    const dir = fixture();
    dropColumn(gcpFile(dir, 'G34'), 'Num_MVs_NS');
    const result = await loadCensusInputs(dir);
    expect(!result.ok && result.error[0]).toMatchObject({
      file: '2021Census_G34_AUST_SAL.csv',
      row: 1,
      column: 'Num_MVs_NS',
      message: expect.stringMatching(/missing column Num_MVs_NS/),
    });
  });

  it('accepts a part file without a column the metadata lists but no spec reads', async () => {
    const dir = fixture();
    dropColumn(gcpFile(dir, 'G14'), 'Christianity_Anglican_M');
    const result = await loadCensusInputs(dir);
    expect(result.ok).toBe(true);
  });

  it('rejects a header twice in a part file, and the same SAL twice', async () => {
    const dir = fixture();
    replaceIn(gcpFile(dir, 'G14'), 'Christianity_Anglican_M', 'Christianity_Anglican_F');
    const twice = await loadCensusInputs(dir);
    expect(!twice.ok && twice.error[0]).toMatchObject({ file: '2021Census_G14_AUST_SAL.csv', row: 1, column: 'Christianity_Anglican_F' });
    const dir2 = fixture();
    replaceIn(gcpFile(dir2, 'G14'), 'SAL20100,', 'SAL20900,');
    const sal = await loadCensusInputs(dir2);
    expect(!sal.ok && sal.error[0]).toMatchObject({ file: '2021Census_G14_AUST_SAL.csv', row: 4, column: 'SAL_CODE_2021', message: expect.stringMatching(/twice/) });
  });

  it('rejects a row with a missing field, naming file and row', async () => {
    const dir = fixture();
    const path = gcpFile(dir, 'G05');
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[3] = lines[3]!.replace(/,[^,]*$/, '');
    writeFileSync(path, lines.join('\n'));
    const result = await loadCensusInputs(dir);
    expect(!result.ok && result.error[0]).toMatchObject({ file: '2021Census_G05_AUST_SAL.csv', row: 4, message: expect.stringMatching(/fields/) });
  });

  it('reads real part files whole but parses only the columns the specs read', async () => {
    // A column no spec reads holds text: skipped, so no error (G14's Anglican count is not read).
    const dir = fixture((_sal, header, i) => (header === 'Christianity_Anglican_M' ? Number.NaN : i % 7));
    replaceIn(gcpFile(dir, 'G14'), /NaN/g, 'n/a');
    const result = await loadCensusInputs(dir);
    expect(result.ok).toBe(true);
  });

  it('rejects a non-numeric cell, naming file, row and column', async () => {
    const dir = fixture();
    const path = gcpFile(dir, 'G36');
    const lines = readFileSync(path, 'utf8').split('\n');
    const header = lines[0]!.split(',');
    const col = header.indexOf('OPDs_Separate_house_Dwellings');
    const row3 = lines[2]!.split(',');
    row3[col] = 'abc';
    lines[2] = row3.join(',');
    writeFileSync(path, lines.join('\n'));
    const result = await loadCensusInputs(dir);
    expect(!result.ok && result.error[0]).toMatchObject({ file: '2021Census_G36_AUST_SAL.csv', row: 3, column: 'OPDs_Separate_house_Dwellings' });
  });

  it('rejects a SAL that is in a table but not in the ASGS files', async () => {
    const dir = fixture();
    replaceIn(gcpFile(dir, 'G01'), 'SAL20900,', 'SAL20999,');
    const result = await loadCensusInputs(dir);
    expect(!result.ok && result.error[0]).toMatchObject({ file: '2021Census_G01_AUST_SAL.csv', row: 3, column: 'SAL_CODE_2021', message: expect.stringMatching(/SAL20999.*not in the ASGS/) });
  });

  it('rejects a correspondence row for a SAL the allocation file does not have', async () => {
    const dir = fixture();
    replaceIn(join(dir, 'asgs', 'CG_SAL_2021_POA_2021.csv'), '20900,Fitzroy', '20901,Fitzroy');
    const result = await loadCensusInputs(dir);
    expect(!result.ok && result.error[0]).toMatchObject({ file: 'CG_SAL_2021_POA_2021.csv', row: 4, column: 'SAL_CODE_2021' });
  });

  it('rejects a ratio that is not a number', async () => {
    const dir = fixture();
    replaceIn(join(dir, 'asgs', 'CG_SAL_2021_LGA_2021.csv'), 'Yarra,0.4', 'Yarra,forty');
    const result = await loadCensusInputs(dir);
    expect(!result.ok && result.error[0]).toMatchObject({ file: 'CG_SAL_2021_LGA_2021.csv', row: 2, column: 'RATIO_FROM_TO' });
  });

  it('rejects a missing key column', async () => {
    const dir = fixture();
    replaceIn(gcpFile(dir, 'G42'), 'SAL_CODE_2021', 'POA_CODE_2021');
    const result = await loadCensusInputs(dir);
    expect(!result.ok && result.error[0]).toMatchObject({ file: '2021Census_G42_AUST_SAL.csv', column: 'SAL_CODE_2021' });
  });

  it('fails cleanly on a directory that does not exist', async () => {
    const result = await loadCensusInputs('/nonexistent/spq-inputs');
    expect(result.ok).toBe(false);
  });
});
