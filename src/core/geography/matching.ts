/**
 * Matching geography selections and search terms against a release's suburbs (docs/spec/decisions.md,
 * "Geography identifiers" and "Geography search"). Pure: the pool reader builds the index once
 * from its catalog and answers every request from it.
 */
import { QUERY_LEVEL_OF_AREA, STATES, STATE_NAMES, type AreaLevel, type GeographyLevel, type StateAbbr } from '../dataset.ts';
import { err, ok, type Result } from '../result.ts';

/**
 * An SA2 by its code as a client writes it: the ABS's nine digits ("601021004"), optionally after
 * "SA2" ("SA2 601021004"); undefined for anything else. The first digit is the state's code.
 */
export function parseSa2Code(input: string): string | undefined {
  return /^(?:sa2\s*)?(\d{9})$/i.exec(input.trim())?.[1];
}

/** Trims and folds runs of white space into one space. */
export const foldSpaces = (s: string): string => s.trim().replace(/\s+/g, ' ');

/** Key for identifiers: case-insensitive, spaces folded (docs/spec/decisions.md). */
export const identifierKey = (s: string): string => foldSpaces(s).toLowerCase();

/** Key for search and suggestions: also accent-insensitive ("Mt Évelyn" finds "Mt Evelyn"). */
export const searchKey = (s: string): string => identifierKey(s).normalize('NFD').replace(/\p{M}/gu, '');

const ALL_STATES: readonly StateAbbr[] = [...STATES, 'OT'];

/** "vic", "VIC", "Victoria", " new  south wales " → the abbreviation; undefined otherwise. */
export function parseState(input: string): StateAbbr | undefined {
  const key = searchKey(input);
  return ALL_STATES.find((s) => s.toLowerCase() === key || searchKey(STATE_NAMES[s]) === key);
}

/** "Australia" or "AUS", any case. */
export const isAustralia = (input: string): boolean => ['australia', 'aus'].includes(searchKey(input));

/** Damerau-Levenshtein distance (optimal string alignment): a transposition counts as one edit. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}

/**
 * The candidates closest to the input ("did you mean …"), best first, at most `limit`, only
 * those within a third of the input's length (at least 2 edits). A candidate that starts with
 * the input counts as distance 1, so "Richm" suggests "Richmond (VIC)".
 */
export function closestNames(input: string, candidates: Iterable<string>, limit = 3): string[] {
  const key = searchKey(input);
  const threshold = Math.max(2, Math.floor(key.length / 3));
  const scored: { name: string; d: number }[] = [];
  const seen = new Set<string>();
  for (const name of candidates) {
    if (seen.has(name)) continue;
    seen.add(name);
    const c = searchKey(name);
    if (Math.abs(c.length - key.length) > threshold && !c.startsWith(key)) continue;
    const d = c.startsWith(key) && key.length > 0 ? Math.min(1, editDistance(key, c)) : editDistance(key, c);
    if (d <= threshold) scored.push({ name, d });
  }
  scored.sort((x, y) => x.d - y.d || x.name.localeCompare(y.name));
  return scored.slice(0, limit).map((s) => s.name);
}

/** What matching needs to know about an area (a suburb, or an SA2, postal area or LGA fitted to its own tables). */
export interface MatchableSuburb {
  /** The level the area's pools were fitted at (releases before levels: suburbs). */
  readonly level?: AreaLevel;
  /** The ABS code: "SAL21234", "601021004" (an SA2's nine digits), "POA3121", "LGA26350". */
  readonly salCode: string;
  readonly suburbId: string;
  readonly name: string;
  readonly state: StateAbbr;
  readonly postcode: string;
  /** Postcodes whose pool includes the suburb (the primary one among them). */
  readonly postcodes: readonly string[];
  /** LGAs whose pool includes the suburb (the primary one among them). */
  readonly lgas: readonly { readonly code: string; readonly name: string }[];
}

