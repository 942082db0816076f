import type { InputError } from '../synthesis/census/inputs.ts';
import { err, ok, type Result } from '../core/result.ts';
import type { Share } from './correspondence.ts';
import type { FileIndex } from './file-index.ts';
import { readWorkbookTable } from './xlsx-table.ts';

/**
 * The ABS ASGS 2016 correspondences a suburb build reads when the 2021 allocation files are not
 * there (population-weighted: RATIO is the share of the *from* area's people in each *to* area).
 * Found by name anywhere under the input directory, as the DataPack files are.
 */
export const CORRESPONDENCES_2016 = {
  sscSa2: { file: 'CG_SSC_2016_SA2_2016.xlsx', from: 'SSC_CODE_2016', fromName: 'SSC_NAME_2016', to: 'SA2_MAINCODE_2016', toName: 'SA2_NAME_2016' },
  sa1Ssc: { file: 'CG_SA1_2016_SSC_2016.xlsx', from: 'SA1_MAINCODE_2016', to: 'SSC_CODE_2016', toName: 'SSC_NAME_2016' },
  sa1Poa: { file: 'CG_SA1_2016_POA_2016.xlsx', from: 'SA1_MAINCODE_2016', to: 'POA_CODE_2016' },
  sa1Lga: { file: 'CG_SA1_2016_LGA_2018.xlsx', from: 'SA1_MAINCODE_2016', to: 'LGA_CODE_2018', toName: 'LGA_NAME_2018' },
  // For suburbs with no people in 2016 (no SA1 links them): their localities' postcodes, and LGAs through their SA2s.
  locSsc: { file: 'CG_LOC_2018_SSC_2016.xlsx', from: 'LOCALITY_2018', to: 'SSC_CODE_2016', extra: 'POSTCODE' },
  sa2Lga: { file: 'CG_SA2_2016_LGA_2018.xlsx', from: 'SA2_MAINCODE_2016', to: 'LGA_CODE_2018', toName: 'LGA_NAME_2018' },
} as const;

type Spec = { readonly file: string; readonly from: string; readonly to: string; readonly fromName?: string; readonly toName?: string; readonly extra?: string };

/** One row of a correspondence: `ratio` of the *from* area's people live in the *to* area. */
export interface CorrespondenceRow {
  readonly from: string;
  readonly fromName: string;
  readonly to: string;
  readonly toName: string;
  readonly ratio: number;
  /** A further column some correspondences carry (the locality's postcode). */
  readonly extra: string;
}

/** A correspondence's rows; a missing column, a ratio that is not a share, is an error naming file, row and column. */
export async function readCorrespondence(files: FileIndex, spec: Spec): Promise<Result<CorrespondenceRow[], InputError>> {
  const path = files.get(spec.file);
  if (!path) return err({ file: spec.file, message: 'ASGS 2016 correspondence is missing from the input directory (docs/inputs.md says where to download it)' });
  const wanted = [spec.from, spec.to, 'RATIO', ...(spec.fromName ? [spec.fromName] : []), ...(spec.toName ? [spec.toName] : []), ...(spec.extra ? [spec.extra] : [])];
  const read = await readWorkbookTable(path, spec.file, /^Table 3[a-z]?$/, wanted);
  if (!read.ok) return read;
  const rows: CorrespondenceRow[] = [];
  for (const r of read.value) {
    const ratio = Number(r.get('RATIO'));
    if (r.get('RATIO') === '' || !Number.isFinite(ratio) || ratio < 0 || ratio > 1 + 1e-9)
      return err({ file: spec.file, row: r.row, column: 'RATIO', message: `not a share: "${r.get('RATIO')}"` });
    const from = r.get(spec.from);
    const to = r.get(spec.to);
    if (!from || !to) return err({ file: spec.file, row: r.row, column: from ? spec.to : spec.from, message: 'empty code' });
    rows.push({ from, fromName: spec.fromName ? r.get(spec.fromName) : '', to, toName: spec.toName ? r.get(spec.toName) : '', ratio, extra: spec.extra ? r.get(spec.extra) : '' });
  }
  return ok(rows);
}

