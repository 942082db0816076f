import type { DatasetType } from '../../census-names.ts';

/**
 * What a census table is to the synthesizer: whom it counts and, cell by cell, which records each
 * of its columns counts. The catalogue of tables (tables.ts) and the vocabulary that reads a
 * DataPack table whole (gcp/) both build these, so the shape has its own module.
 */
export interface CellSpec {
  /** The exact ABS column header, e.g. "Age_yr_0_4_M". */
  readonly header: string;
  /** Variable code → allowed category indices (conjunction). */
  readonly where: Readonly<Record<string, readonly number[]>>;
  /** Inclusive single-year age range (persons only). */
  readonly age?: readonly [number, number];
  /**
   * What is counted: records of the table's universe (default), or the persons living in
   * them ("members", for families and dwellings: the *_P / *_Psns columns).
   */
  readonly count?: 'records' | 'members';
}

/**
 * Whom a table counts. Tables count different populations (G04 every usual resident, G27 persons
 * in occupied private dwellings, G33-G42 occupied private dwellings only), so each names its own,
 * and every one of its cells carries the condition: tabulate() then counts exactly that
 * population, in fitting and in the build report alike.
 */
export interface TablePopulation {
  /** The ABS metadata's words (gcp-tables.csv), e.g. "Persons in occupied private dwellings". */
  readonly label: string;
  /** The same population as a condition on the universe's records ({} = all of them). */
  readonly where: Readonly<Record<string, readonly number[]>>;
  /**
   * Which persons a family or dwelling table's persons columns count (absent: all its members).
   * G29 and G36 count the persons there on Census night, not the residents away (footnotes).
   */
  readonly members?: Readonly<Record<string, readonly number[]>>;
}

export interface TableSpec {
  /** "G04" */
  readonly id: string;
  /** DataPack file parts, e.g. ["G04A","G04B"]. */
  readonly files: readonly string[];
  /** Which records are counted (persons, families or dwellings); `population` says which of them. */
  readonly universe: DatasetType;
  readonly population: TablePopulation;
  readonly description: string;
  /** The cells we fit/validate, in a fixed order. */
  readonly cells: readonly CellSpec[];
  /** The table's remaining real headers (totals, subtotals) we read but don't fit. */
  readonly otherHeaders: readonly string[];
  /** Definitions of otherHeaders, same order (the demo generator tabulates them). */
  readonly otherCells: readonly CellSpec[];
  /** Which header is the table's published total, when it has one. */
  readonly totalHeader?: string;
}
