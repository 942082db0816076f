/**
 * Realism figures a researcher checks with a cross-tab rather than a table fit (issue 10, item 5),
 * pooled over suburbs: this module gathers the measures, each defined (with its reference
 * figure) in its own file:
 *
 * (a) implausible.ts — how often a combination the census (nearly) never shows occurs: named
 *     checks, each a numerator over a denominator (IMPLAUSIBLE_CHECKS);
 *     couples.ts — couples' age gap and same-sex share, and mothers' age at their eldest
 *     child's birth; resemblance.ts — families against independence;
 * (b) associations.ts — how strongly pairs of person variables go together (Cramér's V), over
 *     stated categories;
 * (c) recovery.ts — how much of a validation cross-tab's joint structure the records recover
 *     beyond independence (the product of their own margins), against the truth, next to an
 *     oracle;
 * (d) here — all of it pooled over suburbs, overall and by suburb size band.
 *
 * Pure functions over populations, no I/O. Everything is tallied as counts that add over
 * suburbs (numerators and denominators, contingency tables, error sums; counts.ts), and rates, V
 * and shares are computed once from the pooled counts, never as averages of per-suburb figures.
 */
import type { Population } from '../census/population.ts';
import { VALIDATION_TABLES } from '../census/tables.ts';
import type { TableSpec } from '../census/table-spec.ts';
import { tabulate } from '../census/tabulate.ts';
import { variableByCode } from '../census/variables.ts';
import { addPairCounts, countIndigenousLanguage, cramersVOfCounts, inRemoteArea, REALISM_PAIRS, type PairSpec, type PersonFilter } from './associations.ts';
import { addHistogram, addRate, emptyRate, rateOf, type Rate } from './counts.ts';
import { addCouples, countCouples, countMothers, coupleFigures, emptyCoupleTally, emptyMotherTally, motherFigures, type CoupleFigures, type CoupleTally, type MotherFigures, type MotherTally } from './couples.ts';
import { IMPLAUSIBLE_CHECKS, type ImplausibleCheck } from './implausible.ts';
import { sizeBand, SIZE_BANDS, type SizeBand } from './metrics.ts';
import {
  addRecovery, crossTabLayout, emptyCellErrors, errorRemovedOf, independenceTable, recoveryErrors, restrictCrossTab, shareOfErrorRemoved,
  type CrossTabLayout, type ErrorRemoved, type RecoveryInput, type RecoveryTally,
} from './recovery.ts';
import { addResemblance, countResemblance, emptyResemblanceTally, resemblanceFigures, type ResemblanceFigures, type ResemblanceTally } from './resemblance.ts';

// ------------------------------------------------------------------ summary over suburbs

/**
 * One suburb's records: the synthesizer's, and where known the truth's (records, or only its
 * validation cross-tabs, as a build of demo inputs has them) and an independent second draw of
 * the truth model. A real-data build has none of the truth: its rates and Cramér's V stand alone.
 */
export interface SuburbRealism {
  readonly synthetic: Population;
  readonly truth?: Population;
  /** The truth's validation cross-tabs (table id → cells), when its records are not at hand. */
  readonly truthTables?: ReadonlyMap<string, ArrayLike<number>>;
  readonly oracle?: Population;
  /** Persons that place the suburb in a size band (default: the synthetic persons, which equal the published total). */
  readonly persons?: number;
}

export interface RealismOptions {
  readonly checks?: readonly ImplausibleCheck[];
  readonly pairs?: readonly PairSpec[];
  /** Full cross-tabs to score (default VALIDATION_TABLES). */
  readonly tables?: readonly TableSpec[];
  /** Who counts for the Indigenous-language share (default: persons in Remote or Very Remote Australia). */
  readonly indigenousLanguageAmong?: PersonFilter;
}

/** Counts of one source (synthetic, truth or oracle) pooled over suburbs. */
export interface SourceTally {
  implausible: Record<string, Rate>;
  /** Families against independence: couples and children alike (resemblance.ts). */
  resemblance: ResemblanceTally;
  couples: CoupleTally;
  mothers: MotherTally;
  pairs: Record<string, Float64Array>;
  indigenousLanguage: Rate;
}

/**
 * One cross-tab summed over suburbs, per source: what a researcher tabulating a whole LGA or
 * state sees. Summed, the truth's own sampling noise mostly cancels, so the figure shows the
 * joint structure kept rather than one draw's noise. `independence` sums each suburb's own
 * independence baseline (not the pooled margins' product, which would add between-suburb
 * association the synthesizer gets from its per-suburb tables).
 */
export interface PooledTables {
  synthetic: Float64Array;
  truth: Float64Array;
  independence: Float64Array;
  oracle?: Float64Array;
  oracleIndependence?: Float64Array;
}

