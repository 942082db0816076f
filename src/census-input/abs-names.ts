import { STATE_BY_ABS_CODE, type StateAbbr } from '../census-names.ts';

/**
 * Place names as the ABS writes them, read, and the public geography identifiers a release's
 * areas are served by, written from them once, when the census is read (docs/spec/decisions.md,
 * "Geography identifiers"); the service matches what a client writes against the identifiers
 * in the release (src/core/geography/matching.ts):
 * - a suburb name used in more than one state carries " (STATE)": "Richmond (VIC)";
 * - a name unique to one state has no qualifier;
 * - two suburbs of one state sharing a name add the LGA: "Ascot (Ballarat, VIC)".
 * The ABS writes the same facts differently ("Richmond (Vic.)", "Ascot (Ballarat - Vic.)");
 * parseAbsName() reads those, suburbIdentifiers() writes ours.
 */

/** ABS state qualifiers as they appear in SAL and LGA names. */
const ABS_STATE_QUALIFIERS: Readonly<Record<string, StateAbbr>> = {
  NSW: 'NSW',
  'Vic.': 'VIC',
  Qld: 'QLD',
  SA: 'SA',
  WA: 'WA',
  'Tas.': 'TAS',
  NT: 'NT',
  ACT: 'ACT',
  OT: 'OT',
};

const ABS_QUALIFIER_OF: Readonly<Record<StateAbbr, string>> = {
  NSW: 'NSW',
  VIC: 'Vic.',
  QLD: 'Qld',
  SA: 'SA',
  WA: 'WA',
  TAS: 'Tas.',
  NT: 'NT',
  ACT: 'ACT',
  OT: 'OT',
};

/** The state of an SA2 (or any ASGS main-structure code): its first digit. */
export const stateOfSa2 = (code: string): StateAbbr | undefined => STATE_BY_ABS_CODE[code.slice(0, 1)];

export interface ParsedAbsName {
  /** The place name without any qualifier: "Ascot". */
  readonly name: string;
  /** The state named in the qualifier, if any. */
  readonly state?: StateAbbr;
  /** The area the ABS names to tell same-state namesakes apart: "Ballarat". */
  readonly area?: string;
}

const QUALIFIER = /^(.*\S)\s*\((?:(.+?)\s+-\s+)?(NSW|Vic\.|Qld|SA|WA|Tas\.|NT|ACT|OT)\)$/;

/** Reads "Richmond (Vic.)", "Ascot (Ballarat - Vic.)" or "Fitzroy Crossing". */
export function parseAbsName(absName: string): ParsedAbsName {
  const m = QUALIFIER.exec(absName.trim());
  if (!m) return { name: collapseSpaces(absName) };
  const state = ABS_STATE_QUALIFIERS[m[3]!]!;
  return m[2] ? { name: collapseSpaces(m[1]!), state, area: collapseSpaces(m[2]) } : { name: collapseSpaces(m[1]!), state };
}

/** Writes a name the way the ABS does (the demo generator's SAL_NAME_2021). */
export function formatAbsName(name: string, state: StateAbbr | undefined, area?: string): string {
  if (!state) return name;
  return area ? `${name} (${area} - ${ABS_QUALIFIER_OF[state]})` : `${name} (${ABS_QUALIFIER_OF[state]})`;
}

/** LGA name without the ABS type suffix or state qualifier: "Ballarat (C)" → "Ballarat". */
export function lgaBaseName(absLgaName: string): string {
  const parsed = parseAbsName(absLgaName);
  return parsed.name.replace(/\s*\((?:C|S|RC|M|B|A|T|DC|R|AC|RegC|Sh|CGC|S)\)$/, '');
}

export interface SuburbNaming {
  /** Any unique key (the SAL code). */
  readonly key: string;
  readonly name: string;
  readonly state: StateAbbr;
  /** The distinguishing area: the ABS qualifier's area if it gave one, else the primary LGA's name. */
  readonly area: string;
}

/** Identifiers for all suburbs at once (qualification depends on the other names). */
export function suburbIdentifiers(suburbs: readonly SuburbNaming[]): Map<string, string> {
  const statesOf = new Map<string, Set<StateAbbr>>();
  const perState = new Map<string, number>();
  for (const s of suburbs) {
    const n = normaliseName(s.name);
    let set = statesOf.get(n);
    if (!set) statesOf.set(n, (set = new Set()));
    set.add(s.state);
    const k = `${n}|${s.state}`;
    perState.set(k, (perState.get(k) ?? 0) + 1);
  }
  const ids = new Map<string, string>();
  const used = new Map<string, number>();
  for (const s of suburbs) {
    const n = normaliseName(s.name);
    const repeatedInState = (perState.get(`${n}|${s.state}`) ?? 0) > 1;
    const manyStates = (statesOf.get(n)?.size ?? 0) > 1;
    let id = repeatedInState ? `${s.name} (${s.area}, ${s.state})` : manyStates ? `${s.name} (${s.state})` : s.name;
    // Two namesakes in one LGA: the SAL code is the only thing left that tells them apart.
    const seen = used.get(normaliseName(id)) ?? 0;
    used.set(normaliseName(id), seen + 1);
    if (seen > 0) id = `${s.name} (${s.area}, ${s.state}, ${s.key})`;
    ids.set(s.key, id);
  }
  return ids;
}

/** LGA identifiers: base name, qualified by " (STATE)" where two states share it. */
export function lgaIdentifiers(lgas: readonly { key: string; name: string; state: StateAbbr }[]): Map<string, string> {
  const statesOf = new Map<string, Set<StateAbbr>>();
  for (const l of lgas) {
    const n = normaliseName(l.name);
    let set = statesOf.get(n);
    if (!set) statesOf.set(n, (set = new Set()));
    set.add(l.state);
  }
  return new Map(lgas.map((l) => [l.key, (statesOf.get(normaliseName(l.name))?.size ?? 0) > 1 ? `${l.name} (${l.state})` : l.name]));
}

const collapseSpaces = (s: string) => s.trim().replace(/\s+/g, ' ');

/** The matching key of an identifier: case-insensitive, surrounding and repeated spaces ignored. */
export function normaliseName(s: string): string {
  return collapseSpaces(s).toLowerCase();
}
