import type { SuburbTargets } from '../../census/targets.ts';
import { INPUT_TABLES, type TableSpec } from '../../census/tables.ts';
import { smoothToward } from '../rake.ts';
import { AGES, FAMILY_TYPE_COUNT, type StructureTargets } from './model.ts';

/** Pseudo-count k of p = (n + k·p_parent) / (N + k) for small suburbs. */
export const SMALL_SUBURB_SMOOTHING = 30;

export interface FromTablesOptions {
  readonly smallSuburb: boolean;
  /** Published table totals (table id → total), e.g. G01 Tot_P_P and G35 Total_Total: the anchors. */
  readonly totals?: ReadonlyMap<string, number>;
}

const spec = (id: string): TableSpec | undefined => INPUT_TABLES.find((t) => t.id === id);

/** The suburb's cells of a table, smoothed toward the LGA (else state) for small suburbs. */
function cellsOf(targets: SuburbTargets, id: string, options: FromTablesOptions): Float64Array | undefined {
  const own = targets.tables.get(id);
  if (!own) return undefined;
  if (!options.smallSuburb) return own;
  const parent = targets.parent?.lga.get(id) ?? targets.parent?.state.get(id);
  return smoothToward(own, parent, SMALL_SUBURB_SMOOTHING);
}

const sumOf = (a: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.max(0, a[i] as number);
  return s;
};

/** Weights that spread an open top age group (e.g. 100+) over single years, thinning fast. */
function spreadWeights(lo: number, hi: number): number[] {
  const open = hi - lo > 10;
  return Array.from({ length: hi - lo + 1 }, (_, k) => (open ? 0.6 ** k : 1));
}

/**
 * Reads what the structure builder needs from the input tables, by the meaning of each cell
 * (its variable conditions), not by header names: persons by single-year age × sex (G04),
 * households by composition × size (G35), families by type (G29). Anchors: the published
 * totals when given (G01/G04 persons; G35/G42 dwellings), else the tables' own cell sums.
 */
export function structureTargetsFrom(targets: SuburbTargets, options: FromTablesOptions): StructureTargets {
  const personsByAgeSex = new Float64Array(2 * AGES);
  const g04 = spec('G04');
  const g04Cells = cellsOf(targets, 'G04', options);
  if (g04 && g04Cells) {
    g04.cells.forEach((cell, i) => {
      const sex = cell.where['SEXP']?.[0];
      if (sex === undefined || cell.where['SEXP']?.length !== 1 || !cell.age) return;
      const [lo, hi] = cell.age;
      const w = spreadWeights(lo, Math.min(hi, AGES - 1));
      const total = w.reduce((a, b) => a + b, 0);
      w.forEach((x, k) => { personsByAgeSex[sex * AGES + lo + k] = (personsByAgeSex[sex * AGES + lo + k] as number) + (Math.max(0, g04Cells[i] as number) * x) / total; });
    });
  }
  const g01Cells = targets.tables.get('G01');
  const g01 = spec('G01');
  let g01Persons: number | undefined;
  if (g01 && g01Cells) {
    let s = 0;
    let found = 0;
    g01.cells.forEach((cell, i) => {
      const keys = Object.keys(cell.where);
      if (keys.length === 1 && keys[0] === 'SEXP' && !cell.age) { s += Math.max(0, g01Cells[i] as number); found++; }
    });
    if (found === 2) g01Persons = s;
  }
  const persons = options.totals?.get('G01') ?? options.totals?.get('G04') ?? g01Persons ?? sumOf(personsByAgeSex);

  const familyHouseholdsBySize = new Float64Array(7);
  const groupHouseholdsBySize = new Float64Array(7);
  let loneHouseholds = 0;
  const g35 = spec('G35');
  const g35Cells = cellsOf(targets, 'G35', options);
  if (g35 && g35Cells) {
    g35.cells.forEach((cell, i) => {
      const hhcd = cell.where['HHCD'];
      const nprd = cell.where['NPRD'];
      if (!hhcd || !nprd || nprd.length === 0) return;
      const size = Math.min(6, Math.min(...nprd) + 1);
      const v = Math.max(0, g35Cells[i] as number);
      if (hhcd.includes(0)) familyHouseholdsBySize[size] = (familyHouseholdsBySize[size] as number) + v;
      else if (size === 1) loneHouseholds += v; // a non-family household of one is a lone person
      else groupHouseholdsBySize[size] = (groupHouseholdsBySize[size] as number) + v;
    });
  }
  const g42Cells = targets.tables.get('G42');
  const dwellings = options.totals?.get('G35') ?? options.totals?.get('G42')
    ?? (g35Cells ? sumOf(g35Cells) : g42Cells ? sumOf(g42Cells) : 0);

  let familiesByType: Float64Array | undefined;
  const g29 = spec('G29');
  const g29Cells = cellsOf(targets, 'G29', options);
  if (g29 && g29Cells) {
    familiesByType = new Float64Array(FAMILY_TYPE_COUNT);
    // FMCF: 0 couple without children; 1–2 couple with children; 3–4 one parent; 5 other family.
    const typeOfFmcf = [0, 1, 1, 2, 2, 3];
    g29.cells.forEach((cell, i) => {
      const fmcf = cell.where['FMCF'];
      if (!fmcf || fmcf.length === 0 || cell.count === 'members') return;
      const type = typeOfFmcf[fmcf[0] as number];
      if (type === undefined || fmcf.some((x) => typeOfFmcf[x] !== type)) return;
      familiesByType![type] = (familiesByType![type] as number) + Math.max(0, g29Cells[i] as number);
    });
  }

  return {
    persons,
    personsByAgeSex,
    dwellings,
    familyHouseholdsBySize,
    groupHouseholdsBySize,
    loneHouseholds,
    ...(familiesByType ? { familiesByType } : {}),
  };
}
