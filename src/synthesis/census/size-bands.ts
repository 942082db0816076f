/** The size bands areas are scored and borrowed by: the fit's measures and the synthesizer's borrowing both read them. */
export const SIZE_BANDS = ['<500', '500-5000', '>=5000'] as const;
export type SizeBand = (typeof SIZE_BANDS)[number];

/** Suburb size band by persons, because perturbation noise dominates tiny areas. */
export function sizeBand(persons: number): SizeBand {
  if (persons < 500) return '<500';
  if (persons < 5000) return '500-5000';
  return '>=5000';
}
