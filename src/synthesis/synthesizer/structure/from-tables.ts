import { controlOf, tableOf } from '../../census/controls/controls.ts';
import type { SuburbTargets } from '../../census/targets.ts';
import { INPUT_TABLES } from '../../census/tables.ts';
import type { TableSpec } from '../../census/table-spec.ts';
import { categoryIndex } from '../../census/variables.ts';
import { borrowedIntegers } from '../borrow.ts';
import { largestRemainder, nearestIntegers } from '../integerise.ts';
import { ageFigures } from './age-figures.ts';
import { personsByAge } from './ages.ts';
import { AGES, DEFAULT_BANDS, FAMILY_TYPE_COUNT, MAX_AGE, TARGET_ROLE_COUNT, TargetRole, type RegisteredPartnerCap, type StructureTargets } from './model.ts';

/** Share of married persons (G05) who live with their spouse: the most that can be registered partners. */
const MARRIED_WITH_SPOUSE = 0.95;

export interface FromTablesOptions {
  readonly smallSuburb: boolean;
  /** Published table totals (table id → total), e.g. G01 Tot_P_P and G35 Total_Total: the anchors. */
  readonly totals?: ReadonlyMap<string, number>;
}

/** The table the structure step's row for `variable` binds (census/controls/controls.ts). */
const structureTable = (variable: string): string => tableOf(controlOf('structure', variable));

const spec = (id: string): TableSpec | undefined => INPUT_TABLES.find((t) => t.id === id);

const sumOf = (a: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.max(0, a[i] as number);
  return s;
};

/**
 * A table's cells as whole units adding up to `total`: the cells shifted to the total and, where
 * they are unreliable (a small area, or cells far short of the total), blended with the parent
 * area's shares (borrowedIntegers) with the table's own strength where one was chosen (SuburbTargets
 * borrowingStrength). The parent's cells also say which empty cells may take a unit.
 */
function reconcile(own: ArrayLike<number>, parent: ArrayLike<number> | undefined, total: number, small: boolean, pseudoCount: number | undefined): Int32Array {
  const shares = parent && parent.length === own.length ? Array.from(parent, (v) => Math.max(0, v)) : undefined;
  if (!shares || !shares.some((v) => v > 0)) return nearestIntegers(own, total);
  return borrowedIntegers(own, total, { parent: shares, open: shares.map((v) => (v > 0 ? 1 : 0)), small, ...(pseudoCount !== undefined ? { pseudoCount } : {}) });
}

/**
 * Reads what the structure builder needs from the input tables, by the meaning of each cell
 * (its variable conditions), not by header names: persons by sex (G01) × single-year age (G01's
 * age groups as every age × sex table publishes them, then G04's single years: ages.ts),
 * households by composition × size (G35), families by type and the share with a child under 15
 * (G29), households of two families (G29's families beyond G35's family households), and the
 * most registered partners (G05's married). Anchors: the published totals when given (G01/G04
 * persons; G35/G42 dwellings), else the tables' own cell sums. Persons by age × sex and
 * households by size come out whole, adding up to the anchors.
 */
export function structureTargetsFrom(targets: SuburbTargets, options: FromTablesOptions): StructureTargets {
  const { persons, personsByAgeSex } = personsFromTables(targets, options);
  const households = householdsFromG35(targets, options, persons);
  const families = familiesFromG29(targets, households.familyHouseholdsBySize);
  const fromG27 = rolesFromG27(targets);
  // With G27's registered partners the cap is only the bound every registered partner obeys (a
  // married person); without, it also keeps room for the married living apart from a spouse.
  const registeredPartnerCap = registeredCapFromG05(targets, fromG27 ? 1 : MARRIED_WITH_SPOUSE);
  const inPrivate = privatePersonsFromG27(targets, options.totals);
  if (fromG27) addNonPrivateRow(fromG27.roles.byRoleSexBand, personsByAgeSex);

  return {
    persons,
    ...(inPrivate ?? {}),
    ...(fromG27 ?? {}),
    ...(registeredPartnerCap ? { registeredPartnerCap } : {}),
    personsByAgeSex,
    ...households,
    ...families,
  };
}