/** Recovery errors of one table: over all cells, and over stated categories only (restrictCrossTab); per suburb and pooled. */
export interface TableRecoveryTally {
  cells: RecoveryTally;
  stated: RecoveryTally;
  pooled?: PooledTables;
  pooledStated?: PooledTables;
}

function addPooled(into: PooledTables | undefined, from: RecoveryInput | PooledTables): PooledTables {
  const add = (a: Float64Array | undefined, b: ArrayLike<number>) => {
    const out = a ?? new Float64Array(b.length);
    for (let i = 0; i < b.length; i++) out[i]! += b[i]!;
    return out;
  };
  const out: PooledTables = into ?? { synthetic: new Float64Array(from.truth.length), truth: new Float64Array(from.truth.length), independence: new Float64Array(from.truth.length) };
  add(out.synthetic, from.synthetic);
  add(out.truth, from.truth);
  add(out.independence, from.independence);
  if (from.oracle) out.oracle = add(out.oracle, from.oracle);
  if (from.oracleIndependence) out.oracleIndependence = add(out.oracleIndependence, from.oracleIndependence);
  return out;
}

export interface GroupTally {
  suburbs: number;
  persons: number;
  synthetic: SourceTally;
  truth?: SourceTally;
  oracle?: SourceTally;
  recovery: Record<string, TableRecoveryTally>;
}

interface Resolved {
  readonly checks: readonly ImplausibleCheck[];
  readonly pairs: readonly PairSpec[];
  readonly tables: readonly { readonly spec: TableSpec; readonly layout: CrossTabLayout }[];
  readonly indigenousLanguageAmong: PersonFilter;
}

const resolve = (o: RealismOptions): Resolved => ({
  checks: o.checks ?? IMPLAUSIBLE_CHECKS,
  pairs: o.pairs ?? REALISM_PAIRS,
  tables: (o.tables ?? VALIDATION_TABLES).map((spec) => ({ spec, layout: crossTabLayout(spec) })),
  indigenousLanguageAmong: o.indigenousLanguageAmong ?? inRemoteArea,
});

const pairCells = (pair: PairSpec) => variableByCode(pair.a).categories.length * variableByCode(pair.b).categories.length;

function emptySourceTally(r: Resolved): SourceTally {
  return {
    implausible: Object.fromEntries(r.checks.map((c) => [c.name, emptyRate()])),
    resemblance: emptyResemblanceTally(),
    couples: emptyCoupleTally(),
    mothers: emptyMotherTally(),
    pairs: Object.fromEntries(r.pairs.map((pair) => [pair.name, new Float64Array(pairCells(pair))])),
    indigenousLanguage: emptyRate(),
  };
}

/** Tallies (a) and (b) of one population. */
function sourceTally(pop: Population, r: Resolved): SourceTally {
  const t = emptySourceTally(r);
  for (const check of r.checks) check.count(pop, t.implausible[check.name]!);
  countResemblance(pop, t.resemblance);
  countCouples(pop, t.couples);
  countMothers(pop, t.mothers);
  for (const pair of r.pairs) addPairCounts(t.pairs[pair.name]!, pop, pair.a, pair.b, pair.keep);
  countIndigenousLanguage(pop, t.indigenousLanguage, r.indigenousLanguageAmong);
  return t;
}

function addSourceTally(into: SourceTally, from: SourceTally): void {
  for (const [name, rate] of Object.entries(from.implausible)) addRate((into.implausible[name] ??= emptyRate()), rate);
  addResemblance(into.resemblance, from.resemblance);
  addCouples(into.couples, from.couples);
  addHistogram(into.mothers, from.mothers);
  for (const [name, table] of Object.entries(from.pairs)) addHistogram((into.pairs[name] ??= new Float64Array(table.length)), table);
  addRate(into.indigenousLanguage, from.indigenousLanguage);
}

const emptyRecovery = (): RecoveryTally => ({ synthetic: emptyCellErrors(), independence: emptyCellErrors() });

/** (c) for one suburb: every table's errors against the truth, over all cells and over stated categories. */
function recoveryTally(s: SuburbRealism, r: Resolved): Record<string, TableRecoveryTally> {
  const out: Record<string, TableRecoveryTally> = {};
  for (const { spec, layout } of r.tables) {
    const known = s.truthTables?.get(spec.id);
    if (!s.truth && !known) continue;
    const truth = s.truth ? tabulate(s.truth, spec) : Float64Array.from(known!);
    const synthetic = tabulate(s.synthetic, spec);
    const oracle = s.oracle ? tabulate(s.oracle, spec) : undefined;
    const input = (lay: CrossTabLayout, syn: Float64Array, tru: Float64Array, ora: Float64Array | undefined): RecoveryInput => ({
      synthetic: syn,
      truth: tru,
      independence: independenceTable(syn, lay.sizes),
      ...(ora ? { oracle: ora, oracleIndependence: independenceTable(ora, lay.sizes) } : {}),
    });
    const stated = (x: Float64Array) => restrictCrossTab(x, layout).table;
    const statedLayout = restrictCrossTab(truth, layout).layout;
    const all = input(layout, synthetic, truth, oracle);
    const statedOnly = input(statedLayout, stated(synthetic), stated(truth), oracle && stated(oracle));
    out[spec.id] = {
      cells: recoveryErrors(all),
      stated: recoveryErrors(statedOnly),
      pooled: addPooled(undefined, all),
      pooledStated: addPooled(undefined, statedOnly),
    };
  }
  return out;
}

