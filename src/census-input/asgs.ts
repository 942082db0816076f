import { STATE_BY_ABS_CODE, type StateAbbr } from '../census-names.ts';
import type { InputError, SuburbGeography } from '../synthesis/census/inputs.ts';
import { err, ok, type Result } from '../core/result.ts';
import { lgaBaseName, parseAbsName, suburbIdentifiers } from './abs-names.ts';
import { readCsvRows } from './csv.ts';
import { MB_ALLOCATION, RA_ALLOCATION, SAL_ALLOCATION, SAL_LGA_CORRESPONDENCE, SAL_POA_CORRESPONDENCE } from './file-names.ts';
import type { FileIndex } from './file-index.ts';

/** "SAL20001" from either the DataPack spelling or the ASGS files' bare "20001". */
export function salKey(raw: string): string | undefined {
  const s = raw.trim();
  if (/^SAL\d{5}$/.test(s)) return s;
  if (/^\d{5}$/.test(s)) return `SAL${s}`;
  return undefined;
}

/**
 * The ABS's non-spatial SALs ("No usual address", "Migratory - Offshore - Shipping", codes
 * ending 9494 and 9797) hold no suburb anyone can select: they are left out everywhere.
 */
export const isNonSpatialSal = (sal: string): boolean => /(?:9494|9797)$/.test(sal);

type Columns<K extends string> = Record<K, number>;

/** A file's header row (undefined when the file is missing or empty). */
async function headerOf(files: FileIndex, name: string): Promise<string[] | undefined> {
  const path = files.get(name);
  if (!path) return undefined;
  for await (const { fields } of readCsvRows(path)) return fields.map((f) => f.trim());
  return undefined;
}

/** Streams a file and hands each row's named fields to `onRow`; missing columns and bad rows become InputErrors. */
async function eachRow<K extends string>(
  files: FileIndex,
  name: string,
  wanted: readonly K[],
  onRow: (get: (k: K) => string, row: number) => InputError | undefined,
): Promise<InputError | undefined> {
  const path = files.get(name);
  if (!path) return { file: name, message: 'required ASGS file is missing from the input directory' };
  let cols: Columns<K> | undefined;
  for await (const { row, fields } of readCsvRows(path)) {
    if (!cols) {
      const at = {} as Columns<K>;
      for (const k of wanted) {
        const i = fields.indexOf(k);
        if (i < 0) return { file: name, row, column: k, message: `missing column ${k}` };
        at[k] = i;
      }
      cols = at;
      continue;
    }
    const c = cols;
    const problem = onRow((k) => (fields[c[k]] ?? '').trim(), row);
    if (problem) return { ...problem, file: name };
  }
  if (!cols) return { file: name, message: 'file is empty' };
  return undefined;
}

interface SalRecord {
  absName: string;
  state: StateAbbr;
  areaSqkm: number;
  gccsaCounts: Map<string, number>;
  /** Mesh blocks per Remoteness Area class (0 Major Cities … 4 Very Remote). */
  remotenessCounts: number[];
  postcodes: { code: string; ratio: number }[];
  lgas: { code: string; name: string; ratio: number }[];
}

const byShare = <T extends { code: string; ratio: number }>(a: T, b: T) => b.ratio - a.ratio || (a.code < b.code ? -1 : 1);

/**
 * Suburbs from the ASGS allocation files (MB → GCCSA and state; MB → SAL; MB → Remoteness Area)
 * and the SAL → POA and SAL → LGA correspondences. Primary postcode and LGA = the largest
 * RATIO_FROM_TO share (ties: lower code); GCCSA and Remoteness Area = the one holding most of the
 * SAL's mesh blocks (the files carry no population); area = the sum of its mesh blocks' areas.
 */
