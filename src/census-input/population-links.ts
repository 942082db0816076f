import type { InputError, SuburbGeography } from '../synthesis/census/inputs.ts';
import { realParentLinks, realSalLinks } from './sal-links-reference.ts';
import { err, ok, type Result } from '../core/result.ts';
import { readCsvRows } from './csv.ts';
import { readDataPackPart } from './datapack.ts';
import type { InputIndex } from './file-index.ts';
import { readWorkbookTable } from './xlsx-table.ts';

/**
 * What a release sized to an estimated resident population needs besides the estimate: each
 * SA2's census count (its G01 persons, the count the estimate is set against) and the ABS 2021
 * correspondences that carry an SA2's change to postal areas (postcode → SA2) and LGAs (SA2 →
 * LGA 2022). Found by the ABS's file names anywhere under the input directory; the
 * correspondences as the ABS's xlsx or as csv with the same columns.
 */
export const POSTCODE_SA2_2021 = 'CG_POSTCODE_2021_SA2_2021';
export const SA2_LGA_2022 = 'CG_SA2_2021_LGA_2022';

/** A share of a from-area in a to-area (RATIO_FROM_TO). */
export interface Link {
  readonly code: string;
  readonly ratio: number;
}

export interface PopulationLinks {
  /** SA2 code → its census count (G01 Tot_P_P), where the inputs hold the SA2 DataPack. */
  readonly sa2Census: ReadonlyMap<string, number> | undefined;
  /** Postcode ("7000") → its SA2s, with the share of the postcode's people in each. */
  readonly postcodeSa2: ReadonlyMap<string, readonly Link[]> | undefined;
  /** SA2 code → its LGAs ("LGA62810"), with the share of the SA2's people in each. */
  readonly sa2Lga: ReadonlyMap<string, readonly Link[]> | undefined;
  /** What was found and what was not, one line each. */
  readonly notes: readonly string[];
}

export async function loadPopulationLinks(index: InputIndex): Promise<Result<PopulationLinks, InputError[]>> {
  const problems: InputError[] = [];
  const notes: string[] = [];
  const sa2Census = await sa2CensusCounts(index);
  if (!sa2Census.ok) problems.push(...sa2Census.error);
  else if (!sa2Census.value) notes.push('no SA2 DataPack G01 in the inputs: SA2s are set against their 2021 estimate instead of their census count');
  const postcodeSa2 = await readLinks(index, POSTCODE_SA2_2021, ['POSTCODE', 'SA2_CODE_2021', 'RATIO_FROM_TO'], (r) => [r[0]!.padStart(4, '0'), r[1]!, r[2]!]);
  if (!postcodeSa2.ok) problems.push(postcodeSa2.error);
  else if (!postcodeSa2.value) notes.push(`no ${POSTCODE_SA2_2021} correspondence: postal areas change with their suburbs' SA2s (the ABS 2016 correspondences)`);
  const sa2Lga = await readLinks(index, SA2_LGA_2022, ['SA2_CODE_2021', 'LGA_CODE_2022', 'RATIO_FROM_TO'], (r) => [r[0]!, `LGA${r[1]!}`, r[2]!]);
  if (!sa2Lga.ok) problems.push(sa2Lga.error);
  else if (!sa2Lga.value) notes.push(`no ${SA2_LGA_2022} correspondence: LGAs change with their state's SA2s`);
  if (problems.length > 0) return err(problems);
  return ok({
    sa2Census: sa2Census.ok ? sa2Census.value : undefined,
    postcodeSa2: postcodeSa2.ok ? postcodeSa2.value : undefined,
    sa2Lga: sa2Lga.ok ? sa2Lga.value : undefined,
    notes,
  });
}

/** Every SA2's G01 persons (Tot_P_P), from the SA2 DataPack's G01 file(s). */
async function sa2CensusCounts(index: InputIndex): Promise<Result<Map<string, number> | undefined, InputError[]>> {
  const files = index.dataPack.get('SA2')?.get('G01') ?? [];
  if (files.length === 0) return ok(undefined);
  const counts = new Map<string, number>();
  const problems: InputError[] = [];
  for (const found of files) {
    const read = await readDataPackPart(found.path, 'G01', { keyColumn: 'SA2_CODE_2021', headers: ['Tot_P_P'], key: (raw) => (/^\d{9}$/.test(raw.trim()) ? raw.trim() : null) });
    if (!read.ok) problems.push(read.error);
    else for (const [code, values] of read.value.rows) counts.set(code, values[0]!);
  }
  return problems.length > 0 ? err(problems) : ok(counts);
}

