/**
 * The ABS long headers of the 2021 GCP DataPacks are regular where the short headers are not
 * (G17's "M_1_149_85ov" next to "M_Negtve_Nil_incme_85_yrs_ovr" is "MALES_1_149_Age_85_years_and_over"
 * next to "MALES_Negative_Nil_income_Age_85_years_and_over"). A long header is the table's row
 * and column labels joined by "_": here it is split into the two dimensions every table shares
 * — sex and an age range — and the rest, which a table's vocabulary reads.
 */

export type SexToken = 'M' | 'F' | 'P';

export interface LongHeaderParts {
  /** MALES/FEMALES/PERSONS (leading) or _Males/_Females/_Persons (trailing). */
  readonly sex?: SexToken;
  /** Inclusive single-year age range, from "15_19_years", "85_years_and_over", "Age_years_7", … */
  readonly age?: readonly [number, number];
  /** What the header counts in a family or dwelling table: records, or the persons in them. */
  readonly count?: 'records' | 'members';
  /** The remaining labels, "_"-joined; "" when the header is a sex/age total. */
  readonly rest: string;
}

const SEX_LEAD = /^(MALES|FEMALES|PERSONS)_/;
const SEX_TRAIL = /_(Males|Females|Persons)$/;
const UNIT_TRAIL = /_(Families|Dwellings|Households)$/;
const SEX_OF: Readonly<Record<string, SexToken>> = { MALES: 'M', FEMALES: 'F', PERSONS: 'P', Males: 'M', Females: 'F', Persons: 'P' };
export const MAX_AGE = 115;

/**
 * Age phrases; the prefix words are part of the phrase and go with it. When a header has two
 * (G27's "Dependent_student_aged_15_24_years_Age_0_14_years"), the last one is the age column.
 */
const AGE_PATTERNS: readonly (readonly [RegExp, (m: RegExpExecArray) => readonly [number, number]])[] = [
  [/(?:^|_)Age_years_(\d{1,3})(?=_|$)/g, (m) => [Number(m[1]), Number(m[1])]],
  [
    /(?:^|_)(?:Age_years_|Age_groups_|Age_group_of_parent_|Age_of_dependent_children_|DEPENDENT_CHILDREN_AGED_|Aged_|Age_)?(\d{1,3})_(\d{1,3})_years(?=_|$)/gi,
    (m) => [Number(m[1]), Number(m[2])],
  ],
  [/(?:^|_)(?:Age_years_|Age_groups_|Age_group_of_parent_|Aged_|Age_)?(\d{1,3})_years_(?:and_)?over(?=_|$)/gi, (m) => [Number(m[1]), MAX_AGE]],
];
/** "Age_Total", "Age_Total_responses": all ages, said explicitly. */
const AGE_TOTAL = /(?:^|_)Age_Total(?:_responses)?(?=_|$)/;

const tidy = (s: string): string => s.replace(/__+/g, '_').replace(/^_+|_+$/g, '');

export function splitLongHeader(long: string): LongHeaderParts {
  let rest = long;
  let sex: SexToken | undefined;
  let count: 'records' | 'members' | undefined;
  const lead = SEX_LEAD.exec(rest);
  if (lead) {
    sex = SEX_OF[lead[1]!];
    rest = rest.slice(lead[0].length);
  }
  const unit = UNIT_TRAIL.exec(rest);
  if (unit) {
    count = 'records';
    rest = rest.slice(0, unit.index);
  } else if (!sex) {
    const trail = SEX_TRAIL.exec(rest);
    if (trail) {
      sex = SEX_OF[trail[1]!];
      rest = rest.slice(0, trail.index);
    }
  }
  let age: readonly [number, number] | undefined;
  let best: { m: RegExpExecArray; read: (m: RegExpExecArray) => readonly [number, number] } | undefined;
  const end = (m: RegExpExecArray) => m.index + m[0].length;
  for (const [pattern, read] of AGE_PATTERNS) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(rest); m; m = pattern.exec(rest)) {
      if (!best || end(m) > end(best.m) || (end(m) === end(best.m) && m[0].length > best.m[0].length)) best = { m, read };
    }
  }
  if (best) {
    age = best.read(best.m);
    rest = rest.slice(0, best.m.index) + '_' + rest.slice(end(best.m));
  }
  rest = rest.replace(AGE_TOTAL, '_');
  return { ...(sex ? { sex } : {}), ...(age ? { age } : {}), ...(count ? { count } : {}), rest: tidy(rest) };
}
