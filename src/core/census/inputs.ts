import type { StateAbbr } from '../dataset.ts';

/** One suburb (ABS Suburb and Locality, SAL) and where it sits in the other geographies. */
export interface SuburbGeography {
  salCode: string;
  /** SAL_NAME_2021 as the ABS writes it, e.g. "Richmond (Vic.)". */
  absName: string;
  /** The name without the ABS qualifier, e.g. "Richmond". */
  name: string;
  /** The public identifier (decisions.md), e.g. "Richmond (VIC)". */
  suburbId: string;
  state: StateAbbr;
  /** Postcodes (POA) the SAL overlaps, with the share of the SAL in each (RATIO_FROM_TO), largest first. */
  postcodes: { code: string; ratio: number }[];
  /** LGAs the SAL overlaps, with shares, largest first. */
  lgas: { code: string; name: string; ratio: number }[];
  /** Primary postcode and LGA: the largest share (ties: the lower code). */
  postcode: string;
  lgaCode: string;
  lgaName: string;
  /** GCCSA name, e.g. "Greater Melbourne" or "Rest of Vic.". */
  gccsa: string;
  /** ASGS Remoteness Area class: 0 Major Cities, 1 Inner Regional, 2 Outer Regional, 3 Remote, 4 Very Remote (DLOD's order). */
  remoteness: number;
  /** Area in square kilometres (AREA_ALBERS_SQKM of its mesh blocks). */
  areaSqkm: number;
}

export interface CensusInputs {
  suburbs: SuburbGeography[];
  /** Table id → SAL code → cells in spec order (src/core/census/tables.ts), as published. */
  tables: ReadonlyMap<string, ReadonlyMap<string, Float64Array>>;
  /** Table id → SAL code → the table's published total, where it has one. */
  totals: ReadonlyMap<string, ReadonlyMap<string, number>>;
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
