/**
 * A level's areas sized to an estimated resident population (ERP), pure: each area's factor
 * (its estimate over its census count) and its census tables scaled by it before synthesis, every
 * cell, total and subtotal × the factor and rounded, so the synthesizer builds whole
 * households to the scaled tables exactly as it builds them to the census's: every structural
 * rule holds, the census's proportions are kept, and the fit is scored against the scaled tables.
 *
 * An SA2 is sized by its own estimate. Every other area by its SA2s' change: the census-weighted
 * mean of their factors (estimate ÷ census count) through the correspondences that place its
 * people in SA2s (docs/synthesis.md, "Sized to the estimated resident population"). With an
 * estimate by age and sex, an SA2's persons cells are scaled by age group and sex.
 */
import type { CensusInputs, InputError } from '../census/inputs.ts';
import { ERP_AGE_GROUPS, type AgeSexEstimate, type PopulationEstimate } from '../census/population-estimate.ts';
import type { CellSpec, TableSpec } from '../census/table-spec.ts';
import { INPUT_TABLES } from '../census/tables.ts';
import { publishedPersons } from './area-inputs.ts';

/** A share of an area's people in one SA2 (RATIO_FROM_TO), the links an area's change is carried through. */
export interface Sa2Share {
  readonly code: string;
  readonly ratio: number;
}

/** How an area's people are placed in SA2s: the shares, and which correspondence placed them (words for the report). */
export interface AreaSa2Links {
  readonly shares: readonly Sa2Share[];
  readonly via: string;
}

/** One area's census count, its estimate and how the estimate was reached. */
export interface AreaSize {
  readonly census: number;
  readonly estimate: number;
  readonly via: string;
}

export interface LevelSizing {
  /** Area code → its size. */
  readonly sizes: ReadonlyMap<string, AreaSize>;
  /** SA2 level with an estimate by age and sex: the SA2s sized by age group and sex. */
  readonly ageSex: ReadonlyMap<string, AgeSexEstimate>;
  /** Areas by how their estimate was reached ("own estimate": 301, "2021 postcode → SA2 correspondence": 170 …). */
  readonly byVia: Readonly<Record<string, number>>;
  readonly notes: readonly string[];
}

/**
 * Each SA2's factor: its estimate over its census count (G01 persons), or over its 2021 estimate
 * where the inputs hold no census count. SA2s with no count to set against have none.
 */
export function sa2Factors(estimate: Pick<PopulationEstimate, 'sa2' | 'base2021'>, census: ReadonlyMap<string, number> | undefined): Map<string, number> {
  const factors = new Map<string, number>();
  for (const [code, value] of estimate.sa2) {
    const base = census ? census.get(code) : estimate.base2021?.get(code);
    if (base !== undefined && base > 0) factors.set(code, value / base);
  }
  return factors;
}

/** A state's SA2s (those with a count to set against): their estimates and their census counts summed. */
export interface StateTotals {
  readonly estimate: number;
  readonly census: number;
}

/** Each state's SA2s' estimates and census counts summed (the SA2s with both). */
export function stateTotals(estimate: Pick<PopulationEstimate, 'sa2' | 'base2021'>, census: ReadonlyMap<string, number> | undefined, stateOf: (sa2: string) => string | undefined): Map<string, StateTotals> {
  const sums = new Map<string, { est: number; base: number }>();
  for (const [code, value] of estimate.sa2) {
    const base = census ? census.get(code) : estimate.base2021?.get(code);
    const state = stateOf(code);
    if (base === undefined || state === undefined) continue;
    const s = sums.get(state) ?? { est: 0, base: 0 };
    sums.set(state, { est: s.est + value, base: s.base + base });
  }
  return new Map([...sums].filter(([, s]) => s.base > 0).map(([state, s]) => [state, { estimate: s.est, census: s.base }]));
}

/** Areas of a level summing to this share of their state's SA2s' census count or more are calibrated to the state's estimate. */
export const CALIBRATION_COVERAGE = 0.95;

/**
 * A level's areas (not SA2s) in each state they cover whole, scaled alike so that they sum to
 * the state's SA2s' estimate: the SA2s' change carried through the correspondences misses what
 * the correspondences cannot place (suburbs linked through 2016's SA2s miss the SA2s split in
 * 2021, often the growing ones). Each area keeps its change relative to the others.
 */