export async function loadGeography(files: FileIndex): Promise<Result<SuburbGeography[], InputError>> {
  const meshBlocks = await readMeshBlocks(files);
  if (!meshBlocks.ok) return meshBlocks;
  const remotenessOfMeshBlock = await readRemoteness(files, meshBlocks.value.mbSa1);
  if (!remotenessOfMeshBlock.ok) return remotenessOfMeshBlock;
  const allocated = await readSalAllocation(files, meshBlocks.value, remotenessOfMeshBlock.value);
  if (!allocated.ok) return allocated;
  const sals = allocated.value;
  const problem = (await readPostcodes(files, sals)) ?? (await readLgas(files, sals));
  if (problem) return err(problem);
  const codes = [...sals.keys()].sort();
  const unmatched = orderShares(sals, codes);
  if (unmatched) return err(unmatched);
  return ok(suburbsOf(sals, codes));
}

/** Mesh block → GCCSA name and SA1 code (MB allocation file). */
async function readMeshBlocks(files: FileIndex): Promise<Result<{ mbGccsa: Map<string, string>; mbSa1: Map<string, string> }, InputError>> {
  const mbGccsa = new Map<string, string>();
  const mbSa1 = new Map<string, string>();
  const problem = await eachRow(files, MB_ALLOCATION, ['MB_CODE_2021', 'SA1_CODE_2021', 'GCCSA_NAME_2021', 'STATE_CODE_2021'] as const, (get, row) => {
    if (!get('MB_CODE_2021')) return { file: MB_ALLOCATION, row, column: 'MB_CODE_2021', message: 'empty mesh block code' };
    mbGccsa.set(get('MB_CODE_2021'), get('GCCSA_NAME_2021'));
    mbSa1.set(get('MB_CODE_2021'), get('SA1_CODE_2021'));
    return undefined;
  });
  if (problem) return err(problem);
  return ok({ mbGccsa, mbSa1 });
}

/** Mesh block → Remoteness Area class (0 Major Cities … 4 Very Remote), undefined where the files give none. */
async function readRemoteness(files: FileIndex, mbSa1: ReadonlyMap<string, string>): Promise<Result<(mb: string) => number | undefined, InputError>> {
  // Remoteness Areas: RA_CODE_2021 is the state digit then the class (0 Major Cities … 4 Very
  // Remote; 5 and 9 are the migratory and no-usual-address codes, which hold no SAL anyone selects).
  // The geography descriptors write the same codes with a prefix ("RA34"), which is read too.
  // The ABS allocates RAs by SA1 (SA1_CODE_2021 → RA); a file keyed by mesh block is read too.
  const raKey = (await headerOf(files, RA_ALLOCATION))?.includes('MB_CODE_2021') ? 'MB_CODE_2021' : 'SA1_CODE_2021';
  const remotenessOf = new Map<string, number>();
  const problem = await eachRow(files, RA_ALLOCATION, [raKey, 'RA_CODE_2021'] as const, (get, row) => {
    const code = get('RA_CODE_2021').replace(/^RA/, '');
    if (!/^\d[0-59]$/.test(code)) return { file: RA_ALLOCATION, row, column: 'RA_CODE_2021', message: `not a Remoteness Area code: "${get('RA_CODE_2021')}"` };
    const cls = Number(code[1]);
    if (cls <= 4) remotenessOf.set(get(raKey), cls);
    return undefined;
  });
  if (problem) return err(problem);
  return ok((mb: string) => remotenessOf.get(raKey === 'MB_CODE_2021' ? mb : (mbSa1.get(mb) ?? '')));
}

