/**
 * The names the ABS gives its files (ASGS Edition 3 allocation and correspondence files, 2021
 * Census GCP DataPacks at SAL level). Loaders find them anywhere under the input directory, so
 * an unzipped DataPack ("2021 Census GCP Suburbs and Localities for AUS/SAL/AUS/…") works as is.
 */
export const MB_ALLOCATION = 'MB_2021_AUST.csv';
export const SAL_ALLOCATION = 'SAL_2021_AUST.csv';
/** ASGS Edition 3 Remoteness Areas allocation (SA1 → RA; a mesh-block-keyed file is read too). */
export const RA_ALLOCATION = 'RA_2021_AUST.csv';
export const SAL_POA_CORRESPONDENCE = 'CG_SAL_2021_POA_2021.csv';
export const SAL_LGA_CORRESPONDENCE = 'CG_SAL_2021_LGA_2021.csv';

export const dataPackFile = (part: string, level = 'SAL'): string => `2021Census_${part}_AUST_${level}.csv`;

/** What a DataPack file's name says: `2021Census_G04A_AUST_POA.csv`, `2021Census_G01_VIC_SAL.csv`, `2021Census_G01_AUS_AUS.csv`. */
export interface DataPackFileName {
  /** The part file, e.g. "G04A". */
  readonly part: string;
  /** "AUST" (or "AUS" at Australia level) for an Australia-wide pack, else the state's abbreviation ("VIC", "OT"). */
  readonly region: string;
  readonly australiaWide: boolean;
  /** The geography level as the ABS abbreviates it: "SAL", "POA", "LGA", "STE", "AUS", "SA1", … */
  readonly level: string;
}

const DATAPACK_NAME = /^2021Census_(G\d{2}[A-Z]?)_([A-Z]+)_([A-Z0-9]+)\.csv$/i;

export function parseDataPackFileName(name: string): DataPackFileName | undefined {
  const m = DATAPACK_NAME.exec(name);
  if (!m) return undefined;
  const region = m[2]!.toUpperCase();
  return { part: m[1]!.toUpperCase(), region, australiaWide: region === 'AUST' || region === 'AUS', level: m[3]!.toUpperCase() };
}

/** The key column of a level's DataPack files ("POA" → POA_CODE_2021). */
export const dataPackKeyColumn = (level: string): string => `${level.toUpperCase()}_CODE_2021`;

export const SAL_KEY = 'SAL_CODE_2021';

/** Header rows of the ASGS files, as the ABS publishes them. */
export const MB_ALLOCATION_HEADER = [
  'MB_CODE_2021', 'MB_CATEGORY_2021', 'CHANGE_FLAG_2021', 'CHANGE_LABEL_2021', 'SA1_CODE_2021', 'SA2_CODE_2021',
  'SA2_NAME_2021', 'SA3_CODE_2021', 'SA3_NAME_2021', 'SA4_CODE_2021', 'SA4_NAME_2021', 'GCCSA_CODE_2021',
  'GCCSA_NAME_2021', 'STATE_CODE_2021', 'STATE_NAME_2021', 'AUS_CODE_2021', 'AUS_NAME_2021', 'AREA_ALBERS_SQKM',
  'ASGS_LOCI_URI_2021',
] as const;
export const SAL_ALLOCATION_HEADER = [
  'MB_CODE_2021', 'SAL_CODE_2021', 'SAL_NAME_2021', 'STATE_CODE_2021', 'STATE_NAME_2021', 'AUS_CODE_2021',
  'AUS_NAME_2021', 'AREA_ALBERS_SQKM', 'ASGS_LOCI_URI_2021',
] as const;
export const RA_ALLOCATION_HEADER = [
  'SA1_CODE_2021', 'RA_CODE_2021', 'RA_NAME_2021', 'STATE_CODE_2021', 'STATE_NAME_2021', 'AUS_CODE_2021', 'AUS_NAME_2021',
  'AREA_ALBERS_SQKM', 'ASGS_LOCI_URI_2021',
] as const;
export const SAL_POA_HEADER = [
  'SAL_CODE_2021', 'SAL_NAME_2021', 'POA_CODE_2021', 'POA_NAME_2021', 'RATIO_FROM_TO',
  'INDIV_TO_REGION_QLTY_INDICATOR', 'OVERALL_QUALITY_INDICATOR', 'BMOS_NULL_FLAG',
] as const;
export const SAL_LGA_HEADER = [
  'SAL_CODE_2021', 'SAL_NAME_2021', 'LGA_CODE_2021', 'LGA_NAME_2021', 'RATIO_FROM_TO',
  'INDIV_TO_REGION_QLTY_INDICATOR', 'OVERALL_QUALITY_INDICATOR', 'BMOS_NULL_FLAG',
] as const;
