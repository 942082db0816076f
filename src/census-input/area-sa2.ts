import type { SuburbGeography } from '../synthesis/census/inputs.ts';
import { realSa2s } from './asgs-reference.ts';
import { realParentLinks, realSalLinks } from './sal-links-reference.ts';

/** An SA2 of the 2021 ASGS: its nine-digit code and its name as the ABS writes it (SA2 names are unique in Australia). */
export interface AreaSa2 {
  readonly code: string;
  readonly name: string;
}

let namesByCode: ReadonlyMap<string, string> | undefined;
/** An SA2's name as the ABS writes it (2021 descriptors); its code where 2021 has no SA2 of that code. */
export const sa2NameOf = (code: string): string => (namesByCode ??= new Map(realSa2s().map((a) => [a.code, a.absName]))).get(code) ?? code;

const largest = (shares: readonly { readonly code: string; readonly ratio: number }[] | undefined): string | undefined =>
  shares && shares.length > 0 ? [...shares].sort((a, b) => b.ratio - a.ratio || (a.code < b.code ? -1 : 1))[0]!.code : undefined;

/**
 * The SA2 an area's records are placed in (the hierarchical geography's sa2_code and sa2_name):
 * an SA2 is its own; a suburb, a postal area or an LGA the SA2 holding most of its people by the
 * ABS correspondences (for a suburb the links it was built with, else the ones the repository
 * ships, reference/sal-links-2021.csv; for a postal area or an LGA its suburbs' links summed, as
 * its LGA and GCCSA are). Undefined where the correspondences place none: a suburb whose 2016 SA2
 * was split in 2021 has no 2021 SA2 of that code.
 */
export function mainSa2Of(area: SuburbGeography): AreaSa2 | undefined {
  const code = sa2CodeOf(area);
  return code === undefined ? undefined : { code, name: sa2NameOf(code) };
}

function sa2CodeOf(area: SuburbGeography): string | undefined {
  switch (area.level) {
    case 'sa2':
      return area.salCode;
    case 'sal':
      return largest(area.sa2s) ?? largest(realSalLinks().get(area.salCode)?.sa2s);
    case 'poa':
      return largest(realParentLinks('postcodes').get(area.postcode)?.sa2s);
    case 'lga':
      return largest(realParentLinks('lgas').get(area.lgaCode)?.sa2s);
  }
}