/** A correspondence, from → its to-areas with shares; undefined where the inputs do not hold it (xlsx or csv). */
async function readLinks(
  index: InputIndex,
  name: string,
  columns: readonly [string, string, string],
  shape: (row: readonly string[]) => [string, string, string],
): Promise<Result<Map<string, Link[]> | undefined, InputError>> {
  const csv = index.byName.get(`${name}.csv`);
  const xlsx = index.byName.get(`${name}.xlsx`);
  if (!csv && !xlsx) return ok(undefined);
  const rows: { row: number; values: string[] }[] = [];
  if (xlsx) {
    const read = await readWorkbookTable(xlsx, `${name}.xlsx`, new RegExp(name), columns);
    if (!read.ok) return read;
    for (const r of read.value) rows.push({ row: r.row, values: columns.map((c) => r.get(c)) });
  } else {
    let at: number[] | undefined;
    for await (const { row, fields } of readCsvRows(csv!)) {
      if (!at) {
        at = columns.map((c) => fields.indexOf(c));
        const absent = columns.filter((_, i) => at![i]! < 0);
        if (absent.length > 0) return err({ file: `${name}.csv`, row, message: `the header has no ${absent.join(', ')}` });
        continue;
      }
      rows.push({ row, values: at.map((i) => (fields[i] ?? '').trim()) });
    }
  }
  const links = new Map<string, Link[]>();
  for (const { row, values } of rows) {
    const [from, to, ratioText] = shape(values);
    const ratio = Number(ratioText);
    if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1.000001) return err({ file: name, row, column: 'RATIO_FROM_TO', message: `"${ratioText}" is not a share from 0 to 1` });
    if (ratio === 0) continue;
    let list = links.get(from);
    if (!list) links.set(from, (list = []));
    list.push({ code: to, ratio });
  }
  return ok(links);
}

/** How an area's people are placed in SA2s (shares summing to 1 or less) and through which correspondence, in words. */
export interface AreaSa2Shares {
  readonly shares: readonly Link[];
  readonly via: string;
}

export const VIA = {
  own: 'own estimate',
  postcode2021: 'its SA2s\' change (ABS 2021 postcode → SA2 correspondence)',
  lga2022: 'its SA2s\' change (ABS 2021 SA2 → LGA 2022 correspondence)',
  suburb2016: 'its SA2s\' change (ABS 2016 correspondences, suburbs → SA2s)',
  parent2016: 'its SA2s\' change (its suburbs\' ABS 2016 correspondences)',
} as const;

/**
 * Each area's SA2 shares for sizing: an SA2 is its own; a postal area through the 2021 postcode →
 * SA2 correspondence (else its suburbs' 2016 links); an LGA through the SA2 → LGA 2022
 * correspondence, each SA2 weighted by its people in the LGA (share × census count); a suburb
 * through the 2016 correspondences it was built with (or the ones the repository ships).
 */
export function areaSa2Shares(links: PopulationLinks): (area: SuburbGeography) => AreaSa2Shares {
  let lgaSa2: Map<string, Link[]> | undefined;
  const lgaShares = (lga: string): Link[] | undefined => {
    if (!links.sa2Lga) return undefined;
    if (!lgaSa2) {
      lgaSa2 = new Map();
      for (const [sa2, lgas] of links.sa2Lga)
        for (const l of lgas) {
          const people = l.ratio * (links.sa2Census?.get(sa2) ?? 1);
          let list = lgaSa2.get(l.code);
          if (!list) lgaSa2.set(l.code, (list = []));
          list.push({ code: sa2, ratio: people });
        }
    }
    return lgaSa2.get(lga);
  };
  return (area) => {
    switch (area.level) {
      case 'sa2':
        return { shares: [{ code: area.salCode, ratio: 1 }], via: VIA.own };
      case 'poa': {
        const own = links.postcodeSa2?.get(area.postcode);
        return own ? { shares: own, via: VIA.postcode2021 } : { shares: realParentLinks('postcodes').get(area.postcode)?.sa2s ?? [], via: VIA.parent2016 };
      }
      case 'lga': {
        const own = lgaShares(area.salCode);
        return own ? { shares: own, via: VIA.lga2022 } : { shares: realParentLinks('lgas').get(area.salCode)?.sa2s ?? [], via: VIA.parent2016 };
      }
      case 'sal':
        return { shares: area.sa2s ?? realSalLinks().get(area.salCode)?.sa2s ?? [], via: VIA.suburb2016 };
    }
  };
}