function calibrateToStates(
  sizes: Map<string, AreaSize>,
  areas: CensusInputs['suburbs'],
  byState: ReadonlyMap<string, StateTotals>,
): Map<string, number> {
  const sums = new Map<string, { census: number; estimate: number }>();
  for (const area of areas) {
    const size = sizes.get(area.salCode);
    if (!size) continue;
    const s = sums.get(area.state) ?? { census: 0, estimate: 0 };
    sums.set(area.state, { census: s.census + size.census, estimate: s.estimate + size.estimate });
  }
  const calibration = new Map<string, number>();
  for (const [state, s] of sums) {
    const total = byState.get(state);
    if (!total || s.estimate <= 0 || s.census < CALIBRATION_COVERAGE * total.census) continue;
    calibration.set(state, total.estimate / s.estimate);
  }
  for (const area of areas) {
    const size = sizes.get(area.salCode);
    const k = calibration.get(area.state);
    if (size && k !== undefined) sizes.set(area.salCode, { ...size, estimate: size.estimate * k });
  }
  return calibration;
}

/** The mean of the SA2s' factors weighted by the area's shares in them (the SA2s with a factor); undefined where none has one. */
export function linkedFactor(shares: readonly Sa2Share[], factors: ReadonlyMap<string, number>): number | undefined {
  let weight = 0;
  let sum = 0;
  for (const { code, ratio } of shares) {
    const f = factors.get(code);
    if (f === undefined || !(ratio > 0)) continue;
    weight += ratio;
    sum += ratio * f;
  }
  return weight > 0 ? sum / weight : undefined;
}

/**
 * Every area of a level sized: an SA2 to its own estimate (an SA2 of the release the estimate
 * lacks is a problem), any other area by its SA2s' change through `linksOf` (its state's change
 * where it has no linked SA2 with a factor).
 */
export function sizeLevel(
  inputs: Pick<CensusInputs, 'level' | 'suburbs' | 'totals'>,
  estimate: PopulationEstimate,
  factors: ReadonlyMap<string, number>,
  byState: ReadonlyMap<string, StateTotals>,
  linksOf: (area: CensusInputs['suburbs'][number]) => AreaSa2Links,
  file: string,
): { sizes: LevelSizing; problems: InputError[] } {
  const sizes = new Map<string, AreaSize>();
  const problems: InputError[] = [];
  const byVia: Record<string, number> = {};
  for (const area of inputs.suburbs) {
    const census = publishedPersons(inputs as CensusInputs, area.salCode);
    let size: AreaSize | undefined;
    if (inputs.level === 'sa2') {
      const own = estimate.sa2.get(area.salCode);
      if (own === undefined) problems.push({ file, message: `no estimate for SA2 ${area.salCode} (${area.absName}), an area of the release` });
      else size = { census, estimate: own, via: 'own estimate' };
    } else {
      const links = linksOf(area);
      const f = linkedFactor(links.shares, factors);
      const state = byState.get(area.state);
      if (f !== undefined) size = { census, estimate: census * f, via: links.via };
      else if (state !== undefined) size = { census, estimate: (census * state.estimate) / state.census, via: 'its state\'s change (no SA2 linked)' };
      else problems.push({ file, message: `${area.suburbId} (${area.salCode}): no SA2 of its state in the estimate` });
    }
    if (!size) continue;
    sizes.set(area.salCode, size);
    byVia[size.via] = (byVia[size.via] ?? 0) + 1;
  }
  const ageSex = inputs.level === 'sa2' && estimate.ageSex ? estimate.ageSex : new Map<string, AgeSexEstimate>();
  const notes = inputs.level === 'sa2' && estimate.breakdown === 'totals' ? ['ages and sexes are the census\'s (the estimate has totals only)'] : [];
  const empty = [...sizes].filter(([, z]) => z.census === 0 && z.estimate > 0);
  if (empty.length > 0)
    notes.push(`${inputs.level}: ${empty.length} areas the census counted nobody in have an estimate (${empty.slice(0, 5).map(([code, z]) => `${code}: ${Math.round(z.estimate)}`).join(', ')}): they take their state's tables, scaled to it`);
  const calibration = inputs.level === 'sa2' ? new Map<string, number>() : calibrateToStates(sizes, inputs.suburbs, byState);
  for (const [state, k] of calibration) notes.push(`${inputs.level}: the areas of ${state} scaled by ${k.toFixed(4)} to sum to its SA2s' estimate`);
  return { sizes: { sizes, ageSex, byVia, notes }, problems };
}

