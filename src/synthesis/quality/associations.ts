/**
 * Associations between person variables that no input table links (the realism section of the
 * build report, "Cramér's V" and the Indigenous-language share).
 *
 * Definition. Cramér's V = sqrt(χ² / (n · (min(r, c) − 1))) of the a × b contingency table pooled
 * over suburbs, over stated categories (UNINFORMATIVE_LABELS left out): 0 = independent, 1 = one
 * variable fixes the other. Beside it, the share of Indigenous persons in Remote and Very Remote
 * Australia (with a stated language) who speak an Australian Indigenous language at home.
 *
 * Reference figure. The truth's own V, with a goal of ±30%: on the demo, religion × birthplace
 * 0.364, occupation × qualification 0.233, Indigenous status × language 0.148, and 35.8% of
 * remote Indigenous persons speaking an Indigenous language (docs/synthesis.md, "Joint realism").
 * A build of real inputs has no truth: its V stands alone.
 */
import type { Population } from '../census/population.ts';
import { categoryIndex, variableByCode } from '../census/variables.ts';
import { columnsOf, indices, type Rate } from './counts.ts';

const INDIGENOUS = indices('INGP', ['Aboriginal', 'Torres Strait Islander', 'Both Aboriginal and Torres Strait Islander']);

/**
 * Categories left out of association figures by default: not stated, not applicable, and the
 * catalogue's "inadequately described" / partly-stated residuals, which carry no category.
 */
export const UNINFORMATIVE_LABELS: ReadonlySet<string> = new Set([
  'Not stated',
  'Not applicable',
  'Inadequately described/Not stated',
  'Level of education inadequately described',
  'Partial income stated',
  'All incomes not stated',
  'Landlord type not stated',
]);
export const isInformative = (label: string): boolean => !UNINFORMATIVE_LABELS.has(label);

/** Which persons of a population to count. */
export type PersonFilter = (pop: Population, person: number) => boolean;

const REMOTE = indices('DLOD', ['Remote Australia', 'Very Remote Australia']);

/** Persons whose dwelling's location (DLOD) is Remote or Very Remote Australia. */
export const inRemoteArea: PersonFilter = (pop, p) => {
  const dlod = pop.dwellings.variables.DLOD;
  if (!dlod) throw new Error('population has no dwellings column DLOD');
  return REMOTE.has(dlod[pop.persons.dwelling[p]!]!);
};

/** Adds the a × b contingency table of one population (all categories, rows a's, b's varying fastest) to `into`. */
export function addPairCounts(into: Float64Array, pop: Population, a: string, b: string, keep?: PersonFilter): void {
  const nb = variableByCode(b).categories.length;
  if (into.length !== variableByCode(a).categories.length * nb) throw new RangeError(`${a}×${b} needs ${variableByCode(a).categories.length * nb} cells, got ${into.length}`);
  const { [a]: va, [b]: vb } = columnsOf(pop, 'persons', [a, b]);
  for (let p = 0; p < pop.persons.count; p++) if (!keep || keep(pop, p)) into[va![p]! * nb + vb![p]!]! += 1;
}

/** The a × b contingency table pooled over one or several populations. */
export function pairCounts(pops: Population | readonly Population[], a: string, b: string, keep?: PersonFilter): Float64Array {
  const out = new Float64Array(variableByCode(a).categories.length * variableByCode(b).categories.length);
  for (const pop of Array.isArray(pops) ? (pops as readonly Population[]) : [pops as Population]) addPairCounts(out, pop, a, b, keep);
  return out;
}

export interface AssociationOptions {
  /** Keep "Not stated", "Not applicable" and the other UNINFORMATIVE_LABELS (default: left out). */
  readonly includeUninformative?: boolean;
}

/**
 * Cramér's V = sqrt(χ² / (n · (min(r, c) − 1))) of a rows × cols table (row-major), where r
 * and c count the rows and columns with any count once uninformative categories are left out.
 * Labels name the categories (a number means that many categories, all informative). Plain V,
 * without small-sample bias correction: pooled tables are large. Undefined when the table has
 * fewer than two live rows or columns.
 */
