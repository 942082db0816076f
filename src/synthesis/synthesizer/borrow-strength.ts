/**
 * How strongly small areas borrow from their parent, chosen per (table, size band) on the
 * published subtotals the borrowing does not see (issue 29, item 3; docs/synthesis.md, "Borrowing
 * strength per table and band").
 *
 * borrow.ts blends an unreliable area's cells with the parent's shares with k pseudo-units of
 * weight. Which k is right depends on how noisy the table's cells are against how much the area
 * differs from its parent, and both vary by table and area size. The census publishes, beside a
 * table's cells, subtotals that count the same cells again, each perturbed on its own
 * (quality/floor.ts). So, per table:
 *
 *  - strata: disjoint subtotals (smallest first) play the part of the fit's strata: their cells
 *    are estimated from the area's published cells and the stratum's published total, borrowing
 *    with strength k exactly as the build does (borrowStrength: equal shift, then the parent's
 *    shares where the cells are unreliable);
 *  - held out: every other subtotal that cuts across those strata (its cells lie in the strata,
 *    and it is no union of them) is predicted by summing the estimated cells, and scored
 *    against its published value, a figure the estimate did not use and whose perturbation is
 *    independent of the cells': its noise adds the same expected amount to every k's error.
 *
 * Over a band's areas, the k with the least squared error on the held-out subtotals is chosen,
 * where its gain over the default is more than chance (SIGNIFICANCE standard errors over the
 * band's areas). Where no k changes the error (the band's areas are reliable and large: nothing
 * is borrowed), the gain is within chance, or no subtotal can be held out, the default
 * BORROWING_PSEUDO_COUNT stays.
 */
import type { TableSpec } from '../census/table-spec.ts';
import { cellsWithinSubtotals } from '../census/subtotals.ts';
import { SIZE_BANDS, type SizeBand } from '../census/size-bands.ts';
import { BORROWING_PSEUDO_COUNT, borrowStrength, isReliable } from './borrow.ts';

/** The strengths tried, in pseudo-units of the parent's shares (0: no borrowing at all). */
export const STRENGTH_CANDIDATES: readonly number[] = [0, 0.5, 1, 1.5, 2, 3, 5, 8, 13, 20, 50, 200];

/** One area's figures of one table, for the choice. */
export interface StrengthArea {
  /** The table's cells as published (NaN where not: read as 0, as the build's structural zeros). */
  readonly published: ArrayLike<number>;
  /** Its totals and subtotals as published (otherCells order, NaN where not). */
  readonly subtotals: ArrayLike<number>;
  /** The parent's cells the build borrows from (LGA, else state; unpublished cells resolved). */
  readonly parent: ArrayLike<number> | undefined;
  /** The area is small: it borrows however complete its cells look (borrow.ts). */
  readonly small: boolean;
}

/** Which subtotals stand for the fit's strata, and which are held out to score them. */
export interface HeldOutDesign {
  /** Subtotal indices (otherCells order) whose cells are estimated within them. */
  readonly strata: readonly number[];
  /** Subtotal indices predicted from the estimate and scored. */
  readonly heldOut: readonly number[];
  /** For each cell, its stratum's position in `strata` (-1: in none). */
  readonly stratumOfCell: Int32Array;
}

/** For each of the table's subtotals, whether it holds one sex's cells and conditions on nothing else (an age range aside). */
export function sexOnlySubtotals(spec: TableSpec): boolean[] {
  return spec.otherCells.map((cell) => {
    const keys = Object.keys(cell.where);
    return keys.length === 1 && keys[0] === 'SEXP' && cell.where['SEXP']!.length === 1;
  });
}

/**
 * Strata: disjoint subtotals of two or more cells, taken in the order the fit conditions: first
 * the subtotals of one sex (and an age range), as the fit's strata of a persons table are age ×
 * sex and its cells the table's other variables; then the smallest of three or more cells; then
 * pairs (a cell's persons over its two sexes). Held out: every other subtotal of two or more cells
 * that lies inside the strata and cuts across at least one of them.
 */
export function heldOutDesign(within: readonly (readonly number[])[], cellCount: number, sexOnly: readonly boolean[] = []): HeldOutDesign {
  const stratumOfCell = new Int32Array(cellCount).fill(-1);
  const order = within.map((cells, j) => j).filter((j) => within[j]!.length >= 2);
  const rank = (j: number) => (sexOnly[j] ? 0 : within[j]!.length >= 3 ? 1 : 2);
  order.sort((a, b) => rank(a) - rank(b) || within[a]!.length - within[b]!.length || a - b);
  const strata: number[] = [];
  for (const j of order) {
    const cells = within[j]!;
    if (cells.length >= cellCount || cells.some((i) => stratumOfCell[i] !== -1)) continue;
    for (const i of cells) stratumOfCell[i] = strata.length;
    strata.push(j);
  }
  const heldOut = order.filter((j) => !strata.includes(j) && cutsAcross(within[j]!, within, strata, stratumOfCell));
  return { strata, heldOut, stratumOfCell };
}