/**
 * Each value to its nearest whole number, NaN kept where the census does not publish a cell: a
 * scaled table stays a table of counts, and a figure two tables publish alike (the same people
 * counted twice) stays alike in both. Rounding each table to its rounded sum instead (largest
 * remainders) breaks those equalities, and measured worse on real tables (docs/synthesis.md,
 * "Sized to the estimated resident population": G38 +23 %, G05 +10 % against the 2021 release).
 */
export function roundCells(values: Float64Array): Float64Array {
  return values.map((v) => (Number.isNaN(v) ? Number.NaN : Math.round(Math.max(0, v))));
}

/** The census's G04 cells of one SA2 (age by sex) with each one's age-group-and-sex factor: what an age × sex estimate makes of every persons cell. */
interface AgeSexFactors {
  readonly cells: readonly CellSpec[];
  readonly census: Float64Array;
  readonly factor: Float64Array;
}

const G04 = INPUT_TABLES.find((t) => t.id === 'G04');

function groupOf(age: readonly [number, number] | undefined): number {
  const a = age?.[0] ?? 0;
  return Math.min(ERP_AGE_GROUPS.length - 1, Math.floor(a / 5));
}

/**
 * Per G04 cell, the estimate over the census of its age group and sex (the total factor where the
 * census has no one there), all scaled so that their census-weighted mean is the total factor.
 */
export function ageSexFactors(g04: Float64Array, estimate: AgeSexEstimate, total: number): AgeSexFactors | undefined {
  if (!G04) return undefined;
  const groups = { male: new Float64Array(ERP_AGE_GROUPS.length), female: new Float64Array(ERP_AGE_GROUPS.length) };
  const sexOf = (cell: CellSpec): 'male' | 'female' => (cell.where['SEXP']?.[0] === 0 ? 'male' : 'female');
  G04.cells.forEach((cell, i) => {
    const v = g04[i]!;
    if (!Number.isNaN(v)) groups[sexOf(cell)][groupOf(cell.age)]! += v;
  });
  const factor = new Float64Array(G04.cells.length);
  G04.cells.forEach((cell, i) => {
    const sex = sexOf(cell);
    const g = groupOf(cell.age);
    const c = groups[sex][g]!;
    factor[i] = c > 0 ? estimate[sex][g]! / c : total;
  });
  // The all-ages, both-sexes factor is the total's (estimate ÷ G01 persons): G04 and G01 differ by the census's perturbation, and every table keeps its relation to G01.
  let weight = 0;
  let sum = 0;
  g04.forEach((v, i) => {
    if (v > 0) {
      weight += v;
      sum += v * factor[i]!;
    }
  });
  if (sum > 0) for (let i = 0; i < factor.length; i++) factor[i] = (factor[i]! * total * weight) / sum;
  return { cells: G04.cells, census: g04, factor };
}

/** A persons cell's factor: the census-weighted mean of the factors of the G04 cells of its ages and sex. */
function cellFactor(cell: CellSpec, by: AgeSexFactors, total: number): number {
  const sexes = cell.where['SEXP'];
  const [lo, hi] = cell.age ?? [0, 115];
  let weight = 0;
  let sum = 0;
  by.cells.forEach((g, i) => {
    const [a, b] = g.age ?? [0, 115];
    if (a < lo || b > hi) return;
    if (sexes && !sexes.includes(g.where['SEXP']?.[0] ?? -1)) return;
    const c = by.census[i]!;
    if (!(c > 0)) return;
    weight += c;
    sum += c * by.factor[i]!;
  });
  return weight > 0 ? sum / weight : total;
}

function scaleCells(cells: Float64Array, specs: readonly CellSpec[], universe: TableSpec['universe'], factor: number, by: AgeSexFactors | undefined): Float64Array {
  const scaled = new Float64Array(cells.length);
  for (let i = 0; i < cells.length; i++) scaled[i] = cells[i]! * (by && universe === 'persons' && specs[i] ? cellFactor(specs[i]!, by, factor) : factor);
  return scaled;
}