export function cramersVOfCounts(counts: ArrayLike<number>, rowLabels: readonly string[] | number, colLabels: readonly string[] | number, options: AssociationOptions = {}): number | undefined {
  const rowsOf = (labels: readonly string[] | number) => (typeof labels === 'number' ? Array.from({ length: labels }, () => '') : labels);
  const rl = rowsOf(rowLabels);
  const cl = rowsOf(colLabels);
  if (counts.length !== rl.length * cl.length) throw new RangeError(`table has ${counts.length} cells, not ${rl.length} × ${cl.length}`);
  const keep = (l: string) => options.includeUninformative || isInformative(l);
  const nc = cl.length;
  const rowSum = new Float64Array(rl.length);
  const colSum = new Float64Array(nc);
  let n = 0;
  for (let i = 0; i < rl.length; i++) {
    if (!keep(rl[i]!)) continue;
    for (let j = 0; j < nc; j++) {
      if (!keep(cl[j]!)) continue;
      const x = counts[i * nc + j]!;
      rowSum[i]! += x;
      colSum[j]! += x;
      n += x;
    }
  }
  const liveRows = rowSum.filter((x, i) => x > 0 && keep(rl[i]!)).length;
  const liveCols = colSum.filter((x, j) => x > 0 && keep(cl[j]!)).length;
  if (n <= 0 || liveRows < 2 || liveCols < 2) return undefined;
  let chi2 = 0;
  for (let i = 0; i < rl.length; i++) {
    if (!(rowSum[i]! > 0) || !keep(rl[i]!)) continue;
    for (let j = 0; j < nc; j++) {
      if (!(colSum[j]! > 0) || !keep(cl[j]!)) continue;
      const expected = (rowSum[i]! * colSum[j]!) / n;
      const d = counts[i * nc + j]! - expected;
      chi2 += (d * d) / expected;
    }
  }
  return Math.min(1, Math.sqrt(chi2 / (n * (Math.min(liveRows, liveCols) - 1))));
}

/** Cramér's V of person variables a × b over one or several populations (optionally only the persons `keep` accepts). */
export function cramersV(pops: Population | readonly Population[], a: string, b: string, options: AssociationOptions & { readonly keep?: PersonFilter } = {}): number | undefined {
  return cramersVOfCounts(pairCounts(pops, a, b, options.keep), variableByCode(a).categories, variableByCode(b).categories, options);
}

/** A pair of person variables whose association is reported, optionally over a subset of persons. */
export interface PairSpec {
  readonly name: string;
  readonly a: string;
  readonly b: string;
  readonly keep?: PersonFilter;
}

/** The pairs issue 10 names: no input table links them, so only a synthesizer that models them keeps their association. */
export const REALISM_PAIRS: readonly PairSpec[] = [
  { name: 'RELP×BPLP', a: 'RELP', b: 'BPLP' },
  { name: 'OCCP×HEAP', a: 'OCCP', b: 'HEAP' },
  { name: 'INGP×LANP', a: 'INGP', b: 'LANP' },
  { name: 'INGP×LANP remote', a: 'INGP', b: 'LANP', keep: inRemoteArea },
];

const INDIGENOUS_LANGUAGE = categoryIndex('LANP', 'Australian Indigenous languages');
const LANP_NOT_STATED = categoryIndex('LANP', 'Not stated');

/**
 * Indigenous persons (Aboriginal and/or Torres Strait Islander) with a stated language
 * (denominator) who speak an Australian Indigenous language at home (numerator), among the
 * persons `keep` accepts: by default those living in Remote or Very Remote Australia (DLOD).
 */
export function countIndigenousLanguage(pop: Population, into: Rate, keep: PersonFilter = inRemoteArea): void {
  const { INGP: ingp, LANP: lanp } = columnsOf(pop, 'persons', ['INGP', 'LANP']);
  for (let p = 0; p < pop.persons.count; p++) {
    if (!INDIGENOUS.has(ingp![p]!) || lanp![p] === LANP_NOT_STATED || !keep(pop, p)) continue;
    into.denominator++;
    if (lanp![p] === INDIGENOUS_LANGUAGE) into.numerator++;
  }
}