function emptyGroupTally(r: Resolved): GroupTally {
  return {
    suburbs: 0,
    persons: 0,
    synthetic: emptySourceTally(r),
    recovery: Object.fromEntries(r.tables.map(({ spec }) => [spec.id, { cells: emptyRecovery(), stated: emptyRecovery() }])),
  };
}

function addGroupTally(into: GroupTally, from: GroupTally, r: Resolved): void {
  into.suburbs += from.suburbs;
  into.persons += from.persons;
  addSourceTally(into.synthetic, from.synthetic);
  if (from.truth) addSourceTally((into.truth ??= emptySourceTally(r)), from.truth);
  if (from.oracle) addSourceTally((into.oracle ??= emptySourceTally(r)), from.oracle);
  for (const [id, t] of Object.entries(from.recovery)) {
    const to = (into.recovery[id] ??= { cells: emptyRecovery(), stated: emptyRecovery() });
    addRecovery(to.cells, t.cells);
    addRecovery(to.stated, t.stated);
    if (t.pooled) to.pooled = addPooled(to.pooled, t.pooled);
    if (t.pooledStated) to.pooledStated = addPooled(to.pooledStated, t.pooledStated);
  }
}

/** Everything (a)–(c) counts for one suburb, as a tally of one. */
export function suburbRealismTally(s: SuburbRealism, options: RealismOptions = {}): GroupTally {
  return suburbTally(s, resolve(options));
}

function suburbTally(s: SuburbRealism, r: Resolved): GroupTally {
  return {
    suburbs: 1,
    persons: s.persons ?? s.synthetic.persons.count,
    synthetic: sourceTally(s.synthetic, r),
    ...(s.truth ? { truth: sourceTally(s.truth, r) } : {}),
    ...(s.oracle ? { oracle: sourceTally(s.oracle, r) } : {}),
    recovery: recoveryTally(s, r),
  };
}

// ------------------------------------------------------------------ figures

export interface RateFigure extends Rate {
  rate: number | undefined;
}
const rateFigure = (r: Rate): RateFigure => ({ numerator: r.numerator, denominator: r.denominator, rate: rateOf(r) });

/** One source's figures over a set of suburbs. */
export interface SourceFigures {
  implausible: Record<string, RateFigure>;
  /** Couples and children alike, against independence, the synthesizer's target and the published figure. */
  resemblance: ResemblanceFigures;
  couples: CoupleFigures;
  /** Mothers' age at the eldest child's birth. */
  mothers: MotherFigures;
  cramersV: Record<string, number | undefined>;
  /** Indigenous persons speaking an Indigenous language (by default in remote and very remote areas). */
  indigenousLanguage: RateFigure;
}

export interface TableErrorRemoved {
  /** Over every cell of the cross-tab. */
  cells: ErrorRemoved;
  /** Over stated categories only (restrictCrossTab): no credit for structurally known "Not applicable" cells. */
  stated: ErrorRemoved;
  /** The cross-tab summed over the suburbs first (PooledTables), all cells and stated categories. */
  pooled?: ErrorRemoved;
  pooledStated?: ErrorRemoved;
}

export interface GroupFigures {
  suburbs: number;
  persons: number;
  synthetic: SourceFigures;
  truth?: SourceFigures;
  oracle?: SourceFigures;
  errorRemoved: Record<string, TableErrorRemoved>;
}

export interface RealismSummary {
  all: GroupFigures;
  /** Suburbs banded by persons: < 500, 500–4,999, ≥ 5,000. */
  byBand: Record<SizeBand, GroupFigures>;
}

export function sourceFigures(t: SourceTally, pairs: readonly PairSpec[] = REALISM_PAIRS): SourceFigures {
  return {
    implausible: Object.fromEntries(Object.entries(t.implausible).map(([name, r]) => [name, rateFigure(r)])),
    resemblance: resemblanceFigures(t.resemblance),
    couples: coupleFigures(t.couples),
    mothers: motherFigures(t.mothers),
    cramersV: Object.fromEntries(
      pairs.map((pair) => [pair.name, cramersVOfCounts(t.pairs[pair.name]!, variableByCode(pair.a).categories, variableByCode(pair.b).categories)]),
    ),
    indigenousLanguage: rateFigure(t.indigenousLanguage),
  };
}