/** A table of one area scaled: its cells, subtotals and total each × its factor, rounded. */
function scaleTable(spec: TableSpec, cells: Float64Array, aggregates: Float64Array | undefined, total: number | undefined, factor: number, by: AgeSexFactors | undefined) {
  const scaledCells = roundCells(scaleCells(cells, spec.cells, spec.universe, factor, by));
  const scaledAggregates = aggregates ? roundCells(scaleCells(aggregates, spec.otherCells, spec.universe, factor, by)) : undefined;
  let sum = 0;
  let scaledSum = 0;
  cells.forEach((v, i) => {
    if (!Number.isNaN(v)) {
      sum += v;
      scaledSum += scaledCells[i]!;
    }
  });
  const totalAt = spec.totalHeader ? spec.otherHeaders.indexOf(spec.totalHeader) : -1;
  const scaledTotal =
    total === undefined ? undefined : totalAt >= 0 && scaledAggregates && !Number.isNaN(scaledAggregates[totalAt]!) ? scaledAggregates[totalAt]! : Math.round(total * (sum > 0 ? scaledSum / sum : factor));
  return { cells: scaledCells, aggregates: scaledAggregates, total: scaledTotal };
}

/**
 * The level's inputs with every sized area's tables scaled (areas without a size are left as
 * they are), and the states' and Australia's published tables scaled by the mean change of the
 * level's areas in them (the parents small areas borrow proportions from).
 */
export function scaleInputs(inputs: CensusInputs, sizing: LevelSizing): CensusInputs {
  const specs = new Map(INPUT_TABLES.map((t) => [t.id, t]));
  const tables = new Map<string, Map<string, Float64Array>>();
  const totals = new Map<string, Map<string, number>>();
  const aggregates = new Map<string, Map<string, Float64Array>>();
  const byArea = new Map<string, AgeSexFactors | undefined>();
  for (const [id, areas] of inputs.tables) {
    const spec = specs.get(id);
    const outCells = new Map<string, Float64Array>();
    const outTotals = new Map<string, number>();
    const outAggregates = new Map<string, Float64Array>();
    for (const [code, cells] of areas) {
      const size = sizing.sizes.get(code);
      const total = inputs.totals.get(id)?.get(code);
      const agg = inputs.aggregates.get(id)?.get(code);
      if (!spec || !size || !(size.census > 0)) {
        outCells.set(code, cells);
        if (total !== undefined) outTotals.set(code, total);
        if (agg) outAggregates.set(code, agg);
        continue;
      }
      const factor = size.estimate / size.census;
      if (!byArea.has(code)) byArea.set(code, ageSexOf(inputs, sizing, code, factor));
      const scaled = scaleTable(spec, cells, agg, total, factor, byArea.get(code));
      outCells.set(code, scaled.cells);
      if (scaled.total !== undefined) outTotals.set(code, scaled.total);
      if (scaled.aggregates) outAggregates.set(code, scaled.aggregates);
    }
    tables.set(id, outCells);
    totals.set(id, outTotals);
    aggregates.set(id, outAggregates);
  }
  // A total whose table has no cells here (the person count of an area whose G01 is not read) scales with its area.
  const scaledTotal = (code: string, total: number) => {
    const size = sizing.sizes.get(code);
    return size && size.census > 0 ? Math.round((total * size.estimate) / size.census) : total;
  };
  for (const [id, byCode] of inputs.totals) if (!totals.has(id)) totals.set(id, new Map([...byCode].map(([code, total]) => [code, scaledTotal(code, total)])));
  fillEmptyAreas(inputs, sizing, { tables, totals, aggregates });
  return { ...inputs, tables, totals, aggregates, parents: scaledParents(inputs, sizing, specs) };
}

/**
 * An area the census counted nobody in whose estimate has people (new housing since 2021): a
 * table of zeros scales to zeros, so it takes its state's published tables instead, scaled to its
 * estimate (its persons from the state's G04), their totals the scaled cells' sums (G01's the
 * estimate), no subtotals. Its structure is its state's, and the report says so.
 */