/** The person anchor (G01's total) split by sex, and persons by sex × single-year age from every age figure. */
function personsFromTables(targets: SuburbTargets, options: FromTablesOptions): { persons: number; personsByAgeSex: Float64Array } {
  const [g01Id, g04Id] = [structureTable('SEXP'), structureTable('AGE5P')];
  const g01Cells = targets.tables.get(g01Id);
  const g01 = spec(g01Id);
  let g01BySex: [number, number] | undefined;
  if (g01 && g01Cells) {
    const bySex: number[] = [];
    g01.cells.forEach((cell, i) => {
      const keys = Object.keys(cell.where);
      if (keys.length === 1 && keys[0] === 'SEXP' && cell.where['SEXP']!.length === 1 && !cell.age) bySex[cell.where['SEXP']![0]!] = Math.max(0, g01Cells[i] as number);
    });
    if (bySex[0] !== undefined && bySex[1] !== undefined) g01BySex = [bySex[0], bySex[1]];
  }
  const g04 = spec(g04Id);
  const g04Cells = targets.tables.get(g04Id);
  const g04BySex = [0, 0];
  if (g04 && g04Cells) g04.cells.forEach((cell, i) => { const sex = cell.where['SEXP']?.[0]; if (sex !== undefined) g04BySex[sex]! += Math.max(0, g04Cells[i] as number); });
  const persons = Math.max(0, Math.round(
    options.totals?.get(g01Id) ?? options.totals?.get(g04Id) ?? (g01BySex ? g01BySex[0] + g01BySex[1] : g04BySex[0]! + g04BySex[1]!),
  ));
  // Persons by sex: G01's two single cells carry one perturbation each, G04's sums by sex
  // carry ~95 (and lose the small cells the ABS zeroes), so G01 splits the anchor when given.
  const sexes = largestRemainder(g01BySex && g01BySex[0] + g01BySex[1] > 0 ? g01BySex : g04BySex[0]! + g04BySex[1]! > 0 ? g04BySex : [1, 1], persons);
  const personsByAgeSex = g04 && g04Cells
    ? personsByAge(ageFigures(targets, options.smallSuburb), [sexes[0]!, sexes[1]!], options.smallSuburb, targets.borrowingStrength?.get(g04Id))
    : new Float64Array(2 * AGES);
  return { persons, personsByAgeSex };
}

/** Households by kind and size (G35), whole, adding up to the dwelling anchor. */
function householdsFromG35(
  targets: SuburbTargets,
  options: FromTablesOptions,
  persons: number,
): { dwellings: number; familyHouseholdsBySize: Float64Array; groupHouseholdsBySize: Float64Array; loneHouseholds: number } {
  const familyHouseholdsBySize = new Float64Array(7);
  const groupHouseholdsBySize = new Float64Array(7);
  let loneHouseholds = 0;
  const [g35Id, g42Id] = [structureTable('HHCD'), structureTable('DWTD')];
  const g35 = spec(g35Id);
  const g35Cells = targets.tables.get(g35Id);
  const g42Cells = targets.tables.get(g42Id);
  const dwellings = options.totals?.get(g35Id) ?? options.totals?.get(g42Id)
    ?? (g35Cells ? sumOf(g35Cells) : g42Cells ? sumOf(g42Cells) : 0);
  if (g35 && g35Cells) {
    // Whole households per cell, adding up to the dwelling anchor (as planHouseholds will use it).
    const households = Math.min(Math.max(0, Math.round(dwellings)), persons);
    const whole = reconcile(g35Cells, targets.parent?.lga.get(g35Id) ?? targets.parent?.state.get(g35Id), households, options.smallSuburb, targets.borrowingStrength?.get(g35Id));
    g35.cells.forEach((cell, i) => {
      const hhcd = cell.where['HHCD'];
      const nprd = cell.where['NPRD'];
      if (!hhcd || !nprd || nprd.length === 0) return;
      const size = Math.min(6, Math.min(...nprd) + 1);
      const v = whole[i] as number;
      if (hhcd.includes(0)) familyHouseholdsBySize[size] = (familyHouseholdsBySize[size] as number) + v;
      else if (size === 1) loneHouseholds += v; // a non-family household of one is a lone person
      else groupHouseholdsBySize[size] = (groupHouseholdsBySize[size] as number) + v;
    });
  }
  return { dwellings, familyHouseholdsBySize, groupHouseholdsBySize, loneHouseholds };
}

