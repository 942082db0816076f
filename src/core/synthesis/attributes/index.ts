/**
 * The attributes step of the sample-free synthesizer: given the linked structure (ages, sexes,
 * relationships, families, households), give every person, family and dwelling the rest of
 * its variables, fitted to the suburb's tables and coherent across levels. The method is in
 * docs/synthesis.md ("Attributes"); in short: each variable is dealt within the strata of the
 * table that carries it (exact by construction), split by a prior where the table ignores age
 * or another attribute, ranked where attributes go together (schooling, qualification,
 * income), and the household and family incomes are summed from the persons' and then brought
 * toward their own tables by swapping person incomes within strata.
 */
import type { Population } from '../../census/population.ts';
import type { SuburbTargets } from '../../census/targets.ts';
import { tableById } from '../../census/tables.ts';
import { categoryIndex, variableByCode, variablesOf } from '../../census/variables.ts';
import type { Rng } from '../rng.ts';
import { deriveLfsf } from './family.ts';
import { inheritCulture, matchPartnersOnEducation, type InheritReport } from './inherit.ts';
import { fitTable, type ClassPrior } from './fit.ts';
import {
  classifyAll,
  classifyEquivalised,
  incomeScale,
  makeObjective,
  personDollars,
  swapIncomes,
  tallyIncome,
  type SwapReport,
  type SwapTarget,
} from './income.ts';
import { isUninformative, notApplicableIndex, ordinalRanks } from './labels.ts';
import { cellValue, planTable, strataOf, type CategoryInfo, type CellLike } from './plan.ts';
import * as priors from './priors.ts';
// One smoothing strength for the whole synthesizer (structure and attributes).
import { SMALL_SUBURB_SMOOTHING } from '../structure/from-tables.ts';

export interface AttributeOptions {
  /** Small suburb (confidentiality threshold): smooth every table toward the parent area's. */
  readonly smallSuburb: boolean;
  /** DLOD category of the suburb (its remoteness area); no census table carries it. Default 0. */
  readonly dwellingLocation?: number;
}

export interface AttributeDiagnostics {
  /** Per variable: units moved out of a category their class forbids (infeasible inputs). */
  readonly forced: Record<string, number>;
  /** Variables with no table for this suburb, drawn from their prior alone. */
  readonly fromPriorOnly: string[];
  readonly incomeSwaps?: SwapReport;
  /** Family resemblance of the origin bundles before and after their swaps. */
  readonly culture?: InheritReport;
  /** Couples sharing a level of education before and after the work bundles' swaps. */
  readonly education?: InheritReport;
}

/** Swap proposals per person aged 15+ (docs/synthesis-attributes.md: error vs time). */
export const INCOME_SWAPS_PER_PERSON = 6;


export function assignAttributes(structure: Population, targets: SuburbTargets, rng: Rng, options: AttributeOptions): Population {
  return assignAttributesWithDiagnostics(structure, targets, rng, options).population;
}

const info = (code: string): CategoryInfo => {
  const cats = variableByCode(code).categories;
  return { count: cats.length, notApplicable: notApplicableIndex(cats) };
};

const fallbackOf = (code: string): number => {
  const cats = variableByCode(code).categories;
  const na = notApplicableIndex(cats);
  if (na >= 0) return na;
  const ns = cats.indexOf('Not stated');
  return ns >= 0 ? ns : 0;
};

const informativeOf = (code: string): boolean[] => variableByCode(code).categories.map((l) => !isUninformative(l));

/** Published cells, plus the table's other cells when the targets carry their values too. */
const extended = new WeakMap<object, readonly CellLike[]>();
function cellsFor(id: string, values: ArrayLike<number>): readonly CellLike[] {
  const table = tableById(id);
  if (values.length < table.cells.length + table.otherCells.length) return table.cells;
  let all = extended.get(table);
  if (!all) extended.set(table, (all = [...table.cells, ...table.otherCells]));
  return all;
}

interface Level {
  readonly count: number;
  readonly columns: Record<string, Uint8Array>;
  readonly known: Set<string>;
  readonly age?: Uint8Array;
}

interface FitExtras {
  readonly eligible?: Uint8Array;
  readonly prior?: ClassPrior;
  readonly score?: Float64Array;
  readonly ranked?: boolean;
  readonly preferNotApplicable?: boolean;
  readonly categoryWeights?: ArrayLike<number>;
  readonly resolve?: (unit: number, categories: readonly number[]) => number;
}

