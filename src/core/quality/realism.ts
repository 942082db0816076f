import type { Population } from '../census/population.ts';
import { categoryIndex, variableByCode } from '../census/variables.ts';

/**
 * Realism figures a researcher checks with a cross-tab rather than a table fit: how often a
 * combination the census (nearly) never shows occurs, how strongly pairs of variables go
 * together (Cramér's V), and how much of a cross-tab's structure the records recover beyond
 * independence. Pure functions over populations; counts are pooled (numerators and
 * denominators summed over suburbs), never averages of rates.
 */

/** A rate as numerator over denominator, so that suburbs pool. */
export interface Rate {
  numerator: number;
  denominator: number;
}

export interface ImplausibleCheck {
  readonly name: string;
  readonly description: string;
  /** Adds this population's counts to `into`. */
  count(pop: Population, into: Rate): void;
}

const rlhp = (label: string) => categoryIndex('RLHP', label);
const PARTNERS = new Set([rlhp('Partner in a registered marriage'), rlhp('Partner in a de facto marriage')]);

/** Persons aged lo..hi: how many, and how many meet `flag`. */
function amongAges(lo: number, hi: number, flag: (pop: Population, p: number) => boolean) {
  return (pop: Population, into: Rate) => {
    const { age } = pop.persons;
    for (let p = 0; p < pop.persons.count; p++) {
      if (age[p]! < lo || age[p]! > hi) continue;
      into.denominator++;
      if (flag(pop, p)) into.numerator++;
    }
  };
}
/** Persons meeting `who`: how many, and how many of them meet `flag`. */
function among(who: (pop: Population, p: number) => boolean, flag: (pop: Population, p: number) => boolean) {
  return (pop: Population, into: Rate) => {
    for (let p = 0; p < pop.persons.count; p++) {
      if (!who(pop, p)) continue;
      into.denominator++;
      if (flag(pop, p)) into.numerator++;
    }
  };
}
const v = (pop: Population, code: string, p: number) => pop.persons.variables[code]![p]!;

const DEGREE = new Set(['Postgraduate Degree Level', 'Graduate Diploma and Graduate Certificate Level', 'Bachelor Degree Level'].map((l) => categoryIndex('HEAP', l)));
const EMPLOYED = new Set(
  ['Employed, worked full-time', 'Employed, worked part-time', 'Employed, away from work', 'Employed, hours of work not stated'].map((l) => categoryIndex('LFSP', l)),
);

/** The implausible combinations issue 10 names, and a few more a researcher would flag. */
export const IMPLAUSIBLE_CHECKS: readonly ImplausibleCheck[] = [
  {
    name: 'partner-15-17',
    description: 'persons aged 15–17 who are a partner in a couple',
    count: amongAges(15, 17, (pop, p) => PARTNERS.has(v(pop, 'RLHP', p))),
  },
  {
    name: 'married-15-17',
    description: 'persons aged 15–17 whose registered marital status is Married',
    count: amongAges(15, 17, (pop, p) => v(pop, 'MSTP', p) === categoryIndex('MSTP', 'Married')),
  },
  {
    name: 'lone-person-15-17',
    description: 'persons aged 15–17 living alone',
    count: amongAges(15, 17, (pop, p) => v(pop, 'RLHP', p) === rlhp('Lone person')),
  },
  {
    name: 'group-member-15-17',
    description: 'persons aged 15–17 in a group household',
    count: amongAges(15, 17, (pop, p) => v(pop, 'RLHP', p) === rlhp('Group household member')),
  },
  {
    name: 'widowed-15-19',
    description: 'persons aged 15–19 who are widowed',
    count: amongAges(15, 19, (pop, p) => v(pop, 'MSTP', p) === categoryIndex('MSTP', 'Widowed')),
  },
  {
    name: 'dependent-student-not-attending',
    description: 'dependent students who attend no educational institution',
    count: among(
      (pop, p) => v(pop, 'RLHP', p) === rlhp('Dependent student (aged 15-24 years)'),
      (pop, p) => v(pop, 'TYPP', p) === categoryIndex('TYPP', 'Not applicable'),
    ),
  },
  {
    name: 'professional-without-degree',
    description: 'professionals without a bachelor degree or higher',
    count: among(
      (pop, p) => v(pop, 'OCCP', p) === categoryIndex('OCCP', 'Professionals'),
      (pop, p) => !DEGREE.has(v(pop, 'HEAP', p)),
    ),
  },
  {
    name: 'employed-professional-under-20',
    description: 'employed persons under 20 who are professionals',
    count: among(
      (pop, p) => pop.persons.age[p]! < 20 && EMPLOYED.has(v(pop, 'LFSP', p)),
      (pop, p) => v(pop, 'OCCP', p) === categoryIndex('OCCP', 'Professionals'),
    ),
  },
  {
    name: 'degree-under-20',
    description: 'persons aged 15–19 with a bachelor degree or higher',
    count: amongAges(15, 19, (pop, p) => DEGREE.has(v(pop, 'HEAP', p))),
  },
];

