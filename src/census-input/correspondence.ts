/**
 * Suburbs of one ASGS edition linked to the areas of another through the ABS's correspondences
 * (population-weighted shares), and 2021's suburbs (SAL) matched to 2016's (SSC) by name. Pure:
 * the correspondence reader (correspondences-2016.ts) hands the rows in, and sal-links.ts links
 * the suburbs with them.
 */
import type { StateAbbr } from '../census-names.ts';
import { normaliseName, parseAbsName } from './abs-names.ts';

/** `ratio` of an area's people live in area `code`. */
export interface Share {
  readonly code: string;
  readonly ratio: number;
}

/** Largest share first; ties by the lower code, so a primary area is chosen the same way every run. */
export const byShare = (a: Share, b: Share): number => b.ratio - a.ratio || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);

/**
 * Each suburb's shares in the areas of another geography, through the small areas both are
 * built from: with SA1 → suburb and SA1 → area shares, a suburb's people in an area are
 * Σ over its SA1s of (SA1 in suburb) × (SA1 in area), the SA1s taken as equally populous (the
 * correspondences carry shares, not counts; SA1s are drawn to 200–800 people). Shares sum to 1
 * per suburb, largest first.
 */
export function sharesThrough(smallToSuburb: ReadonlyMap<string, readonly Share[]>, smallToArea: ReadonlyMap<string, readonly Share[]>): Map<string, Share[]> {
  const sums = new Map<string, Map<string, number>>();
  for (const [small, suburbs] of smallToSuburb) {
    const areas = smallToArea.get(small);
    if (!areas) continue;
    for (const s of suburbs) {
      let into = sums.get(s.code);
      if (!into) sums.set(s.code, (into = new Map()));
      for (const a of areas) into.set(a.code, (into.get(a.code) ?? 0) + s.ratio * a.ratio);
    }
  }
  return new Map([...sums].map(([suburb, areas]) => [suburb, normalised([...areas].map(([code, ratio]) => ({ code, ratio })))]));
}

/** Shares scaled to sum to 1 (zero shares dropped), rounded to 7 places as the ABS writes them, largest first. */
export function normalised(shares: readonly Share[]): Share[] {
  const total = shares.reduce((a, s) => a + s.ratio, 0);
  if (!(total > 0)) return [];
  return shares
    .filter((s) => s.ratio > 0)
    .map((s) => ({ code: s.code, ratio: Math.round((s.ratio / total) * 1e7) / 1e7 }))
    .filter((s) => s.ratio > 0)
    .sort(byShare);
}

/** A suburb to be matched: its code, the name as the ABS wrote it, and its state. */
export interface NamedSuburb {
  readonly code: string;
  readonly absName: string;
  readonly state: StateAbbr;
}

export type MatchKind = 'exact' | 'name' | 'qualifier';

export interface SuburbMatch {
  /** 2021 suburb → the 2016 suburb it is, and how it was found. */
  readonly matched: ReadonlyMap<string, { readonly code: string; readonly how: MatchKind }>;
  /** 2021 suburbs no 2016 suburb of their state has the name of. */
  readonly unmatched: readonly NamedSuburb[];
  /** 2021 suburbs whose name matches more than one 2016 suburb (or the other way round) with nothing to tell them apart: not guessed. */
  readonly ambiguous: readonly { readonly suburb: NamedSuburb; readonly candidates: readonly NamedSuburb[] }[];
}

const fullKey = (s: NamedSuburb) => `${s.state}|${normaliseName(s.absName)}`;
/** The name without any qualifier: 2016 wrote some without the state ("Ascot (Greater Bendigo)"). */
const baseKey = (s: NamedSuburb) => `${s.state}|${normaliseName(parseAbsName(s.absName).name.replace(/\s*\([^()]*\)$/, ''))}`;
/** The area a same-state namesake is told apart by ("Ascot (Ballarat - Vic.)" → "ballarat"; 2016's "Ascot (Ballarat)" too). */
const areaKey = (s: NamedSuburb): string | undefined => {
  const parsed = parseAbsName(s.absName).area;
  if (parsed) return normaliseName(parsed);
  const bare = /\(([^()]+)\)\s*$/.exec(s.absName)?.[1];
  return bare && !/^(NSW|Vic\.|Qld|SA|WA|Tas\.|NT|ACT|OT)$/.test(bare) ? normaliseName(bare) : undefined;
};

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/**
 * 2021's suburbs matched to 2016's by name within their state: first the name exactly as the
 * ABS wrote it; then, among what is left, the name without its qualifier where it is one suburb
 * in each edition; then namesakes told apart by the area in their qualifiers. What still has
 * two candidates is listed as ambiguous, never guessed; what has none, as unmatched.
 */
export function matchSuburbs(suburbs2021: readonly NamedSuburb[], suburbs2016: readonly NamedSuburb[]): SuburbMatch {
  const matched = new Map<string, { code: string; how: MatchKind }>();
  const taken = new Set<string>();
  const exact = groupBy(suburbs2016, fullKey);
  const exactNew = groupBy(suburbs2021, fullKey);
  for (const s of suburbs2021) {
    const old = exact.get(fullKey(s));
    if (old?.length === 1 && exactNew.get(fullKey(s))!.length === 1) {
      matched.set(s.code, { code: old[0]!.code, how: 'exact' });
      taken.add(old[0]!.code);
    }
  }
  const leftNew = suburbs2021.filter((s) => !matched.has(s.code));
  const leftOld = groupBy(suburbs2016.filter((s) => !taken.has(s.code)), baseKey);
  const ambiguous: { suburb: NamedSuburb; candidates: NamedSuburb[] }[] = [];
  const unmatched: NamedSuburb[] = [];
  for (const [key, news] of groupBy(leftNew, baseKey)) {
    const olds = leftOld.get(key) ?? [];
    if (olds.length === 0) {
      unmatched.push(...news);
      continue;
    }
    if (news.length === 1 && olds.length === 1) {
      matched.set(news[0]!.code, { code: olds[0]!.code, how: 'name' });
      continue;
    }
    const oldByArea = groupBy(olds.filter((o) => areaKey(o) !== undefined), (o) => areaKey(o)!);
    const newByArea = groupBy(news.filter((o) => areaKey(o) !== undefined), (o) => areaKey(o)!);
    for (const s of news) {
      const area = areaKey(s);
      const same = area === undefined ? [] : (oldByArea.get(area) ?? []);
      // One suburb of that area in each edition; two 2021 suburbs naming the same area are not told apart.
      if (same.length === 1 && newByArea.get(area!)!.length === 1) matched.set(s.code, { code: same[0]!.code, how: 'qualifier' });
      else ambiguous.push({ suburb: s, candidates: same.length > 1 ? same : olds });
    }
  }
  return { matched, unmatched, ambiguous };
}