export function assignAttributesWithDiagnostics(
  structure: Population,
  targets: SuburbTargets,
  rng: Rng,
  options: AttributeOptions,
): { population: Population; diagnostics: AttributeDiagnostics } {
  const forced: Record<string, number> = {};
  const fromPriorOnly: string[] = [];
  const smoothing = options.smallSuburb ? SMALL_SUBURB_SMOOTHING : 0;
  const P = structure.persons.count;
  const age = structure.persons.age;
  const persons: Level = { count: P, columns: { ...structure.persons.variables }, known: new Set(Object.keys(structure.persons.variables)), age };
  const dwellings: Level = { count: structure.dwellings.count, columns: { ...structure.dwellings.variables }, known: new Set(Object.keys(structure.dwellings.variables)) };

  /** Fits `codes` jointly to table `id`; false when the suburb has no values for it. */
  const fit = (level: Level, id: string, codes: readonly string[], extras: FitExtras = {}): boolean => {
    const values = targets.tables.get(id);
    if (!values) return false;
    const cells = cellsFor(id, values);
    const plan = planTable(id, cells, codes, level.known, info);
    const parent = targets.parent?.lga.get(id) ?? targets.parent?.state.get(id);
    const result = fitTable(
      {
        plan,
        target: values,
        parent,
        units: level.count,
        conditionColumns: plan.conditionVars.map((v) => level.columns[v]!),
        age: level.age,
        eligible: extras.eligible,
        smoothing,
        informative: codes.map(informativeOf),
        fallback: codes.map(fallbackOf),
        preferNotApplicable: extras.preferNotApplicable,
        categoryWeights: extras.categoryWeights,
        resolve: extras.resolve,
        prior: extras.prior,
        score: extras.score,
        categoryRank: extras.ranked ? ordinalRanks(variableByCode(codes[0]!).categories) : undefined,
      },
      rng,
    );
    codes.forEach((code, t) => {
      level.columns[code] = result.values[t]!;
      level.known.add(code);
    });
    if (result.forced > 0) forced[codes[0]!] = (forced[codes[0]!] ?? 0) + result.forced;
    return true;
  };

  /** Draws `code` from its prior alone (no table carries it): one cumulative row per class. */
  const draw = (level: Level, code: string, prior: ClassPrior, eligible?: Uint8Array): void => {
    const fallback = fallbackOf(code);
    const k = variableByCode(code).categories.length;
    const cumulative = new Float64Array(prior.classes * k);
    for (let cls = 0; cls < prior.classes; cls++) {
      let run = 0;
      for (let c = 0; c < k; c++) cumulative[cls * k + c] = run += Math.max(0, prior.weight(cls, c));
    }
    const out = new Uint8Array(level.count).fill(fallback);
    for (let i = 0; i < level.count; i++) {
      if (eligible && !eligible[i]) continue;
      const base = prior.classOf[i]! * k;
      const total = cumulative[base + k - 1]!;
      if (!(total > 0)) continue;
      const u = rng.next() * total;
      let c = 0;
      while (c < k - 1 && cumulative[base + c]! <= u) c++;
      out[i] = c;
    }
    level.columns[code] = out;
    level.known.add(code);
  };

  const fitOrDraw = (level: Level, id: string, code: string, prior: ClassPrior, extras: FitExtras = {}): void => {
    if (!fit(level, id, [code], { ...extras, prior })) {
      fromPriorOnly.push(code);
      draw(level, code, prior, extras.eligible);
    }
  };

  // ------------------------------------------------------------------ persons
  const band = priors.bandOf(age);
  const adult = Uint8Array.from(age, (a) => (a >= 15 ? 1 : 0));
  // A latent "advantage" per person links schooling, qualification and income.
  const latent = new Float64Array(P);
  for (let i = 0; i < P; i++) latent[i] = rng.normal();
  const noisy = (signal: (i: number) => number, noise: number): Float64Array => {
    const out = new Float64Array(P);
    for (let i = 0; i < P; i++) out[i] = signal(i) + noise * rng.normal();
    return out;
  };

  fitOrDraw(persons, 'G46', 'LFSP', priors.matrixPrior(band, priors.LFSP_BY_AGE));
  const lfsp = persons.columns.LFSP!;
  const employedStatuses = new Set(
    ['Employed, worked full-time', 'Employed, worked part-time', 'Employed, away from work', 'Employed, hours of work not stated'].map((l) =>
      categoryIndex('LFSP', l),
    ),
  );
  const employed = Uint8Array.from(lfsp, (v) => (employedStatuses.has(v) ? 1 : 0));
  const fullTime = categoryIndex('LFSP', 'Employed, worked full-time');
  draw(persons, 'HRSP', priors.hrspPrior(lfsp), employed);
  fitOrDraw(persons, 'G60', 'OCCP', priors.occpPrior(age, latent), { eligible: employed });
  fitOrDraw(persons, 'G54', 'INDP', priors.indpPrior(persons.columns.OCCP!), { eligible: employed });
  fit(persons, 'G62', ['MTWP'], { eligible: employed }) || drawUniform(persons, 'MTWP', employed, rng, fromPriorOnly);

  // Persons G15 does not count: not attending, or attending a type not stated; their age says which.
  const typpPrior = priors.typpPrior(age, persons.columns.RLHP);
  fitOrDraw(persons, 'G15', 'TYPP', typpPrior, { resolve: byPrior(typpPrior, rng) });
  // G16 counts persons 15+ who no longer attend school: secondary students have no HSCP yet.
  const secondary = categoryIndex('TYPP', 'Secondary');
  const notAttending = categoryIndex('TYPP', 'Not applicable');
  const typp = persons.columns.TYPP!;
  const leftSchool = Uint8Array.from(age, (a, i) => (a >= 15 && typp[i] !== secondary ? 1 : 0));
  fitOrDraw(persons, 'G16', 'HSCP', priors.matrixPrior(band, priors.HSCP_BY_AGE), {
    eligible: leftSchool,
    ranked: true,
    score: noisy((i) => latent[i]!, 0.6),
  });
  const hscp = persons.columns.HSCP!;
  // Qualifications follow occupation as well as age (priors.heapPrior).
  fitOrDraw(persons, 'G49', 'HEAP', priors.heapPrior(age, persons.columns.OCCP!), {
    eligible: adult,
    ranked: true,
    score: noisy((i) => latent[i]!, 0.6),
    resolve: heapFromSchool(hscp),
  });
  const heap = persons.columns.HEAP!;
  // HEAP lists the highest levels first: postgraduate, graduate diploma, bachelor.
  const bachelorOrAbove = categoryIndex('HEAP', 'Bachelor Degree Level');
  // Income by work and qualification, as a score for G17's ranked deal (within each age band ×
  // sex): full-time work first, then other work; a degree and, less, a diploma or certificate
  // raise it (2021 Census: median incomes about $1,500 a week with a degree, $1,100 with a
  // certificate, $600 with school only). The weights are stronger than those log ratios because
  // the household income swaps below loosen the link again (docs/synthesis.md).
  const certificate = categoryIndex('HEAP', 'Certificate Level');
  // School students work a few hours a week at most: within G17's 15–19 band the high incomes
  // go to those who have left school.
  const incomeSignal = (i: number): number =>
    0.3 * latent[i]! +
    (lfsp[i] === fullTime ? 1.6 : employed[i] ? 0.9 : 0) +
    (heap[i]! <= bachelorOrAbove ? 0.9 : heap[i]! <= certificate ? 0.45 : 0) -
    (typp[i] === secondary ? 1.5 : 0);
  const incpFitted = fit(persons, 'G17', ['INCP'], { eligible: adult, ranked: true, score: noisy(incomeSignal, 0.5) });
  if (!incpFitted) drawUniform(persons, 'INCP', adult, rng, fromPriorOnly);
  // Partners matched on education: whole work bundles move between persons of one sex, age
  // group and attendance, so every table stays as dealt.
  const attending = Uint8Array.from(typp, (t) => (t === secondary ? 1 : t === notAttending ? 0 : 2));
  const education = matchPartnersOnEducation({ age, family: structure.persons.family, columns: persons.columns }, attending, rng);
  for (let i = 0; i < P; i++) employed[i] = employedStatuses.has(lfsp[i]!) ? 1 : 0;

  const mdcp = persons.columns.MDCP;
  fitOrDraw(persons, 'G05', 'MSTP', priors.mstpPrior(age, mdcp), { eligible: adult });
  fit(persons, 'G01', ['INGP']) || drawUniform(persons, 'INGP', undefined, rng, fromPriorOnly);
  fit(persons, 'G01', ['BPLP'], { categoryWeights: priors.BPLP_OVERSEAS_SHARES }) || drawUniform(persons, 'BPLP', undefined, rng, fromPriorOnly);
  const bplp = persons.columns.BPLP!;
  fitOrDraw(persons, 'G01', 'CITP', priors.citpPrior(bplp));
  fitOrDraw(persons, 'G01', 'LANP', priors.lanpPrior(bplp, persons.columns.INGP!, (options.dwellingLocation ?? 0) >= 3));
  draw(persons, 'ENGLP', priors.englpPrior(persons.columns.LANP!));
  fitOrDraw(persons, 'G14', 'RELP', priors.relpPrior(bplp));
  // Families hold together: origin bundles move between persons of the same sex and age group.
  const culture = inheritCulture({ age, family: structure.persons.family, columns: persons.columns }, rng);
  fitOrDraw(persons, 'G18', 'ASSNP', priors.matrixPrior(band, priors.ASSNP_BY_AGE));
  draw(persons, 'LTHP', priors.matrixPrior(band, priors.LTHP_BY_AGE));
  draw(persons, 'UAI5P', priors.matrixPrior(band, priors.UAI5P_BY_AGE), adult);
  fitOrDraw(persons, 'G23', 'VOLWP', priors.matrixPrior(band, priors.VOLWP_BY_AGE), { eligible: adult });
  for (const v of variablesOf('persons')) if (!persons.columns[v.code]) drawUniform(persons, v.code, undefined, rng, fromPriorOnly);

  // ------------------------------------------------------------------ incomes
  const incp = persons.columns.INCP!.slice(); // swaps below rewrite it
  persons.columns.INCP = incp;
  const dollars = personDollars(variableByCode('INCP').categories);
  const F = structure.families.count;
  const D = structure.dwellings.count;
  const hindScale = incomeScale(variableByCode('HIND').categories);
  const finfScale = incomeScale(variableByCode('FINF').categories);
  const dwellingTally = tallyIncome(D, structure.persons.dwelling, age, incp, dollars);
  const familyTally = tallyIncome(F, structure.persons.family, age, incp, dollars);
  const swapTargets: SwapTarget[] = [];
  const hindObjective = incomeObjective(targets, 'G33', 'HIND', D, dwellings, hindScale, dwellingTally);
  if (hindObjective) swapTargets.push({ objective: hindObjective, groupOf: structure.persons.dwelling });
  const familyLevel: Level = { count: F, columns: { ...structure.families.variables }, known: new Set(Object.keys(structure.families.variables)) };
  const finfObjective = incomeObjective(targets, 'G32', 'FINF', F, familyLevel, finfScale, familyTally);
  if (finfObjective) swapTargets.push({ objective: finfObjective, groupOf: structure.persons.family });
  let incomeSwaps: SwapReport | undefined;
  if (swapTargets.length > 0) {
    // Swap strata: G17's age band × sex, times employed / not employed and at school or not,
    // so G17 stays exact and income keeps its link with work and age while households get
    // room to move. (Adding degree / no degree made income × qualification worse: the ranked
    // deal links them more tightly than the census does, and the swaps loosen that.)
    const g17 = targets.tables.get('G17');
    const lfspCats = 4;
    const swapClass = (i: number): number => employed[i]! * 2 + (typp[i] === secondary ? 1 : 0);
    const stratum = new Int32Array(P).fill(-1);
    let strata = 0;
    if (g17) {
      const plan = planTable('G17', cellsFor('G17', g17), ['INCP'], persons.known, info);
      const s = strataOf(plan, P, plan.conditionVars.map((v) => persons.columns[v]!), age, adult);
      for (let i = 0; i < P; i++) if (s[i]! >= 0) stratum[i] = s[i]! * lfspCats + swapClass(i);
      strata = plan.strata.length * lfspCats;
    } else {
      const sexp = persons.columns.SEXP!;
      for (let i = 0; i < P; i++) if (adult[i]) stratum[i] = (band[i]! * 2 + sexp[i]!) * lfspCats + swapClass(i);
      strata = priors.PRIOR_BANDS.length * 2 * lfspCats;
    }
    incomeSwaps = swapIncomes(incp, dollars, stratum, strata, swapTargets, rng, INCOME_SWAPS_PER_PERSON);
  }
  dwellings.columns.HIND = classifyAll(hindScale, dwellingTally);
  dwellings.columns.HIED = classifyEquivalised(incomeScale(variableByCode('HIED').categories), dwellingTally);
  familyLevel.columns.FINF = classifyAll(finfScale, familyTally);
  familyLevel.columns.LFSF = deriveLfsf(F, structure.persons.family, persons.columns.RLHP!, lfsp);

  // ------------------------------------------------------------------ dwellings
  const nprd = dwellings.columns.NPRD!;
  const adultsIn = dwellingTally.adults;
  const householdDollars = dwellingTally.sum;
  const noisyD = (signal: (d: number) => number, noise: number): Float64Array => {
    const out = new Float64Array(D);
    for (let d = 0; d < D; d++) out[d] = signal(d) + noise * rng.normal();
    return out;
  };
  fitOrDraw(dwellings, 'G36', 'STRD', priors.matrixPrior(nprd, priors.STRD_BY_SIZE));
  const strd = dwellings.columns.STRD!;
  const house = categoryIndex('STRD', 'Separate house');
  fit(dwellings, 'G41', ['BEDRD'], { ranked: true, score: noisyD((d) => nprd[d]! + (strd[d] === house ? 1.5 : 0), 1) }) ||
    drawUniform(dwellings, 'BEDRD', undefined, rng, fromPriorOnly);
  const oldest = new Int32Array(D);
  for (let i = 0; i < P; i++) {
    const d = structure.persons.dwelling[i]!;
    if (age[i]! > oldest[d]!) oldest[d] = age[i]!;
  }
  const flat = Uint8Array.from(strd, (k) => (k >= 3 && k <= 7 ? 1 : 0));
  if (!fit(dwellings, 'G37', ['TEND', 'LLDD'], { prior: priors.tendPrior(oldest, flat, householdDollars) })) {
    drawUniform(dwellings, 'TEND', undefined, rng, fromPriorOnly);
    drawUniform(dwellings, 'LLDD', undefined, rng, fromPriorOnly);
  }
  const tend = dwellings.columns.TEND!;
  const lldd = (dwellings.columns.LLDD = dwellings.columns.LLDD!.slice());
  const rented = categoryIndex('TEND', 'Rented');
  const lldNa = fallbackOf('LLDD');
  const lldNs = categoryIndex('LLDD', 'Landlord type not stated');
  // Landlords belong to renters only: the tenure cells of owners do not name one.
  for (let d = 0; d < D; d++) {
    if (tend[d] !== rented) lldd[d] = lldNa;
    else if (lldd[d] === lldNa) lldd[d] = lldNs;
  }
  const renter = Uint8Array.from(tend, (t) => (t === rented ? 1 : 0));
  const mortgagor = Uint8Array.from(tend, (t) => (t === categoryIndex('TEND', 'Owned with a mortgage') ? 1 : 0));
  const byIncome = (): Float64Array => noisyD((d) => Math.log1p(Math.max(0, householdDollars[d]!)), 0.5);
  fit(dwellings, 'G40', ['RNTRD'], { eligible: renter, ranked: true, score: byIncome() }) ||
    drawUniform(dwellings, 'RNTRD', renter, rng, fromPriorOnly);
  fit(dwellings, 'G38', ['MRERD'], { eligible: mortgagor, ranked: true, score: byIncome() }) ||
    drawUniform(dwellings, 'MRERD', mortgagor, rng, fromPriorOnly);
  fit(dwellings, 'G34', ['VEHRD'], { ranked: true, score: noisyD((d) => adultsIn[d]! + (strd[d] === house ? 0.7 : 0), 0.8) }) ||
    drawUniform(dwellings, 'VEHRD', undefined, rng, fromPriorOnly);
  dwellings.columns.DLOD = new Uint8Array(D).fill(options.dwellingLocation ?? 0);
  for (const v of variablesOf('dwellings')) if (!dwellings.columns[v.code]) drawUniform(dwellings, v.code, undefined, rng, fromPriorOnly);

  const population: Population = {
    persons: { ...structure.persons, variables: persons.columns },
    families: { ...structure.families, variables: familyLevel.columns },
    dwellings: { ...structure.dwellings, variables: dwellings.columns },
  };
  return { population, diagnostics: { forced, fromPriorOnly, culture, education, ...(incomeSwaps ? { incomeSwaps } : {}) } };
}