/** Each SAL's name, state, area and its mesh blocks' GCCSAs and Remoteness Areas (SAL allocation file). */
async function readSalAllocation(
  files: FileIndex,
  { mbGccsa, mbSa1 }: { mbGccsa: ReadonlyMap<string, string>; mbSa1: ReadonlyMap<string, string> },
  mbRemoteness: (mb: string) => number | undefined,
): Promise<Result<Map<string, SalRecord>, InputError>> {
  const sals = new Map<string, SalRecord>();
  const problem = await eachRow(files, SAL_ALLOCATION, ['MB_CODE_2021', 'SAL_CODE_2021', 'SAL_NAME_2021', 'STATE_CODE_2021', 'AREA_ALBERS_SQKM'] as const, (get, row) => {
    const sal = salKey(get('SAL_CODE_2021'));
    if (!sal) return { file: SAL_ALLOCATION, row, column: 'SAL_CODE_2021', message: `not a SAL code: "${get('SAL_CODE_2021')}"` };
    if (isNonSpatialSal(sal)) return undefined;
    const state = STATE_BY_ABS_CODE[get('STATE_CODE_2021')];
    if (!state) return { file: SAL_ALLOCATION, row, column: 'STATE_CODE_2021', message: `unknown state code "${get('STATE_CODE_2021')}"` };
    const gccsa = mbGccsa.get(get('MB_CODE_2021'));
    if (gccsa === undefined)
      return { file: SAL_ALLOCATION, row, column: 'MB_CODE_2021', message: `mesh block ${get('MB_CODE_2021')} is not in ${MB_ALLOCATION}` };
    const remoteness = mbRemoteness(get('MB_CODE_2021'));
    if (remoteness === undefined)
      return {
        file: SAL_ALLOCATION,
        row,
        column: 'MB_CODE_2021',
        message: `mesh block ${get('MB_CODE_2021')} (SA1 ${mbSa1.get(get('MB_CODE_2021'))}) has no Remoteness Area in ${RA_ALLOCATION}`,
      };
    const area = Number(get('AREA_ALBERS_SQKM') || '0');
    if (!Number.isFinite(area) || area < 0) return { file: SAL_ALLOCATION, row, column: 'AREA_ALBERS_SQKM', message: `not an area: "${get('AREA_ALBERS_SQKM')}"` };
    let rec = sals.get(sal);
    if (!rec)
      sals.set(sal, (rec = { absName: get('SAL_NAME_2021'), state, areaSqkm: 0, gccsaCounts: new Map(), remotenessCounts: [0, 0, 0, 0, 0], postcodes: [], lgas: [] }));
    rec.gccsaCounts.set(gccsa, (rec.gccsaCounts.get(gccsa) ?? 0) + 1);
    rec.remotenessCounts[remoteness]! += 1;
    rec.areaSqkm += area;
    return undefined;
  });
  if (problem) return err(problem);
  return ok(sals);
}

const ratioOf = (file: string, row: number, raw: string): number | InputError => {
  const r = Number(raw);
  return raw !== '' && Number.isFinite(r) && r >= 0 ? r : { file, row, column: 'RATIO_FROM_TO', message: `not a ratio: "${raw}"` };
};

const salOf = (sals: ReadonlyMap<string, SalRecord>, file: string, row: number, raw: string): SalRecord | InputError | null => {
  const sal = salKey(raw);
  if (!sal) return { file, row, column: 'SAL_CODE_2021', message: `not a SAL code: "${raw}"` };
  if (isNonSpatialSal(sal)) return null;
  return sals.get(sal) ?? { file, row, column: 'SAL_CODE_2021', message: `${sal} is not in ${SAL_ALLOCATION}` };
};

/** Each SAL's postcodes with their shares (SAL → POA correspondence). */
async function readPostcodes(files: FileIndex, sals: ReadonlyMap<string, SalRecord>): Promise<InputError | undefined> {
  return eachRow(files, SAL_POA_CORRESPONDENCE, ['SAL_CODE_2021', 'POA_CODE_2021', 'RATIO_FROM_TO'] as const, (get, row) => {
    const rec = salOf(sals, SAL_POA_CORRESPONDENCE, row, get('SAL_CODE_2021'));
    if (rec === null) return undefined;
    if ('message' in rec) return rec;
    const ratio = ratioOf(SAL_POA_CORRESPONDENCE, row, get('RATIO_FROM_TO'));
    if (typeof ratio !== 'number') return ratio;
    const code = get('POA_CODE_2021').replace(/^POA/, '');
    if (!/^\d{4}$/.test(code)) return { file: SAL_POA_CORRESPONDENCE, row, column: 'POA_CODE_2021', message: `not a postcode: "${code}"` };
    rec.postcodes.push({ code, ratio });
    return undefined;
  });
}