export type MatchFailure =
  | { readonly kind: 'unknown'; readonly suggestions: readonly string[] }
  | { readonly kind: 'ambiguous'; readonly choices: readonly string[] }
  /** The release holds no pools that serve this level; `held` are the levels it serves. */
  | { readonly kind: 'unavailable'; readonly held: readonly GeographyLevel[] };

export interface Match<S> {
  readonly canonical: string;
  readonly suburbs: readonly S[];
}

interface LgaEntry {
  readonly code: string;
  readonly name: string;
  readonly state: StateAbbr;
  identifier: string;
  readonly searchName: string;
}

/** Search keys of one area, computed once. */
interface SearchKeys {
  readonly name: string;
  readonly id: string;
  readonly lgas: readonly string[];
}

export interface GeographyIndex<S extends MatchableSuburb> {
  /**
   * The areas of the finest level the release holds (suburbs, else SA2s, else postal areas,
   * else LGAs): what states, Australia and searches are made of.
   */
  readonly suburbs: readonly S[];
  /** The SA2s fitted to their own tables, and each by identifier (its ABS name) and by code. */
  readonly sa2s: readonly S[];
  readonly sa2ByKey: ReadonlyMap<string, S>;
  /** SA2s by name without the state qualifier ("Newtown": the NSW and the Victorian one). */
  readonly sa2ByName: ReadonlyMap<string, readonly S[]>;
  readonly sa2Keys: readonly SearchKeys[];
  /** Query levels the release serves. */
  readonly levels: readonly GeographyLevel[];
  /** Postal areas and LGAs by identifier (a suburb of the same name is found first). */
  readonly otherByIdentifier: ReadonlyMap<string, S>;
  readonly byIdentifier: ReadonlyMap<string, S>;
  readonly byName: ReadonlyMap<string, readonly S[]>;
  readonly byPostcode: ReadonlyMap<string, readonly S[]>;
  readonly lgas: ReadonlyMap<string, LgaEntry>;
  readonly lgaMembers: ReadonlyMap<string, readonly S[]>;
  readonly lgaByIdentifier: ReadonlyMap<string, LgaEntry>;
  readonly lgaByName: ReadonlyMap<string, readonly LgaEntry[]>;
  /** Search keys per suburb, computed once. */
  readonly keys: readonly SearchKeys[];
}

const push = <K, V>(map: Map<K, V[]>, key: K, value: V): void => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

const levelOf = (s: MatchableSuburb): AreaLevel => s.level ?? 'sal';

/**
 * Builds the look-up tables; the areas' order is kept (it is the result order among equals).
 * Postcodes resolve to the postal areas fitted to the POA tables when the release has them,
 * else to the suburbs that overlap them; LGAs likewise.
 */