/** from → its *to* areas with their shares. */
export function sharesByFrom(rows: readonly CorrespondenceRow[]): Map<string, Share[]> {
  const out = new Map<string, Share[]>();
  for (const r of rows) {
    let list = out.get(r.from);
    if (!list) out.set(r.from, (list = []));
    list.push({ code: r.to, ratio: r.ratio });
  }
  return out;
}

/** What the 2016 correspondences say about each 2016 suburb (SSC). */
export interface Suburbs2016 {
  /** SSC code → its name as the ABS wrote it in 2016. */
  readonly names: ReadonlyMap<string, string>;
  /** SSC → SA2 2016 (its people's shares). */
  readonly sa2s: ReadonlyMap<string, readonly Share[]>;
  /** SA2 2016 code → name. */
  readonly sa2Names: ReadonlyMap<string, string>;
  /** SA1 2016 → SSC, → POA 2016, → LGA 2018 (each SA1's people's shares). */
  readonly sa1Ssc: ReadonlyMap<string, readonly Share[]>;
  readonly sa1Poa: ReadonlyMap<string, readonly Share[]>;
  readonly sa1Lga: ReadonlyMap<string, readonly Share[]>;
  /** LGA 2018 code → name (with the ABS type suffix). */
  readonly lgaNames: ReadonlyMap<string, string>;
  /** SSC → the postcodes of its localities (LOC 2018), each locality's share of the suburb. */
  readonly localityPostcodes: ReadonlyMap<string, readonly Share[]>;
  /** SA2 2016 → LGA 2018. */
  readonly sa2Lga: ReadonlyMap<string, readonly Share[]>;
}

/** Every correspondence file, each missing or malformed one reported, in one run. */
export async function loadSuburbs2016(files: FileIndex): Promise<Result<Suburbs2016, InputError[]>> {
  const specs = Object.values(CORRESPONDENCES_2016);
  const read = await Promise.all(specs.map((s) => readCorrespondence(files, s)));
  const problems = read.flatMap((r) => (r.ok ? [] : [r.error]));
  if (problems.length > 0) return err(problems);
  const [sscSa2, sa1Ssc, sa1Poa, sa1Lga, locSsc, sa2Lga] = read.map((r) => (r as { value: CorrespondenceRow[] }).value) as CorrespondenceRow[][] as [
    CorrespondenceRow[], CorrespondenceRow[], CorrespondenceRow[], CorrespondenceRow[], CorrespondenceRow[], CorrespondenceRow[],
  ];
  const names = new Map<string, string>();
  for (const r of sscSa2) names.set(r.from, r.fromName);
  for (const r of sa1Ssc) if (!names.has(r.to)) names.set(r.to, r.toName);
  return ok({
    names,
    sa2s: sharesByFrom(sscSa2),
    sa2Names: new Map(sscSa2.map((r) => [r.to, r.toName])),
    sa1Ssc: sharesByFrom(sa1Ssc),
    sa1Poa: sharesByFrom(sa1Poa),
    sa1Lga: sharesByFrom(sa1Lga),
    lgaNames: new Map([...sa2Lga, ...sa1Lga].map((r) => [r.to, r.toName])),
    localityPostcodes: sharesByFrom(locSsc.filter((r) => /^\d{3,4}$/.test(r.extra)).map((r) => ({ ...r, from: r.to, to: r.extra.padStart(4, '0') }))),
    sa2Lga: sharesByFrom(sa2Lga),
  });
}

/** True when the directory holds any of the 2016 correspondences (a suburb build then reads them all). */
export const hasSuburbs2016 = (files: FileIndex): boolean => Object.values(CORRESPONDENCES_2016).some((s) => files.has(s.file));
