import type { Population } from '../synthesis/census/population.ts';
import { variableByCode } from '../synthesis/census/variables.ts';

/**
 * G02 (selected medians and averages) of one hidden-truth suburb, in G02's column order. The
 * ABS computes its medians from unbanded responses; the truth holds ranges, so a median is
 * interpolated within its range, as analysts do with banded data. Medians are whole dollars
 * (or years), averages have one decimal, like the DataPack.
 */
export const G02_HEADERS = [
  'Median_age_persons',
  'Median_mortgage_repay_monthly',
  'Median_tot_prsnl_inc_weekly',
  'Median_rent_weekly',
  'Median_tot_fam_inc_weekly',
  'Average_num_psns_per_bedroom',
  'Median_tot_hhd_inc_weekly',
  'Average_household_size',
] as const;

/** [from, to) in dollars of a range label ("$1-$149", "$3,500 or more", "Negative/Nil income"), or undefined. */
export function rangeOf(label: string): readonly [number, number] | undefined {
  if (label === 'Negative/Nil income') return [0, 0];
  const money = (s: string) => Number(s.replace(/[$,]/g, ''));
  const between = /^\$([\d,]+)-\$([\d,]+)$/.exec(label);
  if (between) return [money(between[1]!), money(between[2]!) + 1];
  const open = /^\$([\d,]+) (?:or more|and over)$/.exec(label);
  if (open) return [money(open[1]!), money(open[1]!) * 1.25];
  return undefined;
}

/** Median of counts over ranges, interpolated linearly inside the median's range; 0 when empty. */
export function bandedMedian(counts: readonly number[], ranges: readonly (readonly [number, number] | undefined)[]): number {
  let n = 0;
  counts.forEach((c, i) => (n += ranges[i] ? c : 0));
  if (n === 0) return 0;
  let below = 0;
  for (let i = 0; i < counts.length; i++) {
    const r = ranges[i];
    if (!r) continue;
    const c = counts[i]!;
    if (below + c >= n / 2) return Math.round(r[0] + ((n / 2 - below) / c) * (r[1] - r[0]));
    below += c;
  }
  return 0;
}

function medianOf(values: Uint8Array, code: string, keep: (record: number) => boolean): number {
  const labels = variableByCode(code).categories;
  const counts = new Array<number>(labels.length).fill(0);
  for (let r = 0; r < values.length; r++) if (keep(r)) counts[values[r]!]! += 1;
  return bandedMedian(counts, labels.map(rangeOf));
}

const oneDecimal = (x: number) => Math.round(x * 10) / 10;

export function g02Values(pop: Population): number[] {
  const { persons, families, dwellings } = pop;
  const ages = Array.from(persons.age).sort((a, b) => a - b);
  const medianAge = ages.length ? ages[Math.floor((ages.length - 1) / 2)]! : 0;
  const tenure = dwellings.variables.TEND!;
  const mortgage = medianOf(dwellings.variables.MRERD!, 'MRERD', (d) => tenure[d] === 1);
  const rent = medianOf(dwellings.variables.RNTRD!, 'RNTRD', (d) => tenure[d] === 2);
  const personal = medianOf(persons.variables.INCP!, 'INCP', (p) => persons.age[p]! >= 15);
  const family = medianOf(families.variables.FINF!, 'FINF', () => true);
  const household = medianOf(dwellings.variables.HIND!, 'HIND', () => true);
  const occupants = new Float64Array(dwellings.count);
  for (let p = 0; p < persons.count; p++) occupants[persons.dwelling[p]!]! += 1;
  const bedrooms = dwellings.variables.BEDRD!;
  let people = 0;
  let rooms = 0;
  for (let d = 0; d < dwellings.count; d++) {
    if (bedrooms[d]! > 6) continue; // not stated
    people += occupants[d]!;
    rooms += Math.max(1, bedrooms[d]!); // a studio counts as one room, as the ABS does
  }
  return [
    medianAge,
    mortgage,
    personal,
    rent,
    family,
    rooms ? oneDecimal(people / rooms) : 0,
    household,
    dwellings.count ? oneDecimal(persons.count / dwellings.count) : 0,
  ];
}