function fillEmptyAreas(
  inputs: CensusInputs,
  sizing: LevelSizing,
  into: { tables: Map<string, Map<string, Float64Array>>; totals: Map<string, Map<string, number>>; aggregates: Map<string, Map<string, Float64Array>> },
): void {
  for (const area of inputs.suburbs) {
    const size = sizing.sizes.get(area.salCode);
    const state = inputs.parents.states.get(area.state);
    const g04 = state?.get('G04');
    if (!size || size.census > 0 || !(size.estimate > 0) || !state || !g04) continue;
    const persons = g04.reduce((sum, v) => (Number.isNaN(v) ? sum : sum + v), 0);
    if (!(persons > 0)) continue;
    for (const [id, byArea] of into.tables) {
      const cells = state.get(id);
      if (!cells || !byArea.has(area.salCode)) continue;
      const scaled = roundCells(cells.map((v) => (v * size.estimate) / persons));
      byArea.set(area.salCode, scaled);
      const sum = scaled.reduce((s, v) => (Number.isNaN(v) ? s : s + v), 0);
      into.totals.get(id)?.set(area.salCode, id === 'G01' ? Math.round(size.estimate) : sum);
      into.aggregates.get(id)?.delete(area.salCode);
    }
    into.totals.get('G01')?.set(area.salCode, Math.round(size.estimate));
  }
}

function ageSexOf(inputs: CensusInputs, sizing: LevelSizing, code: string, factor: number): AgeSexFactors | undefined {
  const est = sizing.ageSex.get(code);
  const g04 = inputs.tables.get('G04')?.get(code);
  return est && g04 ? ageSexFactors(g04, est, factor) : undefined;
}

function scaledParents(inputs: CensusInputs, sizing: LevelSizing, specs: ReadonlyMap<string, TableSpec>): CensusInputs['parents'] {
  const sums = new Map<string, { est: number; census: number }>();
  let all = { est: 0, census: 0 };
  for (const area of inputs.suburbs) {
    const size = sizing.sizes.get(area.salCode);
    if (!size) continue;
    const s = sums.get(area.state) ?? { est: 0, census: 0 };
    sums.set(area.state, { est: s.est + size.estimate, census: s.census + size.census });
    all = { est: all.est + size.estimate, census: all.census + size.census };
  }
  const scaleAll = (tables: ReadonlyMap<string, Float64Array>, factor: number) =>
    new Map([...tables].map(([id, cells]) => [id, specs.has(id) ? roundCells(cells.map((v) => v * factor)) : cells]));
  const states = new Map([...inputs.parents.states].map(([state, tables]) => {
    const s = sums.get(state);
    return [state, s && s.census > 0 ? scaleAll(tables, s.est / s.census) : tables] as const;
  }));
  const australia = inputs.parents.australia && all.census > 0 ? scaleAll(inputs.parents.australia, all.est / all.census) : inputs.parents.australia;
  return { states, australia };
}

/** An area's synthesized persons against its estimate, within ±0.5 % or ±5 persons. */
export const withinEstimate = (persons: number, estimate: number): boolean => Math.abs(persons - estimate) <= Math.max(5, 0.005 * estimate);

export interface LevelPopulationFigures {
  readonly areas: number;
  /** The areas' census counts (G01 persons) summed. */
  readonly census_persons: number;
  /** The areas' estimates summed (rounded). */
  readonly estimated_persons: number;
  /** The persons synthesized in them. */
  readonly persons: number;
  /** How the areas' estimates were reached, areas by way. */
  readonly sized_by: Readonly<Record<string, number>>;
  /** Areas whose persons are within ±0.5 % (or ±5 persons) of their estimate. */
  readonly within_estimate: number;
  /** The area furthest from its estimate (relative). */
  readonly largest_miss: { readonly area: string; readonly persons: number; readonly estimate: number; readonly percent: number } | null;
}

export interface PopulationFigures {
  readonly year: number;
  readonly source: string;
  readonly breakdown: PopulationEstimate['breakdown'];
  readonly status?: PopulationEstimate['status'];
  readonly by_level: Readonly<Record<string, LevelPopulationFigures>>;
  /** Per state the estimate holds areas of: its SA2s' estimates summed, and each level's persons against it (percent off). */
  readonly by_state: Readonly<Record<string, { readonly estimate: number; readonly persons: Readonly<Record<string, number>>; readonly percent_off: Readonly<Record<string, number>> }>>;
  readonly notes: readonly string[];
}

