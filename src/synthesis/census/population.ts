import type { DatasetType } from '../../census-names.ts';

/**
 * A population held column-wise: one typed array of category indices per variable (index
 * into the variable's `categories`, ABS order), plus the hidden attributes the tables and the
 * structural rules need (the single-year age, which AGEP serves grouped above 79) and the links
 * between levels. Used for the demo truth, for the synthesizer's output, and as the pool
 * writer's input; tabulate() reads it.
 */
export interface PersonColumns {
  readonly count: number;
  /** Single-year age 0‥115 (served as AGEP and AGE5P, from this; needed by G04 and by parent–child gaps). */
  readonly age: Uint8Array;
  /** Index of the person's dwelling within the same Population. */
  readonly dwelling: Uint32Array;
  /** Index of the person's family within the same Population, or -1 when not in a family. */
  readonly family: Int32Array;
  /** Variable code → category index per person. */
  readonly variables: Readonly<Record<string, Uint8Array>>;
}

export interface FamilyColumns {
  readonly count: number;
  readonly dwelling: Uint32Array;
  readonly variables: Readonly<Record<string, Uint8Array>>;
}

export interface DwellingColumns {
  readonly count: number;
  readonly variables: Readonly<Record<string, Uint8Array>>;
}

/** One suburb's linked records. */
export interface Population {
  readonly persons: PersonColumns;
  readonly families: FamilyColumns;
  readonly dwellings: DwellingColumns;
}

export type PopulationLevel = DatasetType;
