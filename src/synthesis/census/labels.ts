/**
 * Reading meaning out of ABS category labels: which category is "Not applicable" or "Not
 * stated", the dollar range of an income/rent/mortgage band, the count in "3 bedrooms".
 * Labels follow the ABS 2021 Census Dictionary, so parsing them keeps this module free of a
 * second copy of the catalogue.
 */

import { variableByCode } from './variables.ts';

const NOT_APPLICABLE = /^not applicable\b/i;
const NOT_STATED = /not stated|inadequately described|not described/i;

/** Index of the "Not applicable" category, or -1. */
export function notApplicableIndex(labels: readonly string[]): number {
  return labels.findIndex((l) => NOT_APPLICABLE.test(l.trim()));
}

/** True for labels that carry no information on the ranking ("Not stated", "Partial income stated", …). */
export function isUninformative(label: string): boolean {
  return NOT_STATED.test(label) || NOT_APPLICABLE.test(label.trim()) || /partial|all incomes not stated/i.test(label);
}

/** Index of the first category whose label matches, or -1. */
export function findLabel(labels: readonly string[], pattern: RegExp): number {
  return labels.findIndex((l) => pattern.test(l));
}

export interface DollarBand {
  /** Lower bound in dollars (−Infinity for negative income). */
  readonly lo: number;
  /** Upper bound in dollars (Infinity for an open top band). */
  readonly hi: number;
}

function dollars(text: string): number {
  return Number(text.replace(/[$,\s]/g, ''));
}

/**
 * The dollar range a band label names: "$1-$149", "$3,500 or more", "$4,000 and over",
 * "Negative income", "Nil income", "Negative/Nil income", "Nil payments". Undefined for labels
 * without an amount ("Not stated", "Partial income stated", "Not applicable").
 */
export function parseDollarBand(label: string): DollarBand | undefined {
  const l = label.trim();
  const lower = l.toLowerCase();
  if (/negative/.test(lower) && /nil/.test(lower)) return { lo: -Infinity, hi: 0 };
  if (/negative/.test(lower)) return { lo: -Infinity, hi: -1 };
  if (/\bnil\b/.test(lower)) return { lo: 0, hi: 0 };
  const between = /\$\s*([\d,]+)\s*(?:-|–|to)\s*\$?\s*([\d,]+)/i.exec(l);
  if (between) return { lo: dollars(between[1]!), hi: dollars(between[2]!) };
  const open = /\$\s*([\d,]+)\s*(?:or more|and over|or over|\+)/i.exec(l);
  if (open) return { lo: dollars(open[1]!), hi: Infinity };
  const under = /(?:less than|under)\s*\$\s*([\d,]+)/i.exec(l);
  if (under) return { lo: 1, hi: dollars(under[1]!) - 1 };
  return undefined;
}

/**
 * A representative dollar value of each band: the middle of a closed band, 0 for nil, a small
 * loss for negative income, and for the open top band the mean of a Pareto tail with
 * α = 3.5 (lo·α/(α−1) = 1.4·lo), the usual shape of Australian top incomes. NaN for labels
 * without an amount.
 */
export function representativeDollars(labels: readonly string[]): Float64Array {
  const out = new Float64Array(labels.length);
  labels.forEach((label, i) => {
    const band = parseDollarBand(label);
    if (!band) out[i] = Number.NaN;
    else if (band.lo === -Infinity) out[i] = band.hi < 0 ? -100 : 0;
    else if (band.hi === Infinity) out[i] = band.lo * 1.4;
    else out[i] = (band.lo + band.hi) / 2;
  });
  return out;
}

/** Bands of a set of labels, sorted, for banding dollar amounts. */
export interface Banding {
  /** Category index per band, in ascending order of lower bound. */
  readonly categories: Int32Array;
  readonly lower: Float64Array;
}

export function bandingOf(labels: readonly string[]): Banding {
  const bands: { c: number; lo: number }[] = [];
  labels.forEach((label, c) => {
    const b = parseDollarBand(label);
    if (b) bands.push({ c, lo: b.lo });
  });
  bands.sort((a, b) => a.lo - b.lo);
  return { categories: Int32Array.from(bands.map((b) => b.c)), lower: Float64Array.from(bands.map((b) => b.lo)) };
}

/** The category whose band holds `amount` (−1 when the labels have no bands). */
export function band(banding: Banding, amount: number): number {
  const { lower, categories } = banding;
  if (lower.length === 0) return -1;
  // Bands are closed integer ranges ($1-$149, $150-$299): round to whole dollars first.
  const a = Math.round(amount);
  let lo = 0;
  let hi = lower.length - 1;
  if (a < lower[0]!) return categories[0]!;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lower[mid]! <= a) lo = mid;
    else hi = mid - 1;
  }
  // "Nil" (0..0) and "$1-…" are distinct: 0 stays in the band whose lower bound is ≤ 0.
  return categories[lo]!;
}

/**
 * An ordinal rank per category for ranked dealing, NaN for categories with no place on the
 * scale. Understands dollar bands, counts ("3 bedrooms", "4 or more motor vehicles",
 * "None"/"No motor vehicles"), school years ("Year 12 or equivalent", "Did not go to school")
 * and qualification levels.
 */
export function ordinalRanks(labels: readonly string[]): Float64Array {
  const out = new Float64Array(labels.length).fill(Number.NaN);
  const dollarsRep = representativeDollars(labels);
  labels.forEach((label, i) => {
    const l = label.toLowerCase();
    if (isUninformative(label)) return;
    if (!Number.isNaN(dollarsRep[i]!)) out[i] = dollarsRep[i]!;
    else if (/did not go to school/.test(l)) out[i] = 0;
    // HEAP's school levels sit below every non-school qualification.
    else if (/^secondary education - years 10/.test(l)) out[i] = 3;
    else if (/^secondary education - years 9/.test(l)) out[i] = 2;
    else if (/year\s*(\d+)/.test(l)) out[i] = Number(/year\s*(\d+)/.exec(l)![1]);
    else if (/postgraduate/.test(l)) out[i] = 9;
    else if (/graduate diploma|graduate certificate/.test(l)) out[i] = 8;
    else if (/bachelor/.test(l)) out[i] = 7;
    else if (/diploma/.test(l)) out[i] = 6;
    else if (/certificate (iii|iv|3|4)|certificate level iii|certificate level iv/.test(l)) out[i] = 5;
    else if (/certificate/.test(l)) out[i] = 4;
    else if (/^(none|no )/.test(l)) out[i] = 0;
    else if (/^(\d+)/.test(l)) out[i] = Number(/^(\d+)/.exec(l)![1]);
    else if (/\b(one|two|three|four|five|six)\b/.test(l)) {
      out[i] = ['one', 'two', 'three', 'four', 'five', 'six'].indexOf(/\b(one|two|three|four|five|six)\b/.exec(l)![1]!) + 1;
    }
  });
  return out;
}

/** Stated categories of a variable (1): not "Not stated", "Not applicable", "inadequately described". */
export const statedCategories = (code: string): Uint8Array =>
  Uint8Array.from({ length: 256 }, (_, k) => {
    const label = variableByCode(code).categories[k];
    return label !== undefined && !isUninformative(label) ? 1 : 0;
  });