/**
 * The build's figures against the estimate: per level, the areas' persons against their
 * estimates; per state, each level's persons against the state's SA2s' estimates summed.
 */
export function populationFigures(
  estimate: PopulationEstimate,
  levels: ReadonlyMap<string, { readonly sizing: LevelSizing; readonly fits: readonly { readonly salCode: string; readonly suburbId: string; readonly persons: number }[]; readonly stateOf: ReadonlyMap<string, string> }>,
  sa2State: (sa2: string) => string | undefined,
  notes: readonly string[],
): PopulationFigures {
  const byLevel: Record<string, LevelPopulationFigures> = {};
  const statePersons = new Map<string, Record<string, number>>();
  for (const [level, { sizing, fits, stateOf }] of levels) {
    let census = 0;
    let est = 0;
    let persons = 0;
    let within = 0;
    let miss: LevelPopulationFigures['largest_miss'] = null;
    for (const fit of fits) {
      const size = sizing.sizes.get(fit.salCode);
      if (!size) continue;
      census += size.census;
      est += size.estimate;
      persons += fit.persons;
      if (withinEstimate(fit.persons, size.estimate)) within++;
      const percent = size.estimate > 0 ? (100 * (fit.persons - size.estimate)) / size.estimate : 0;
      if (!miss || Math.abs(percent) > Math.abs(miss.percent)) miss = { area: fit.suburbId, persons: fit.persons, estimate: Math.round(size.estimate), percent };
      const state = stateOf.get(fit.salCode);
      if (state) {
        const s = statePersons.get(state) ?? {};
        s[level] = (s[level] ?? 0) + fit.persons;
        statePersons.set(state, s);
      }
    }
    byLevel[level] = { areas: fits.length, census_persons: census, estimated_persons: Math.round(est), persons, sized_by: sizing.byVia, within_estimate: within, largest_miss: miss };
  }
  const stateEstimates = new Map<string, number>();
  for (const [code, value] of estimate.sa2) {
    const state = sa2State(code);
    if (state) stateEstimates.set(state, (stateEstimates.get(state) ?? 0) + value);
  }
  const byState = Object.fromEntries(
    [...statePersons].sort(([a], [b]) => a.localeCompare(b)).map(([state, persons]) => {
      const e = stateEstimates.get(state) ?? 0;
      return [state, { estimate: e, persons, percent_off: Object.fromEntries(Object.entries(persons).map(([l, p]) => [l, e > 0 ? (100 * (p - e)) / e : 0])) }];
    }),
  );
  return { year: estimate.year, source: estimate.source, breakdown: estimate.breakdown, ...(estimate.status ? { status: estimate.status } : {}), by_level: byLevel, by_state: byState, notes };
}

/** The figures as lines of the build's text summary. */
export function renderPopulationFigures(f: PopulationFigures): string {
  const pct = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)} %`;
  const lines = [`sized to the ABS estimated resident population, 30 June ${f.year}${f.status ? ` (${f.status})` : ''}: ${f.source}; ${f.breakdown === 'age_sex' ? 'by age and sex' : 'totals only (ages are the census\'s)'}`];
  for (const [level, l] of Object.entries(f.by_level)) {
    const by = Object.entries(l.sized_by).map(([via, n]) => `${n} by ${via}`).join(', ');
    const miss = l.largest_miss ? `; furthest: ${l.largest_miss.area} ${l.largest_miss.persons} against ${l.largest_miss.estimate} (${pct(l.largest_miss.percent)})` : '';
    lines.push(`  ${level}: ${l.areas} areas, census ${l.census_persons} → estimate ${l.estimated_persons}, synthesized ${l.persons}; ${l.within_estimate} of ${l.areas} within ±0.5 % (or ±5 persons) of their estimate${miss}; ${by}`);
  }
  for (const [state, s] of Object.entries(f.by_state))
    lines.push(`  ${state}: estimate ${s.estimate}; ${Object.entries(s.persons).map(([l, p]) => `${l} ${p} (${pct(s.percent_off[l]!)})`).join(', ')}`);
  for (const note of f.notes) lines.push(`  ${note}`);
  return `${lines.join('\n')}\n`;
}