/** Last resort for a variable whose table is missing: informative categories at random (eligible units), else the fallback. */
function drawUniform(level: Level, code: string, eligible: Uint8Array | undefined, rng: Rng, log: string[]): true {
  log.push(code);
  const informative = informativeOf(code);
  const choices = informative.flatMap((ok, k) => (ok ? [k] : []));
  const fallback = fallbackOf(code);
  const out = new Uint8Array(level.count).fill(fallback);
  for (let i = 0; i < level.count; i++) if ((!eligible || eligible[i]) && choices.length > 0) out[i] = choices[rng.int(choices.length)]!;
  level.columns[code] = out;
  level.known.add(code);
  return true;
}

/** A category within a cell's choice, drawn by the prior's weights for the unit's class. */
function byPrior(prior: ClassPrior, rng: Rng): (unit: number, categories: readonly number[]) => number {
  return (unit, categories) => {
    const cls = prior.classOf[unit]!;
    let total = 0;
    for (const k of categories) total += Math.max(0, prior.weight(cls, k));
    if (!(total > 0)) return categories[0]!;
    let u = rng.next() * total;
    for (const k of categories) if ((u -= Math.max(0, prior.weight(cls, k))) < 0) return k;
    return categories[categories.length - 1]!;
  };
}

/** HEAP for persons without a non-school qualification follows their schooling (G49 does not count them). */
function heapFromSchool(hscp: Uint8Array): (unit: number, categories: readonly number[]) => number {
  const y10plus = new Set(['Year 12 or equivalent', 'Year 11 or equivalent', 'Year 10 or equivalent', 'Not stated'].map((l) => categoryIndex('HSCP', l)));
  const none = categoryIndex('HSCP', 'Did not go to school');
  const sec10 = categoryIndex('HEAP', 'Secondary Education - Years 10 and above');
  const sec9 = categoryIndex('HEAP', 'Secondary Education - Years 9 and below');
  const noEdu = categoryIndex('HEAP', 'No educational attainment');
  return (unit, categories) => {
    const h = hscp[unit]!;
    const wanted = y10plus.has(h) ? sec10 : h === none ? noEdu : sec9;
    return categories.includes(wanted) ? wanted : categories[0]!;
  };
}