export function buildGeographyIndex<S extends MatchableSuburb>(areas: readonly S[]): GeographyIndex<S> {
  const ofLevel = (level: AreaLevel) => areas.filter((a) => levelOf(a) === level);
  const sals = ofLevel('sal');
  const sa2s = ofLevel('sa2');
  const poas = ofLevel('poa');
  const lgaAreas = ofLevel('lga');
  const suburbs = [sals, sa2s, poas, lgaAreas].find((l) => l.length > 0) ?? [];
  const levels: GeographyLevel[] = [];
  if (sals.length > 0) levels.push('suburb');
  if (sals.length > 0 || poas.length > 0) levels.push('postcode');
  if (sa2s.length > 0) levels.push('sa2');
  if (sals.length > 0 || lgaAreas.length > 0) levels.push('lga');
  if (areas.length > 0) levels.push('state', 'australia');
  const byIdentifier = new Map<string, S>();
  const otherByIdentifier = new Map<string, S>();
  const byName = new Map<string, S[]>();
  const byPostcode = new Map<string, S[]>();
  const lgas = new Map<string, LgaEntry>();
  const lgaMembers = new Map<string, S[]>();
  for (const s of [...poas, ...lgaAreas]) {
    const key = identifierKey(s.suburbId);
    if (otherByIdentifier.has(key)) throw new Error(`two ${levelOf(s) === 'poa' ? 'postal areas' : 'LGAs'} share the identifier "${s.suburbId}"`);
    otherByIdentifier.set(key, s);
  }
  const postcodeMembers = poas.length > 0 ? poas : sals;
  const lgaSources = lgaAreas.length > 0 ? lgaAreas : sals;
  for (const s of postcodeMembers) for (const p of new Set([s.postcode, ...s.postcodes])) push(byPostcode, p, s);
  for (const s of sals) {
    const key = identifierKey(s.suburbId);
    if (byIdentifier.has(key)) throw new Error(`two suburbs share the identifier "${s.suburbId}"`);
    byIdentifier.set(key, s);
    push(byName, identifierKey(s.name), s);
  }
  for (const s of lgaSources) {
    for (const l of s.lgas) {
      if (!lgas.has(l.code)) lgas.set(l.code, { code: l.code, name: l.name, state: s.state, identifier: l.name, searchName: searchKey(l.name) });
      push(lgaMembers, l.code, s);
    }
  }
  // An LGA name used in more than one state carries " (STATE)", like suburbs do.
  const lgaByName = new Map<string, LgaEntry[]>();
  for (const l of lgas.values()) push(lgaByName, identifierKey(l.name), l);
  for (const group of lgaByName.values()) {
    if (new Set(group.map((l) => l.state)).size > 1) for (const l of group) l.identifier = `${l.name} (${l.state})`;
  }
  const lgaByIdentifier = new Map<string, LgaEntry>();
  for (const l of lgas.values()) lgaByIdentifier.set(identifierKey(l.identifier), l);
  const keysOf = (s: S): SearchKeys => ({ name: searchKey(s.name), id: searchKey(s.suburbId), lgas: s.lgas.map((l) => searchKey(l.name)) });
  const sa2ByName = new Map<string, S[]>();
  for (const s of sa2s) push(sa2ByName, identifierKey(s.name), s);
  return {
    suburbs, sa2s, sa2ByKey: sa2Index(sa2s), sa2ByName, sa2Keys: sa2s.map(keysOf),
    levels, otherByIdentifier, byIdentifier, byName, byPostcode, lgas, lgaMembers, lgaByIdentifier, lgaByName, keys: suburbs.map(keysOf),
  };
}

/** SA2s by identifier (the ABS name, unique in Australia) and by nine-digit code. */
function sa2Index<S extends MatchableSuburb>(sa2s: readonly S[]): Map<string, S> {
  const byKey = new Map<string, S>();
  for (const s of sa2s) {
    for (const key of new Set([identifierKey(s.suburbId), s.salCode])) {
      if (byKey.has(key)) throw new Error(`two SA2s share the identifier or code "${key}"`);
      byKey.set(key, s);
    }
  }
  return byKey;
}

/** "Richmond (VIC)" → { name: "Richmond", state: "VIC" }; anything else → undefined. */
function splitStateQualifier(input: string): { name: string; state: StateAbbr } | undefined {
  const m = /^(.*\S)\s*\(\s*([^()]+?)\s*\)$/.exec(foldSpaces(input));
  if (!m) return undefined;
  const state = parseState(m[2]!);
  return state === undefined ? undefined : { name: m[1]!, state };
}

/**
 * An area by its identifier, as /geography/{suburb_id}/variables takes it: a suburb, else a
 * postal area or LGA the release fitted to its own tables.
 */