/** Inside the strata, and not made of whole strata (else its prediction is the strata's totals, whatever k). */
function cutsAcross(cells: readonly number[], within: readonly (readonly number[])[], strata: readonly number[], stratumOfCell: Int32Array): boolean {
  const touched = new Map<number, number>();
  for (const i of cells) {
    const s = stratumOfCell[i]!;
    if (s < 0) return false;
    touched.set(s, (touched.get(s) ?? 0) + 1);
  }
  return [...touched].some(([s, n]) => n < within[strata[s]!]!.length);
}

/** One stratum of one area: its cells' own and parent values and its published total. */
interface AreaStratum {
  readonly cells: readonly number[];
  readonly own: number[];
  readonly parent: number[] | undefined;
  readonly open: number[] | undefined;
  readonly total: number;
  /** Unreliable with a parent to lean on: its estimate depends on k. */
  readonly borrows: boolean;
}

/**
 * Held-out error of one area as a function of k: the strata that do not borrow are estimated
 * once (their equal shift is the same at every k), the others at each k.
 */
export function heldOutScorer(design: HeldOutDesign, within: readonly (readonly number[])[], area: StrengthArea): { readonly borrows: boolean; error(k: number): { readonly squared: number; readonly checks: number } } {
  const strata: AreaStratum[] = design.strata.flatMap((j) => {
    const total = area.subtotals[j]!;
    if (!Number.isFinite(total) || total < 0) return [];
    const cells = within[j]!;
    const own = cells.map((i) => finiteOrZero(area.published[i]!));
    const parent = area.parent ? cells.map((i) => finiteOrZero(area.parent![i]!)) : undefined;
    const borrows = parent !== undefined && parent.some((v) => v > 0) && !isReliable(own.reduce((a, b) => a + b, 0), total, area.small);
    return [{ cells, own, parent, open: parent?.map((v) => (v > 0 ? 1 : 0)), total, borrows }];
  });
  const base = new Float64Array(area.published.length).fill(Number.NaN);
  for (const stratum of strata) if (!stratum.borrows) place(base, stratum, estimateStratum(stratum, area.small, 0));
  const borrowing = strata.filter((st) => st.borrows);
  return {
    borrows: borrowing.length > 0,
    error(k) {
      const estimate = borrowing.length > 0 ? base.slice() : base;
      for (const stratum of borrowing) place(estimate, stratum, estimateStratum(stratum, area.small, k));
      return scoreHeldOut(design, within, area, estimate);
    },
  };
}

/** The stratum's cells as the build estimates them at strength k (borrow.ts). */
const estimateStratum = (st: AreaStratum, small: boolean, k: number): Float64Array =>
  borrowStrength(st.own, st.total, { small, pseudoCount: k, ...(st.parent ? { parent: st.parent, open: st.open } : {}) });

function place(estimate: Float64Array, stratum: AreaStratum, values: Float64Array): void {
  stratum.cells.forEach((i, c) => (estimate[i] = values[c]!));
}

/** Squared error of the held-out subtotals against the estimate's sums, and how many were scored. */
function scoreHeldOut(design: HeldOutDesign, within: readonly (readonly number[])[], area: StrengthArea, estimate: Float64Array): { squared: number; checks: number } {
  let squared = 0;
  let checks = 0;
  for (const j of design.heldOut) {
    const published = area.subtotals[j]!;
    if (!Number.isFinite(published)) continue;
    let predicted = 0;
    for (const i of within[j]!) predicted += estimate[i]!;
    if (!Number.isFinite(predicted)) continue;
    squared += (predicted - published) ** 2;
    checks++;
  }
  return { squared, checks };
}

const finiteOrZero = (v: number): number => (Number.isFinite(v) ? Math.max(0, v) : 0);

/** The strength chosen for one (table, band), with what decided it. */
export interface StrengthChoice {
  /** The pseudo-units k the build uses. */
  readonly k: number;
  /** Whether the held-out subtotals decided k (false: no k beat the default by more than chance, or none could be held out; the default stays). */
  readonly decided: boolean;
  /** Areas and held-out subtotals scored. */
  readonly areas: number;
  readonly checks: number;
  /** Root mean squared error of the held-out subtotals at the chosen k, without borrowing (k = 0), and at the default k. */
  readonly rmse: number | null;
  readonly rmseWithout: number | null;
  readonly rmseDefault: number | null;
}

/**
 * The k of `candidates` that best predicts the held-out subtotals over `areas` (ties: the smaller
 * k), where it beats the default by more than chance: the band's areas are a sample, so the
 * per-area gain over the default must exceed SIGNIFICANCE standard errors of its mean; else the
 * default stays (decided: false).
 */