export function groupFigures(t: GroupTally, pairs: readonly PairSpec[] = REALISM_PAIRS): GroupFigures {
  return {
    suburbs: t.suburbs,
    persons: t.persons,
    synthetic: sourceFigures(t.synthetic, pairs),
    ...(t.truth ? { truth: sourceFigures(t.truth, pairs) } : {}),
    ...(t.oracle ? { oracle: sourceFigures(t.oracle, pairs) } : {}),
    errorRemoved: Object.fromEntries(
      // Only the cross-tabs some suburb had a truth for (none in a build of real inputs).
      Object.entries(t.recovery).filter(([, x]) => x.pooled !== undefined).map(([id, x]) => [
        id,
        {
          cells: errorRemovedOf(x.cells),
          stated: errorRemovedOf(x.stated),
          ...(x.pooled ? { pooled: shareOfErrorRemoved(x.pooled) } : {}),
          ...(x.pooledStated ? { pooledStated: shareOfErrorRemoved(x.pooledStated) } : {}),
        },
      ]),
    ),
  };
}

/** Pools suburbs one at a time (overall and by size band); summary() turns the pooled counts into figures. */
export interface RealismAccumulator {
  add(suburb: SuburbRealism): void;
  /** Adds a tally built elsewhere (suburbRealismTally, e.g. in a worker) to the total and to `band`. */
  addTally(tally: GroupTally, band: SizeBand): void;
  readonly all: GroupTally;
  readonly byBand: Readonly<Record<SizeBand, GroupTally>>;
  summary(): RealismSummary;
}

export function createRealismAccumulator(options: RealismOptions = {}): RealismAccumulator {
  const r = resolve(options);
  const all = emptyGroupTally(r);
  const byBand = Object.fromEntries(SIZE_BANDS.map((b) => [b, emptyGroupTally(r)])) as Record<SizeBand, GroupTally>;
  const addTally = (tally: GroupTally, band: SizeBand) => {
    addGroupTally(all, tally, r);
    addGroupTally(byBand[band], tally, r);
  };
  return {
    all,
    byBand,
    addTally,
    add(suburb) {
      const tally = suburbTally(suburb, r);
      addTally(tally, sizeBand(tally.persons));
    },
    summary: () => ({
      all: groupFigures(all, r.pairs),
      byBand: Object.fromEntries(SIZE_BANDS.map((b) => [b, groupFigures(byBand[b], r.pairs)])) as Record<SizeBand, GroupFigures>,
    }),
  };
}

/** (a)–(c) pooled over many suburbs, overall and by size band (pooled counts, not averages of rates). */
export function summarizeRealism(suburbs: Iterable<SuburbRealism>, options: RealismOptions = {}): RealismSummary {
  const acc = createRealismAccumulator(options);
  for (const s of suburbs) acc.add(s);
  return acc.summary();
}

/**
 * A build's realism (synthetic records, scored against the truth's cross-tabs where it has
 * them) completed with a reference computed where the truth's records were at hand (the demo
 * generator: its `synthetic` is the truth itself, its `oracle` a second draw of the truth
 * model): the truth's and the oracle's rates and Cramér's V, and the oracle's share of error
 * removed, next to the build's own.
 */
export function withReference(build: RealismSummary, reference: RealismSummary): RealismSummary {
  const merge = (own: GroupFigures, ref: GroupFigures | undefined): GroupFigures => {
    if (!ref) return own;
    const oracleOf = (mine: ErrorRemoved | undefined, theirs: ErrorRemoved | undefined): ErrorRemoved | undefined =>
      mine ? { ...mine, ...(theirs ? { oracle: theirs.oracle, oracleSrmse: theirs.oracleSrmse } : {}) } : undefined;
    const errorRemoved = Object.fromEntries(
      Object.entries(own.errorRemoved).map(([id, mine]) => {
        const theirs = ref.errorRemoved[id];
        const pooled = oracleOf(mine.pooled, theirs?.pooled);
        const pooledStated = oracleOf(mine.pooledStated, theirs?.pooledStated);
        return [
          id,
          {
            cells: oracleOf(mine.cells, theirs?.cells)!,
            stated: oracleOf(mine.stated, theirs?.stated)!,
            ...(pooled ? { pooled } : {}),
            ...(pooledStated ? { pooledStated } : {}),
          },
        ];
      }),
    );
    return { ...own, truth: ref.synthetic, ...(ref.oracle ? { oracle: ref.oracle } : {}), errorRemoved };
  };
  return {
    all: merge(build.all, reference.all),
    byBand: Object.fromEntries(SIZE_BANDS.map((b) => [b, merge(build.byBand[b], reference.byBand[b])])) as Record<SizeBand, GroupFigures>,
  };
}