/** Families by type and the share with a child under 15 (G29); family households holding two families. */
function familiesFromG29(
  targets: SuburbTargets,
  familyHouseholdsBySize: Float64Array,
): { familiesByType?: Float64Array; under15Share?: Float64Array; familyHouseholdsByFamilies?: Float64Array } {
  let familiesByType: Float64Array | undefined;
  let under15Share: Float64Array | undefined;
  let familyHouseholdsByFamilies: Float64Array | undefined;
  const id = structureTable('FMCF');
  const g29 = spec(id);
  const g29Cells = targets.tables.get(id);
  if (g29 && g29Cells) {
    familiesByType = new Float64Array(FAMILY_TYPE_COUNT);
    const under15 = new Float64Array(FAMILY_TYPE_COUNT);
    // FMCF: 0 couple without children; 1–2 couple with children; 3–4 one parent; 5 other family.
    const typeOfFmcf = [0, 1, 1, 2, 2, 3];
    const withUnder15 = [false, true, false, true, false, false];
    g29.cells.forEach((cell, i) => {
      const fmcf = cell.where['FMCF'];
      if (!fmcf || fmcf.length === 0 || cell.count === 'members') return;
      const type = typeOfFmcf[fmcf[0] as number];
      if (type === undefined || fmcf.some((x) => typeOfFmcf[x] !== type)) return;
      const v = Math.max(0, g29Cells[i] as number);
      familiesByType![type] = (familiesByType![type] as number) + v;
      if (fmcf.length === 1 && withUnder15[fmcf[0] as number]) under15[type] = (under15[type] as number) + v;
    });
    under15Share = Float64Array.from(under15, (v, type) => ((familiesByType![type] as number) > 0 ? v / (familiesByType![type] as number) : Number.NaN));
    // G35 counts family households, G29 families: the difference lives in households of two families.
    let familyHouseholds = 0;
    for (let size = 1; size <= 6; size++) familyHouseholds += familyHouseholdsBySize[size] as number;
    const families = sumOf(familiesByType);
    if (familyHouseholds > 0 && families > familyHouseholds) {
      const two = Math.min(families - familyHouseholds, (familyHouseholdsBySize[4] as number) + (familyHouseholdsBySize[5] as number) + (familyHouseholdsBySize[6] as number));
      familyHouseholdsByFamilies = Float64Array.of(familyHouseholds - two, two, 0);
    }
  }
  return {
    ...(familiesByType ? { familiesByType } : {}),
    ...(under15Share ? { under15Share } : {}),
    ...(familyHouseholdsByFamilies ? { familyHouseholdsByFamilies } : {}),
  };
}

/** RLHP category → TargetRole (visitors and "not applicable" have none). */
const TARGET_ROLE_OF_RLHP: Readonly<Record<string, number>> = {
  'Partner in a registered marriage': TargetRole.Partner,
  'Partner in a de facto marriage': TargetRole.Partner,
  'Lone parent': TargetRole.LoneParent,
  'Child under 15': TargetRole.ChildUnder15,
  'Dependent student (aged 15-24 years)': TargetRole.DependentStudent,
  'Non-dependent child': TargetRole.NonDependentChild,
  'Other related individual': TargetRole.OtherRelated,
  'Unrelated individual living in family household': TargetRole.Unrelated,
  'Group household member': TargetRole.GroupMember,
  'Lone person': TargetRole.LonePerson,
  'Visitor (from within Australia)': TargetRole.Visitor,
};

const nb = DEFAULT_BANDS.length;

/**
 * Persons in occupied private dwellings (G27's published total, else its cells' sum) and, of
 * them, the visitors (its visitor cells): the split of G01's persons between households and
 * non-private dwellings (structure/residents.ts).
 */
function privatePersonsFromG27(targets: SuburbTargets, totals: FromTablesOptions['totals']): Pick<StructureTargets, 'privatePersons' | 'visitors'> | undefined {
  const id = structureTable('RLHP');
  const g27 = spec(id);
  const own = targets.tables.get(id);
  const total = totals?.get(id);
  if (!g27 || !own) return undefined;
  const visitor = categoryIndex('RLHP', 'Visitor (from within Australia)');
  let cells = 0;
  let visitors = 0;
  g27.cells.forEach((cell, i) => {
    const v = Math.max(0, (own[i] as number) || 0);
    cells += v;
    if (cell.where['RLHP']?.length === 1 && cell.where['RLHP'][0] === visitor) visitors += v;
  });
  return { privatePersons: total !== undefined && Number.isFinite(total) ? Math.max(0, total) : cells, visitors };
}

/**
 * The role table's last row: residents of non-private dwellings by sex × band, G04's persons
 * (all usual residents) less G27's (persons in occupied private dwellings, visitors included).
 * Only its shape is used: the person draw rakes it to the number the split gives.
 */
function addNonPrivateRow(byRoleSexBand: Float64Array, personsByAgeSex: Float64Array): void {
  const cols = 2 * nb;
  for (let sex = 0; sex < 2; sex++) {
    DEFAULT_BANDS.forEach(([lo, hi], band) => {
      let all = 0;
      for (let a = lo; a <= Math.min(hi, MAX_AGE); a++) all += personsByAgeSex[sex * AGES + a] as number;
      let inPrivate = 0;
      for (let r = 0; r < TargetRole.NonPrivate; r++) inPrivate += byRoleSexBand[r * cols + sex * nb + band] as number;
      byRoleSexBand[TargetRole.NonPrivate * cols + sex * nb + band] = Math.max(0, all - inPrivate);
    });
  }
}