export function findArea<S extends MatchableSuburb>(index: GeographyIndex<S>, input: string): Result<Match<S>, MatchFailure> {
  const resolved = resolveSuburb(index, input);
  if (resolved.ok || resolved.error.kind === 'ambiguous') return resolved;
  const sa2 = sa2Of(index, input);
  if (sa2) return ok({ canonical: sa2.suburbId, suburbs: [sa2] });
  const other = index.otherByIdentifier.get(identifierKey(input));
  if (other) return ok({ canonical: other.suburbId, suburbs: [other] });
  if (index.byIdentifier.size > 0) return resolved;
  return err({ kind: 'unknown', suggestions: closestNames(input, [...index.sa2s, ...index.otherByIdentifier.values()].map((s) => s.suburbId)) });
}

/**
 * An SA2 by its nine-digit code or its ABS name ("Richmond (Vic.)"); the name may also carry
 * spq's state qualifier ("Richmond (VIC)") or, where it is unique, none.
 */
function sa2Of<S extends MatchableSuburb>(index: GeographyIndex<S>, input: string): S | undefined {
  const found = sa2sNamed(index, input);
  return found.length === 1 ? found[0] : undefined;
}

/** The SA2s a code or name can mean: one, several (a bare name two states use), or none. */
function sa2sNamed<S extends MatchableSuburb>(index: GeographyIndex<S>, input: string): S[] {
  const code = parseSa2Code(input);
  const exact = index.sa2ByKey.get(code ?? identifierKey(input));
  if (exact || code !== undefined) return exact ? [exact] : [];
  const q = splitStateQualifier(input);
  return (index.sa2ByName.get(identifierKey(q?.name ?? input)) ?? []).filter((s) => q === undefined || s.state === q.state);
}

function resolveSa2<S extends MatchableSuburb>(index: GeographyIndex<S>, input: string): Result<Match<S>, MatchFailure> {
  const found = sa2sNamed(index, input);
  if (found.length === 1) return ok({ canonical: found[0]!.suburbId, suburbs: [found[0]!] });
  if (found.length > 1) return err({ kind: 'ambiguous', choices: found.map((s) => s.suburbId).sort() });
  const candidates = parseSa2Code(input) !== undefined || /^\s*\d+\s*$/.test(input) ? index.sa2s.map((s) => s.salCode) : index.sa2s.map((s) => s.suburbId);
  return err({ kind: 'unknown', suggestions: closestNames(input, candidates) });
}

function resolveSuburb<S extends MatchableSuburb>(index: GeographyIndex<S>, input: string): Result<Match<S>, MatchFailure> {
  const exact = index.byIdentifier.get(identifierKey(input));
  if (exact) return ok({ canonical: exact.suburbId, suburbs: [exact] });
  const named = index.byName.get(identifierKey(input));
  if (named && named.length > 0) {
    if (named.length === 1) return ok({ canonical: named[0]!.suburbId, suburbs: [named[0]!] });
    return err({ kind: 'ambiguous', choices: named.map((s) => s.suburbId).sort() });
  }
  // "Fitzroy (VIC)" for a name unique to its state is accepted too; canonical drops the qualifier.
  const q = splitStateQualifier(input);
  if (q) {
    const inState = (index.byName.get(identifierKey(q.name)) ?? []).filter((s) => s.state === q.state);
    if (inState.length === 1) return ok({ canonical: inState[0]!.suburbId, suburbs: [inState[0]!] });
    if (inState.length > 1) return err({ kind: 'ambiguous', choices: inState.map((s) => s.suburbId).sort() });
  }
  return err({ kind: 'unknown', suggestions: closestNames(input, index.suburbs.map((s) => s.suburbId)) });
}

function resolveLga<S extends MatchableSuburb>(index: GeographyIndex<S>, input: string): Result<Match<S>, MatchFailure> {
  const code = /^(?:lga)?\s*(\d{5})$/i.exec(foldSpaces(input));
  const entry =
    (code ? index.lgas.get(`LGA${code[1]}`) : undefined) ?? index.lgaByIdentifier.get(identifierKey(input));
  const found = (l: LgaEntry): Result<Match<S>, MatchFailure> => ok({ canonical: l.identifier, suburbs: index.lgaMembers.get(l.code) ?? [] });
  if (entry) return found(entry);
  const named = index.lgaByName.get(identifierKey(input)) ?? [];
  if (named.length === 1) return found(named[0]!);
  if (named.length > 1) return err({ kind: 'ambiguous', choices: named.map((l) => l.identifier).sort() });
  return err({ kind: 'unknown', suggestions: closestNames(input, [...index.lgas.values()].map((l) => l.identifier)) });
}

