import { categoryIndex, variableByCode } from './variables.ts';

/**
 * The populations GCP tables count, as conditions on our records (a conjunction of category
 * sets, as in a cell). A table's spec names its own (table-spec.ts `TablePopulation`); these are
 * the ones more than one table shares.
 */
type Where = Readonly<Record<string, readonly number[]>>;

const allBut = (code: string, label: string): number[] =>
  variableByCode(code).categories.flatMap((l, i) => (l === label ? [] : [i]));

/** Occupied private dwellings: the dwelling records every household table (G33-G42) counts. */
export const OCCUPIED_PRIVATE_DWELLINGS: Where = { DWTD: [categoryIndex('DWTD', 'Occupied private dwelling')] };

/**
 * Persons in occupied private dwellings, by usual residence (G27): everyone with a relationship in
 * household, including the area's residents who were away on Census night visiting another
 * private dwelling (RLHP "Visitor (from within Australia)"); residents of non-private dwellings
 * are "Not applicable".
 */
export const PERSONS_IN_OCCUPIED_PRIVATE_DWELLINGS: Where = { RLHP: allBut('RLHP', 'Not applicable') };

/**
 * Persons at home on Census night: every relationship in household but the visitors away and
 * "Not applicable". The persons G29 and G36 count in families and dwellings ("excludes usual
 * residents who were temporarily absent"; G36's visitors from elsewhere are no records of this area).
 */
export const PERSONS_AT_HOME: Where = {
  RLHP: variableByCode('RLHP').categories.flatMap((l, i) => (l === 'Not applicable' || l === 'Visitor (from within Australia)' ? [] : [i])),
};