/**
 * G27 (relationship in household by age by sex) as the role × sex × age band table the person
 * draw rakes to (its shape; the household plan fixes the role totals), and the de facto share of
 * partners per band.
 */
function rolesFromG27(
  targets: SuburbTargets,
): (Pick<StructureTargets, 'deFactoShareByBand' | 'registeredPartnersBySexBand' | 'deFactoPartnersBySexBand'> & { roles: { bands: typeof DEFAULT_BANDS; byRoleSexBand: Float64Array } }) | undefined {
  const id = structureTable('RLHP');
  const g27 = spec(id);
  const own = targets.tables.get(id);
  if (!g27 || !own) return undefined;
  const cols = 2 * nb;
  const byRoleSexBand = new Float64Array(TARGET_ROLE_COUNT * cols);
  const registered = new Float64Array(nb);
  const deFacto = new Float64Array(nb);
  const registeredBySexBand = new Float64Array(2 * nb);
  const deFactoBySexBand = new Float64Array(2 * nb);
  const rlhp = categoryIndex('RLHP', 'Partner in a registered marriage');
  const dfm = categoryIndex('RLHP', 'Partner in a de facto marriage');
  g27.cells.forEach((cell, i) => {
    const sex = cell.where['SEXP'];
    const rel = cell.where['RLHP'];
    if (!cell.age || sex?.length !== 1 || rel?.length !== 1) return;
    const band = DEFAULT_BANDS.findIndex(([lo, hi]) => lo === cell.age![0] && hi === Math.min(cell.age![1], hi));
    if (band < 0) return;
    const label = Object.keys(TARGET_ROLE_OF_RLHP).find((l) => categoryIndex('RLHP', l) === rel[0]);
    if (label === undefined) return;
    const v = Math.max(0, own[i] as number);
    const at = TARGET_ROLE_OF_RLHP[label]! * cols + sex[0]! * nb + band;
    byRoleSexBand[at] = (byRoleSexBand[at] as number) + v;
    if (rel[0] === rlhp) {
      registered[band] = (registered[band] as number) + v;
      registeredBySexBand[sex[0]! * nb + band] = (registeredBySexBand[sex[0]! * nb + band] as number) + v;
    }
    if (rel[0] === dfm) {
      deFacto[band] = (deFacto[band] as number) + v;
      deFactoBySexBand[sex[0]! * nb + band] = (deFactoBySexBand[sex[0]! * nb + band] as number) + v;
    }
  });
  if (!byRoleSexBand.some((v) => v > 0)) return undefined;
  const deFactoShareByBand = Float64Array.from(registered, (r, b) => (r + deFacto[b]! > 0 ? deFacto[b]! / (r + deFacto[b]!) : Number.NaN));
  return {
    roles: { bands: DEFAULT_BANDS, byRoleSexBand },
    deFactoShareByBand,
    registeredPartnersBySexBand: registeredBySexBand,
    deFactoPartnersBySexBand: deFactoBySexBand,
  };
}

/**
 * Most registered partners per sex × G05 age group: G05's married persons of that group, times
 * `share` (less the share who live apart from their spouse, where no table counts registered
 * partners themselves).
 */
function registeredCapFromG05(targets: SuburbTargets, share: number): RegisteredPartnerCap | undefined {
  const id = structureTable('MDCP');
  const g05 = spec(id);
  const values = targets.tables.get(id);
  if (!g05 || !values) return undefined;
  const married = categoryIndex('MSTP', 'Married');
  const cells = g05.cells.flatMap((cell, i) => {
    const sex = cell.where['SEXP'];
    const mstp = cell.where['MSTP'];
    return sex?.length === 1 && mstp?.length === 1 && mstp[0] === married ? [{ sex: sex[0]!, age: cell.age ?? ([15, MAX_AGE] as const), value: Math.max(0, values[i] ?? 0) }] : [];
  });
  const ranges: (readonly [number, number])[] = [];
  for (const { age } of cells) if (!ranges.some(([lo, hi]) => lo === age[0] && hi === age[1])) ranges.push(age);
  ranges.sort((a, b) => a[0] - b[0]);
  const sums = new Float64Array(2 * ranges.length);
  for (const { sex, age, value } of cells) sums[sex * ranges.length + ranges.findIndex(([lo, hi]) => lo === age[0] && hi === age[1])]! += value;
  return { ranges, bySexRange: sums.map((v) => Math.floor(share * v)) };
}