export function chooseStrength(
  design: HeldOutDesign,
  within: readonly (readonly number[])[],
  areas: readonly StrengthArea[],
  candidates: readonly number[] = STRENGTH_CANDIDATES,
  fallback: number = BORROWING_PSEUDO_COUNT,
  significance: number = SIGNIFICANCE,
): StrengthChoice {
  const tried = [...new Set([...candidates, 0, fallback])].sort((a, b) => a - b);
  const { perArea, checks, scored } = squaredErrors(design, within, areas, tried);
  const squared = tried.map((_, c) => perArea.reduce((sum, row) => sum + row[c]!, 0));
  const rmseOf = (k: number) => (checks > 0 ? Math.sqrt(squared[tried.indexOf(k)]! / checks) : null);
  let best = -1;
  for (let c = 0; c < tried.length; c++) if (candidates.includes(tried[c]!) && (best < 0 || squared[c]! < squared[best]! * (1 - 1e-12))) best = c;
  const decided = best >= 0 && beatsByMoreThanChance(perArea.map((row) => row[best]! - row[tried.indexOf(fallback)]!), significance);
  const k = decided ? tried[best]! : fallback;
  return { k, decided, areas: scored, checks, rmse: rmseOf(k), rmseWithout: rmseOf(0), rmseDefault: rmseOf(fallback) };
}

/** Standard errors by which a strength's mean gain over the default must exceed zero to replace it. */
export const SIGNIFICANCE = 2;

/** Whether per-area differences of squared error (candidate − default) are below zero by more than SIGNIFICANCE standard errors. */
function beatsByMoreThanChance(differences: readonly number[], significance: number): boolean {
  const n = differences.length;
  if (n === 0) return false;
  const mean = differences.reduce((a, b) => a + b, 0) / n;
  if (!(mean < 0)) return false;
  const variance = n > 1 ? differences.reduce((sum, d) => sum + (d - mean) ** 2, 0) / (n - 1) : 0;
  return -mean > significance * Math.sqrt(variance / n) + 1e-9 * Math.abs(mean);
}

/** Each scored area's squared held-out error at each k of `tried`, with the checks and areas scored. */
function squaredErrors(design: HeldOutDesign, within: readonly (readonly number[])[], areas: readonly StrengthArea[], tried: readonly number[]): { perArea: Float64Array[]; checks: number; scored: number } {
  const perArea: Float64Array[] = [];
  let checks = 0;
  for (const area of areas) {
    const scorer = heldOutScorer(design, within, area);
    // An area none of whose strata borrows scores the same at every k: scored once.
    const fixed = scorer.borrows ? undefined : scorer.error(0);
    const row = new Float64Array(tried.length);
    let counted = 0;
    tried.forEach((k, c) => {
      const error = fixed ?? scorer.error(k);
      row[c] = error.squared;
      counted = error.checks;
    });
    if (counted === 0) continue;
    checks += counted;
    perArea.push(row);
  }
  return { perArea, checks, scored: perArea.length };
}

/** One area as the choice over a level sees it: its size band and each table's figures. */
export interface StrengthAreaTables {
  readonly band: SizeBand;
  /** The table's figures in this area; undefined where the area has none of it. */
  figures(tableId: string): StrengthArea | undefined;
}

/** Per size band, the strength chosen (bands without areas are absent). */
export type BandStrengths = Readonly<Partial<Record<SizeBand, StrengthChoice>>>;

/**
 * The strength of every table with subtotals that can be held out, per size band, over a level's
 * areas. Tables whose subtotals give no held-out design, or that no area has, are absent: they
 * borrow with the default.
 */
export function chooseStrengths(specs: readonly TableSpec[], areas: readonly StrengthAreaTables[], significance: number = SIGNIFICANCE): Map<string, BandStrengths> {
  const chosen = new Map<string, BandStrengths>();
  for (const spec of specs) {
    const byBand = chooseTableStrengths(spec, tableStrengthAreas(spec.id, areas), significance);
    if (byBand) chosen.set(spec.id, byBand);
  }
  return chosen;
}

/** One table's figures in each area, with the area's band: what the choice for that table reads (plain data, so it can cross to a worker thread). */
export interface TableStrengthArea {
  readonly band: SizeBand;
  readonly figures: StrengthArea;
}

/** The areas that have the table, with their figures of it. */
export function tableStrengthAreas(tableId: string, areas: readonly StrengthAreaTables[]): TableStrengthArea[] {
  return areas.flatMap((a) => {
    const figures = a.figures(tableId);
    return figures ? [{ band: a.band, figures }] : [];
  });
}

/** One table's strength per size band (chooseStrengths); undefined where no subtotal can be held out or no area has the table. */
export function chooseTableStrengths(spec: TableSpec, areas: readonly TableStrengthArea[], significance: number = SIGNIFICANCE): BandStrengths | undefined {
  const within = cellsWithinSubtotals(spec);
  const design = heldOutDesign(within, spec.cells.length, sexOnlySubtotals(spec));
  if (design.heldOut.length === 0) return undefined;
  const byBand: Partial<Record<SizeBand, StrengthChoice>> = {};
  for (const band of SIZE_BANDS) {
    const inBand = areas.filter((a) => a.band === band).map((a) => a.figures);
    if (inBand.length > 0) byBand[band] = chooseStrength(design, within, inBand, STRENGTH_CANDIDATES, BORROWING_PSEUDO_COUNT, significance);
  }
  return Object.keys(byBand).length > 0 ? byBand : undefined;
}
