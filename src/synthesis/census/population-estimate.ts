/**
 * An estimated resident population (ERP) a release is sized to: the ABS's estimate of the people
 * living in each SA2 at 30 June of one year, as totals or by five-year age group and sex. Data,
 * no method: the census reader (src/census-input/population-estimates.ts) makes it, the pipeline
 * (src/synthesis/pipeline/population.ts) sizes each level's tables to it.
 */

/** The ABS's five-year age groups of "Regional population by age and sex": 0–4 … 80–84, 85 and over. */
export const ERP_AGE_GROUPS: readonly (readonly [number, number])[] = [
  ...Array.from({ length: 17 }, (_, g) => [g * 5, g * 5 + 4] as const),
  [85, 115],
];

/** One SA2's estimate by age group (ERP_AGE_GROUPS order) and sex. */
export interface AgeSexEstimate {
  readonly male: Float64Array;
  readonly female: Float64Array;
}

export type EstimateBreakdown = 'totals' | 'age_sex';

export interface PopulationEstimate {
  /** The year of the estimate (30 June), e.g. 2023. */
  readonly year: number;
  /** What the estimate is and where it came from, in words: the file's name and its layout. */
  readonly source: string;
  /** Totals only, or by five-year age group and sex as well. */
  readonly breakdown: EstimateBreakdown;
  /** Preliminary ("2023p"), revised ("2022r") or final, as the file marks the year's column. */
  readonly status?: 'preliminary' | 'revised';
  /** SA2 code (nine digits, ASGS 2021) → estimated persons. */
  readonly sa2: ReadonlyMap<string, number>;
  /** SA2 code → by age group and sex, where the file has them (every SA2 of `sa2` then). */
  readonly ageSex?: ReadonlyMap<string, AgeSexEstimate>;
  /** SA2 code → its estimate for 2021, where the file has that year (the change since the census where no census count is at hand). */
  readonly base2021?: ReadonlyMap<string, number>;
}