/** Couples: mean man − woman age gap over opposite-sex couples, and the share of same-sex couples. */
export interface CoupleFigures {
  gapSum: number;
  opposite: number;
  sameSex: number;
}

export function countCouples(pop: Population, into: CoupleFigures): void {
  const { family, age, variables } = pop.persons;
  const first = new Map<number, number>();
  for (let p = 0; p < pop.persons.count; p++) {
    if (!PARTNERS.has(variables.RLHP![p]!)) continue;
    const f = family[p]!;
    const q = first.get(f);
    if (q === undefined) {
      first.set(f, p);
      continue;
    }
    const sq = variables.SEXP![q]!;
    const sp = variables.SEXP![p]!;
    if (sq === sp) into.sameSex++;
    else {
      const [man, woman] = sq === 0 ? [q, p] : [p, q];
      into.gapSum += age[man]! - age[woman]!;
      into.opposite++;
    }
  }
}

/** A two-way table of person variables a × b (stated categories only: "Not stated"/"Not applicable" left out). */
export function crossTab(pop: Population, a: string, b: string, keep?: (p: number) => boolean): Float64Array {
  const na = variableByCode(a).categories.length;
  const nb = variableByCode(b).categories.length;
  const out = new Float64Array(na * nb);
  const va = pop.persons.variables[a]!;
  const vb = pop.persons.variables[b]!;
  for (let p = 0; p < pop.persons.count; p++) if (!keep || keep(p)) out[va[p]! * nb + vb[p]!]! += 1;
  return out;
}

const UNINFORMATIVE = /^(Not stated|Not applicable|Inadequately described|Level of education inadequately described)/;

/** Cramér's V of an a × b table (rows a's categories), over the informative categories with any count. */
export function cramersV(table: ArrayLike<number>, rowsLabels: readonly string[], colLabels: readonly string[]): number {
  const rows = rowsLabels.flatMap((l, i) => (UNINFORMATIVE.test(l) ? [] : [i]));
  const cols = colLabels.flatMap((l, j) => (UNINFORMATIVE.test(l) ? [] : [j]));
  const nb = colLabels.length;
  const rowSum = rows.map((i) => cols.reduce((s, j) => s + table[i * nb + j]!, 0));
  const colSum = cols.map((j) => rows.reduce((s, i) => s + table[i * nb + j]!, 0));
  const n = rowSum.reduce((a, b) => a + b, 0);
  const liveRows = rowSum.filter((x) => x > 0).length;
  const liveCols = colSum.filter((x) => x > 0).length;
  if (n === 0 || liveRows < 2 || liveCols < 2) return 0;
  let chi2 = 0;
  rows.forEach((i, r) => {
    cols.forEach((j, c) => {
      const expected = (rowSum[r]! * colSum[c]!) / n;
      if (expected > 0) chi2 += (table[i * nb + j]! - expected) ** 2 / expected;
    });
  });
  return Math.sqrt(chi2 / (n * (Math.min(liveRows, liveCols) - 1)));
}

/**
 * The independence baseline of a cross-tab: the product of its own one-way margins (its cells
 * are the categories of `sizes.length` variables, the last varying fastest), scaled to its total.
 */
export function independence(table: ArrayLike<number>, sizes: readonly number[]): Float64Array {
  const total = Array.from(table).reduce((a, b) => a + b, 0);
  const out = new Float64Array(table.length);
  if (total === 0) return out;
  const strides = sizes.map((_, k) => sizes.slice(k + 1).reduce((a, b) => a * b, 1));
  const margins = sizes.map((size) => new Float64Array(size));
  for (let i = 0; i < table.length; i++) sizes.forEach((size, k) => (margins[k]![Math.floor(i / strides[k]!) % size]! += table[i]!));
  for (let i = 0; i < table.length; i++) {
    let x = total;
    sizes.forEach((size, k) => (x *= margins[k]![Math.floor(i / strides[k]!) % size]! / total));
    out[i] = x;
  }
  return out;
}

/** Σ |a − b|. */
export const absoluteError = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
  return s;
};

/**
 * Share of the error of independence that `candidate` removes against the truth:
 * 1 − err(candidate, truth) / err(independence of candidate, truth). 1 = the truth's joint
 * structure recovered, 0 = no better than the candidate's own margins multiplied together,
 * negative = worse. Errors are sums of absolute differences, so suburbs pool by adding them.
 */
export function errorRemoved(candidateError: number, independenceError: number): number | undefined {
  return independenceError > 0 ? 1 - candidateError / independenceError : undefined;
}