/** Each SAL's LGAs with their shares (SAL → LGA correspondence). */
async function readLgas(files: FileIndex, sals: ReadonlyMap<string, SalRecord>): Promise<InputError | undefined> {
  return eachRow(
    files,
    SAL_LGA_CORRESPONDENCE,
    ['SAL_CODE_2021', 'LGA_CODE_2021', 'LGA_NAME_2021', 'RATIO_FROM_TO'] as const,
    (get, row) => {
      const rec = salOf(sals, SAL_LGA_CORRESPONDENCE, row, get('SAL_CODE_2021'));
      if (rec === null) return undefined;
      if ('message' in rec) return rec;
      const ratio = ratioOf(SAL_LGA_CORRESPONDENCE, row, get('RATIO_FROM_TO'));
      if (typeof ratio !== 'number') return ratio;
      const digits = get('LGA_CODE_2021').replace(/^LGA/, '');
      if (!/^\d{5}$/.test(digits)) return { file: SAL_LGA_CORRESPONDENCE, row, column: 'LGA_CODE_2021', message: `not an LGA code: "${digits}"` };
      rec.lgas.push({ code: `LGA${digits}`, name: lgaBaseName(get('LGA_NAME_2021')), ratio });
      return undefined;
    },
  );
}

/** Every SAL has a postcode and an LGA; each list ordered largest share first (ties: lower code). */
function orderShares(sals: ReadonlyMap<string, SalRecord>, codes: readonly string[]): InputError | undefined {
  for (const sal of codes) {
    const rec = sals.get(sal)!;
    if (rec.postcodes.length === 0) return { file: SAL_POA_CORRESPONDENCE, message: `${sal} (${rec.absName}) has no postcode` };
    if (rec.lgas.length === 0) return { file: SAL_LGA_CORRESPONDENCE, message: `${sal} (${rec.absName}) has no LGA` };
    rec.postcodes.sort(byShare);
    rec.lgas.sort(byShare);
  }
  return undefined;
}

/** The suburbs, in SAL code order, with their identifiers, primary postcode and LGA, GCCSA and Remoteness Area. */
function suburbsOf(sals: ReadonlyMap<string, SalRecord>, codes: readonly string[]): SuburbGeography[] {
  const parsed = new Map(codes.map((sal) => [sal, parseAbsName(sals.get(sal)!.absName)]));
  const ids = suburbIdentifiers(
    codes.map((sal) => {
      const rec = sals.get(sal)!;
      const p = parsed.get(sal)!;
      return { key: sal, name: p.name, state: rec.state, area: p.area ?? rec.lgas[0]!.name };
    }),
  );
  return codes.map((sal): SuburbGeography => {
    const rec = sals.get(sal)!;
    const gccsa = [...rec.gccsaCounts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
    // The class holding most of the SAL's mesh blocks; ties go to the more remote class.
    const remoteness = rec.remotenessCounts.reduce((best, n, cls) => (n >= rec.remotenessCounts[best]! ? cls : best), 0);
    return {
      level: 'sal',
      salCode: sal,
      absName: rec.absName,
      name: parsed.get(sal)!.name,
      suburbId: ids.get(sal)!,
      state: rec.state,
      postcodes: rec.postcodes,
      lgas: rec.lgas,
      postcode: rec.postcodes[0]!.code,
      lgaCode: rec.lgas[0]!.code,
      lgaName: rec.lgas[0]!.name,
      gccsa,
      remoteness,
      areaSqkm: Math.round(rec.areaSqkm * 1e4) / 1e4,
    };
  });
}
