import { AREA_LEVELS, type AreaLevel, type StateAbbr } from '../../census-names.ts';
import type { TableSources } from './own-cells.ts';

export { AREA_LEVELS, type AreaLevel };

/** How the ABS names each level in its files ("2021Census_G01_AUST_POA.csv", POA_CODE_2021). */
export const PACK_LEVEL: Readonly<Record<AreaLevel, string>> = { sal: 'SAL', sa2: 'SA2', poa: 'POA', lga: 'LGA' };

/**
 * One area whose pools are fitted to its own tables: a suburb (ABS Suburb and Locality, SAL),
 * a postal area or an LGA, and where it sits in the other geographies. The field names are the
 * suburb's; for a postal area `salCode` is its DataPack code ("POA7000") and `suburbId` the
 * postcode ("7000"); for an LGA they are "LGA62810" and its identifier ("Hobart").
 */
export interface SuburbGeography {
  level: AreaLevel;
  salCode: string;
  /** SAL_NAME_2021 as the ABS writes it, e.g. "Richmond (Vic.)". */
  absName: string;
  /** The name without the ABS qualifier, e.g. "Richmond". */
  name: string;
  /** The public identifier (docs/spec/decisions.md), e.g. "Richmond (VIC)". */
  suburbId: string;
  state: StateAbbr;
  /** Postcodes (POA) the SAL overlaps, with the share of the SAL in each (RATIO_FROM_TO), largest first. */
  postcodes: { code: string; ratio: number }[];
  /** LGAs the SAL overlaps, with shares, largest first. */
  lgas: { code: string; name: string; ratio: number }[];
  /**
   * SA2s the suburb lies in, with the share of its people in each, largest first (suburbs linked
   * through the 2016 correspondences): the shares sum to less than 1 where a 2016 SA2 has no 2021
   * SA2 of its code (split in 2021), and the postcodes carry the rest.
   */
  sa2s?: { code: string; ratio: number }[];
  /** A postal area's or SA2's suburbs holding most of its people, largest first (at most five). */
  largestSuburbs?: readonly string[];
  /** Primary postcode and LGA: the largest share (ties: the lower code). */
  postcode: string;
  lgaCode: string;
  lgaName: string;
  /** GCCSA name, e.g. "Greater Melbourne" or "Rest of Vic.". */
  gccsa: string;
  /**
   * ASGS Remoteness Area class: 0 Major Cities, 1 Inner Regional, 2 Outer Regional, 3 Remote, 4
   * Very Remote (DLOD's order); undefined where the inputs allocate none (postal areas and LGAs
   * straddle classes, and their builds read no allocation files).
   */
  remoteness: number | undefined;
  /** Area in square kilometres (AREA_ALBERS_SQKM of its mesh blocks). */
  areaSqkm: number;
}

/** Tables as the ABS publishes them for whole states and Australia (the STE and AUS DataPack files, where present). */
export interface PublishedParents {
  /** State → table id → cells in spec order (NaN where not published). */
  readonly states: ReadonlyMap<string, ReadonlyMap<string, Float64Array>>;
  readonly australia: ReadonlyMap<string, Float64Array> | undefined;
}

export interface CensusInputs {
  readonly level: AreaLevel;
  suburbs: SuburbGeography[];
  /** Table id → SAL code → cells in spec order (src/synthesis/census/tables.ts), as published. */
  tables: ReadonlyMap<string, ReadonlyMap<string, Float64Array>>;
  /** Table id → SAL code → the table's published total, where it has one. */
  totals: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /**
   * Table id → SAL code → the table's published totals and subtotals (spec.otherHeaders order,
   * NaN where not published). The ABS perturbs a figure by the records it counts, so a subtotal
   * such as "males 15–19" is published as the same number in every table that has it.
   */
  aggregates: ReadonlyMap<string, ReadonlyMap<string, Float64Array>>;
  readonly parents: PublishedParents;
  /**
   * Tables the ABS does not publish at this level in the inputs, each area's taken from its
   * parents (a suburb's SA2s and postcodes) instead: not the area's own figures, so the build
   * report scores the fit to its own tables apart.
   */
  readonly derivedTables?: ReadonlySet<string>;
  /**
   * Per table of a level whose tables are partly taken from parents (suburbs built from SAL part
   * files): each figure's source, own (published for the area), bound (the sum of own figures of
   * another table counting the same people) or derived (parents' shares rescaled to those);
   * census/own-cells.ts. The same for every area of the level.
   */
  readonly figureSources?: ReadonlyMap<string, TableSources>;
  /** What an operator must know about the inputs (match rates, areas the pack lacks …), one line each. */
  readonly notes?: readonly string[];
  /** Areas of the level's geography that are not built, each with its reason. */
  readonly leftOut?: readonly { readonly area: string; readonly reason: string }[];
}

/** A malformed input file: names the file and, where known, the row (1-based, header = 1) and column. */
export interface InputError {
  file: string;
  row?: number;
  column?: string;
  message: string;
}

export const formatInputError = (e: InputError): string =>
  `${e.file}${e.row !== undefined ? `, row ${e.row}` : ''}${e.column !== undefined ? `, column ${e.column}` : ''}: ${e.message}`;