/** The swap objective of an income table (G33 for HIND, G32 for FINF); undefined when the suburb lacks it. */
function incomeObjective(
  targets: SuburbTargets,
  id: string,
  code: string,
  groups: number,
  level: Level,
  scale: ReturnType<typeof incomeScale>,
  tally: ReturnType<typeof tallyIncome>,
) {
  const values = targets.tables.get(id);
  if (!values) return undefined;
  const plan = planTable(id, cellsFor(id, values), [code], level.known, info);
  const stratumOf = strataOf(plan, groups, plan.conditionVars.map((v) => level.columns[v]!), undefined);
  const categories = variableByCode(code).categories.length;
  const cells = plan.strata.reduce((n, st) => n + st.cells.length, 0);
  const cellOf = new Int32Array(plan.strata.length * categories).fill(-1);
  const target = new Float64Array(cells);
  const sizes = new Float64Array(plan.strata.length);
  for (let g = 0; g < groups; g++) if (stratumOf[g]! >= 0) sizes[stratumOf[g]!]!++;
  let base = 0;
  plan.strata.forEach((st, s) => {
    // The synthetic stratum size is the truth for the count; the cells are brought to it by an
    // equal share of the difference each (perturbation noise is the same size in every cell;
    // see nearestIntegers). Real-valued: integer targets leave the annealing flat plateaus.
    const own = st.cells.map((cell) => cellValue(cell, values));
    const total = own.reduce((a, b) => a + b, 0);
    st.cells.forEach((cell, j) => {
      for (const k of cell.pattern[0]!) cellOf[s * categories + k] = base + j;
      target[base + j] = Math.max(0, own[j]! + (sizes[s]! - total) / own.length);
    });
    base += st.cells.length;
  });
  return makeObjective(scale, tally, stratumOf, categories, cellOf, target);
}