/** Resolves one geography selection at a level to the suburbs that make up its pool. */
export function resolveGeography<S extends MatchableSuburb>(index: GeographyIndex<S>, level: GeographyLevel, input: string): Result<Match<S>, MatchFailure> {
  if (!index.levels.includes(level)) return err({ kind: 'unavailable', held: index.levels });
  switch (level) {
    case 'suburb':
      return resolveSuburb(index, input);
    case 'postcode': {
      const pc = foldSpaces(input);
      const members = /^\d{4}$/.test(pc) ? index.byPostcode.get(pc) : undefined;
      if (members) return ok({ canonical: pc, suburbs: members });
      return err({ kind: 'unknown', suggestions: closestNames(pc, index.byPostcode.keys()) });
    }
    case 'sa2':
      return resolveSa2(index, input);
    case 'lga':
      return resolveLga(index, input);
    case 'state': {
      const state = parseState(input);
      const members = state === undefined ? [] : index.suburbs.filter((s) => s.state === state);
      if (state !== undefined && members.length > 0) return ok({ canonical: state, suburbs: members });
      const present = ALL_STATES.filter((s) => index.suburbs.some((x) => x.state === s));
      return err({ kind: 'unknown', suggestions: closestNames(input, present).concat(state === undefined ? [] : present).slice(0, 3) });
    }
    case 'australia':
      if (isAustralia(input)) return ok({ canonical: 'Australia', suburbs: index.suburbs });
      return err({ kind: 'unknown', suggestions: ['Australia'] });
  }
}

export interface GeographySearch {
  readonly query: string;
  readonly state?: StateAbbr;
  readonly level: 'suburb' | 'postcode' | 'sa2' | 'lga' | 'state';
  readonly limit: number;
}

/**
 * Areas of the finest level the release holds whose name (or postcode, LGA, state, by level)
 * contains the term, case- and accent-insensitively; those that start with it first, then by
 * name and identifier. total counts every match, results are the first `limit`. At level "sa2"
 * the release's SA2s, by name or code.
 */
export function searchGeography<S extends MatchableSuburb>(index: GeographyIndex<S>, q: GeographySearch): { results: S[]; total: number } {
  const term = searchKey(q.query);
  const rank = (values: readonly string[]): number => (values.some((v) => v.startsWith(term)) ? 0 : values.some((v) => v.includes(term)) ? 1 : -1);
  const hits: { s: S; rank: number }[] = [];
  const [areas, keys] = q.level === 'sa2' ? [index.sa2s, index.sa2Keys] : [index.suburbs, index.keys];
  areas.forEach((s, i) => {
    if (q.state !== undefined && s.state !== q.state) return;
    const k = keys[i]!;
    const r =
      q.level === 'sa2'
        ? rank([k.name, k.id, s.salCode])
        : q.level === 'suburb'
        ? rank([k.name, k.id])
        : q.level === 'postcode'
          ? rank(s.postcodes)
          : q.level === 'lga'
            ? rank(k.lgas)
            : rank([s.state.toLowerCase(), searchKey(STATE_NAMES[s.state])]);
    if (r >= 0) hits.push({ s, rank: r });
  });
  hits.sort((a, b) => a.rank - b.rank || a.s.name.localeCompare(b.s.name) || a.s.suburbId.localeCompare(b.s.suburbId));
  return { results: hits.slice(0, Math.max(0, q.limit)).map((h) => h.s), total: hits.length };
}
