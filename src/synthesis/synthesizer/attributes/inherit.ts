/**
 * Families made to resemble each other without moving a table. The attributes were dealt person
 * by person, exact to their tables by sex and age group, so here whole *bundles* (columns that
 * travel together: a person's birthplace, language, religion …) are swapped between two persons
 * of one stratum (sex × age group, finer where a table needs it): every table that carries the
 * bundle's columns within those strata stays exactly as dealt, while bundles move to the families
 * they fit.
 *
 * Each trait has a target: the share of its links (couples, or children with their parents) that
 * should be alike. The climb proposes one swap at a time and keeps it when the distance to the
 * targets, Σ_t (|alike_t − target_t · counted_t| + 2 · |eligible_t − eligible as dealt|) / counted
 * as dealt (in shares of each trait's links; eligible = counted, or counted but for the child's
 * condition where a trait has one), does not grow; so it stops at a realistic level
 * instead of making every family uniform, and undoes likeness the dealing made by chance beyond
 * a target. The targets come from family-strengths.ts (docs/synthesis.md, "Families").
 */
import type { Rng } from '../rng.ts';
import type { FamilyLinks } from '../../census/family-links.ts';

export interface LinkTrait {
  readonly name: string;
  /** Which links the trait compares: the two partners, a child with its parents, or another relative with them. */
  readonly link: 'partners' | 'children' | 'relatives';
  /** The trait's column (one of the bundle's columns, changed in place by the swaps). */
  readonly column: Uint8Array;
  /** Stated categories (1); a link with an unstated side is not counted. */
  readonly stated: Uint8Array;
  /** Compare groups of categories (a coarse level) instead of categories. */
  readonly groupOf?: ArrayLike<number>;
  /** Children: a category alike whatever the parents hold (born in Australia). */
  readonly childAlsoMatches?: number;
  /** Children: count only children with a parent in this group, alike when the child is in it too. */
  readonly amongParentGroup?: number;
  /**
   * Children: count only children whose `column` (another of the bundle's columns, so it moves
   * with the trait's) holds a category marked 1 in `categories` (born in Australia).
   */
  readonly childCountedWhen?: { readonly column: Uint8Array; readonly categories: Uint8Array };
  /** Share of counted links that should be alike. */
  readonly targetShare: number;
}

export interface InheritInput {
  /** The swapped columns (changed in place); every trait's column is one of them. */
  readonly bundle: readonly Uint8Array[];
  readonly traits: readonly LinkTrait[];
  /** Swap stratum of each person, −1 = never swapped. */
  readonly stratum: Int32Array;
  readonly strata: number;
  readonly links: FamilyLinks;
  /** Proposals per link. */
  readonly proposals: number;
}

export interface TraitOutcome {
  readonly name: string;
  readonly link: 'partners' | 'children' | 'relatives';
  /** Links with both sides stated, after the climb. */
  readonly counted: number;
  readonly countedBefore: number;
  readonly alikeBefore: number;
  readonly alikeAfter: number;
  readonly targetShare: number;
}

export interface InheritReport {
  readonly links: number;
  readonly swaps: number;
  /** Σ_t (|alike_t − target_t · counted_t| + 2 · |eligible_t − eligible as dealt|) / counted as dealt, before and after the climb. */
  readonly distanceBefore: number;
  readonly distanceAfter: number;
  readonly traits: readonly TraitOutcome[];
}

/** A trait with its lookups resolved to typed arrays. */
interface Compiled {
  readonly column: Uint8Array;
  readonly stated: Uint8Array;
  readonly group: Uint8Array;
  readonly alsoMatches: number;
  readonly among: number;
  /** The child's condition column and the categories it must hold; null when every child counts. */
  readonly childColumn: Uint8Array | null;
  readonly childCategories: Uint8Array | null;
  /** A child-like link (a child or another relative with the family's partners or lone parent). */
  readonly children: boolean;
  /** Of those, the relatives' links rather than the children's. */
  readonly relatives: boolean;
  readonly target: number;
}

const compile = (t: LinkTrait): Compiled => ({
  column: t.column,
  stated: t.stated,
  group: Uint8Array.from({ length: 256 }, (_, k) => (t.groupOf ? (t.groupOf[k] ?? 255) : k)),
  alsoMatches: t.childAlsoMatches ?? -1,
  among: t.amongParentGroup ?? -1,
  childColumn: t.childCountedWhen?.column ?? null,
  childCategories: t.childCountedWhen?.categories ?? null,
  children: t.link !== 'partners',
  relatives: t.link === 'relatives',
  target: t.targetShare,
});

/** Whether a swap of c's and d's bundles can change the trait's links: c and d differ in its column or in its children's condition. */
const differs = (t: Compiled, c: number, d: number): boolean => t.column[c] !== t.column[d] || (t.childColumn !== null && t.childColumn[c] !== t.childColumn[d]);

/**
 * A link that would be counted but for its child's condition (a child born overseas for the
 * citizenship link): not in the trait's share, but in what the climb keeps as dealt, so that a
 * swap may move a child across the condition (its birthplace) without paying for it, while
 * hiding a link behind a "Not stated" answer still costs.
 */
const ELIGIBLE_ONLY = 3;
const isCounted = (s: number) => s === 1 || s === 2;

/** 0 = link not counted, 1 = counted and unlike, 2 = counted and alike, ELIGIBLE_ONLY. */
function partnersState(t: Compiled, a: number, b: number): number {
  const va = t.column[a]!;
  const vb = t.column[b]!;
  if (!t.stated[va] || !t.stated[vb]) return 0;
  return t.group[va] === t.group[vb] ? 2 : 1;
}

function childState(t: Compiled, child: number, parentA: number, parentB: number): number {
  const vc = t.column[child]!;
  if (!t.stated[vc]) return 0;
  const gc = t.group[vc]!;
  let counted = false;
  let alike = false;
  for (let side = 0; side < 2; side++) {
    const parent = side === 0 ? parentA : parentB;
    if (parent < 0) continue;
    const vp = t.column[parent]!;
    if (!t.stated[vp]) continue;
    const gp = t.group[vp]!;
    if (t.among >= 0) {
      if (gp !== t.among) continue;
      counted = true;
      if (gc === t.among) alike = true;
    } else {
      counted = true;
      if (gc === gp) alike = true;
    }
  }
  if (!counted) return 0;
  if (t.childColumn && !t.childCategories![t.childColumn[child]!]) return ELIGIBLE_ONLY;
  if (t.among < 0 && vc === t.alsoMatches) alike = true;
  return alike ? 2 : 1;
}

/**
 * Who holds which group of a trait, per stratum, so a targeted draw finds a holder at once
 * instead of by trial. A swap exchanges two bundles within one stratum, so each stratum's
 * buckets keep their sizes and only the two persons trade places.
 */
interface Holders {
  /** A person of stratum s holding group g, or −1 when none does. */
  draw(s: number, g: number, rng: Rng): number;
  /** After c and d (one stratum) swapped bundles. */
  exchanged(c: number, d: number): void;
}

const GROUPS = 256;
/** Draws of a link per proposal in search of one the trait would change. */
const LINK_TRIES = 8;
/** Proposals per link without a step nearer the targets after which the climb stops. */
const STALL_PROPOSALS_PER_LINK = 2;

function holdersOf(t: Compiled, stratum: Int32Array, strata: number): Holders {
  const n = stratum.length;
  const key = (p: number) => stratum[p]! * GROUPS + t.group[t.column[p]!]!;
  const start = new Int32Array(strata * GROUPS + 1);
  for (let p = 0; p < n; p++) if (stratum[p]! >= 0) start[key(p) + 1]!++;
  for (let b = 0; b < strata * GROUPS; b++) start[b + 1]! += start[b]!;
  const order = new Int32Array(start[strata * GROUPS]!);
  const at = new Int32Array(n).fill(-1);
  const fill = start.slice(0, strata * GROUPS);
  for (let p = 0; p < n; p++) {
    if (stratum[p]! < 0) continue;
    at[p] = fill[key(p)]!++;
    order[at[p]!] = p;
  }
  return {
    draw(s, g, rng) {
      const from = start[s * GROUPS + g]!;
      const size = start[s * GROUPS + g + 1]! - from;
      return size > 0 ? order[from + rng.int(size)]! : -1;
    },
    exchanged(c, d) {
      if (t.group[t.column[c]!] === t.group[t.column[d]!]) return;
      const x = at[c]!;
      at[c] = at[d]!;
      at[d] = x;
      order[at[c]!] = c;
      order[at[d]!] = d;
    },
  };
}

export function inheritWithinFamilies(input: InheritInput, rng: Rng): InheritReport {
  const family = linkIndex(input);
  const tallies = linkTallies(family);
  const moves = swapMoves(input.bundle, family, tallies);
  const swaps = climb(input, family, tallies, moves, rng);
  const { linkCount } = family;
  const { counted, alike, countedBefore, alikeBefore, distance, distanceBefore } = tallies;
  return {
    links: linkCount,
    swaps,
    distanceBefore,
    distanceAfter: distance(),
    traits: input.traits.map((t, k) => ({ name: t.name, link: t.link, counted: counted[k]!, countedBefore: countedBefore[k]!, alikeBefore: alikeBefore[k]!, alikeAfter: alike[k]!, targetShare: t.targetShare })),
  };
}

/** The traits compiled, the links (partners first, then children) and who is in each, and the members of each stratum. */
interface LinkIndex {
  readonly stratum: Int32Array;
  readonly traits: readonly Compiled[];
  readonly couples: number;
  /** Child-like links that are children's (the relatives' follow them). */
  readonly childCount: number;
  readonly linkCount: number;
  readonly partners: FamilyLinks['partners'];
  readonly children: FamilyLinks['children'];
  /** A trait's state on a link: 0 not counted (another kind of link, or a side not stated), 1 unlike, 2 alike. */
  readonly stateOf: (t: Compiled, l: number) => number;
  /** The links each person is in (CSR: linksOf[start[p] … start[p + 1] − 1]). */
  readonly start: Int32Array;
  readonly linksOf: Int32Array;
  readonly members: readonly Int32Array[];
  readonly holders: readonly Holders[];
}

function linkIndex(input: InheritInput): LinkIndex {
  const { stratum, links } = input;
  const n = stratum.length;
  const traits = input.traits.map(compile);
  const couples = links.partners.length / 2;
  const childCount = links.children.length / 3;
  // Children's triples, then the relatives': one run of child-like links.
  const children = new Int32Array(links.children.length + (links.relatives?.length ?? 0));
  children.set(links.children);
  if (links.relatives) children.set(links.relatives, links.children.length);
  const linkCount = couples + children.length / 3;
  const membersOf = (l: number): [number, number, number] =>
    l < couples ? [links.partners[2 * l]!, links.partners[2 * l + 1]!, -1] : [children[3 * (l - couples)]!, children[3 * (l - couples) + 1]!, children[3 * (l - couples) + 2]!];
  const { partners } = links;
  const stateOf = (t: Compiled, l: number): number => {
    if (t.children !== l >= couples) return 0;
    if (t.children && l - couples >= childCount !== t.relatives) return 0;
    if (!t.children) return partnersState(t, partners[2 * l]!, partners[2 * l + 1]!);
    const j = 3 * (l - couples);
    return childState(t, children[j]!, children[j + 1]!, children[j + 2]!);
  };

  // The links each person is in (CSR), for the links a swap touches.
  const start = new Int32Array(n + 1);
  for (let l = 0; l < linkCount; l++) for (const p of membersOf(l)) if (p >= 0) start[p + 1]!++;
  for (let p = 0; p < n; p++) start[p + 1]! += start[p]!;
  const linksOf = new Int32Array(start[n]!);
  const fill = start.slice(0, n);
  for (let l = 0; l < linkCount; l++) for (const p of membersOf(l)) if (p >= 0) linksOf[fill[p]!++] = l;
  // Members of each stratum, to draw swap partners from.
  const lists: number[][] = Array.from({ length: input.strata }, () => []);
  for (let p = 0; p < n; p++) if (stratum[p]! >= 0) lists[stratum[p]!]!.push(p);
  const members = lists.map((list) => Int32Array.from(list));
  const holders = traits.map((t) => holdersOf(t, stratum, input.strata));
  return { stratum, traits, couples, childCount, linkCount, partners, children, stateOf, start, linksOf, members, holders };
}

/** Each trait's links counted and alike, before and as the swaps go, and the distance to the targets. */
interface LinkTallies {
  readonly counted: Float64Array;
  readonly alike: Float64Array;
  readonly countedBefore: Float64Array;
  readonly alikeBefore: Float64Array;
  /** Links counted or counted but for their child's condition (ELIGIBLE_ONLY), now and as dealt. */
  readonly eligible: Float64Array;
  readonly eligibleBefore: Float64Array;
  readonly weight: Float64Array;
  readonly distance: () => number;
  readonly distanceBefore: number;
}

function linkTallies(family: LinkIndex): LinkTallies {
  const { traits, linkCount, stateOf } = family;
  const counted = new Float64Array(traits.length);
  const alike = new Float64Array(traits.length);
  const eligible = new Float64Array(traits.length);
  for (let l = 0; l < linkCount; l++) {
    traits.forEach((t, k) => {
      const s = stateOf(t, l);
      if (isCounted(s)) counted[k]!++;
      if (s > 0) eligible[k]!++;
      if (s === 2) alike[k]!++;
    });
  }
  const alikeBefore = Float64Array.from(alike);
  const countedBefore = Float64Array.from(counted);
  const eligibleBefore = Float64Array.from(eligible);
  // Each trait's distance is in shares of its links, so a rare link (children of Indigenous
  // parents) weighs as much as a common one (children's religion) instead of being outvoted.
  // Moving an unstated answer into a link would take an unlike link out of the count, nearer
  // the target for nothing: each link counted or uncounted beyond the dealing costs two, more
  // than it can gain.
  const weight = Float64Array.from(countedBefore, (c) => 1 / Math.max(1, c));
  const distance = () => {
    let sum = 0;
    for (let k = 0; k < traits.length; k++) sum += weight[k]! * (Math.abs(alike[k]! - traits[k]!.target * counted[k]!) + 2 * Math.abs(eligible[k]! - eligibleBefore[k]!));
    return sum;
  };
  const distanceBefore = distance();
  return { counted, alike, countedBefore, alikeBefore, eligible, eligibleBefore, weight, distance, distanceBefore };
}

/** What a proposed swap is scored with: the links it touches, each trait's change in tallies, the distance after it, and the swap itself. */
interface SwapMoves {
  /** Forgets the links collected for the last proposal. */
  readonly clearTouched: () => void;
  readonly collect: (p: number, round: number) => void;
  readonly deltaCounted: Float64Array;
  readonly deltaEligible: Float64Array;
  readonly deltaAlike: Float64Array;
  readonly changes: Uint8Array;
  readonly tally: (sign: number) => void;
  readonly distanceAfter: () => number;
  readonly swap: (c: number, d: number) => void;
}

function swapMoves(bundle: readonly Uint8Array[], family: LinkIndex, tallies: LinkTallies): SwapMoves {
  const { traits, couples, childCount, linkCount, partners, children, start, linksOf } = family;
  const { counted, alike, eligible, eligibleBefore, weight } = tallies;
  const stamp = new Int32Array(linkCount).fill(-1);
  // The links a proposal touches, each once (a typed array and its length: no array to regrow per proposal).
  const touched = new Int32Array(linkCount);
  let touchedCount = 0;
  const clearTouched = () => {
    touchedCount = 0;
  };
  const collect = (p: number, round: number) => {
    for (let k = start[p]!; k < start[p + 1]!; k++) {
      const l = linksOf[k]!;
      if (stamp[l] !== round) {
        stamp[l] = round;
        touched[touchedCount++] = l;
      }
    }
  };
  const partnerTraits = traits.flatMap((t, k) => (t.children ? [] : [k]));
  // Child-like traits split by the links they compare (children's or other relatives'), so a link looks only at its own.
  const childTraits = traits.flatMap((t, k) => (t.children && !t.relatives ? [k] : []));
  const relativeTraits = traits.flatMap((t, k) => (t.relatives ? [k] : []));
  // The change a swap makes to each trait's tallies: the touched links' states after minus before.
  const deltaCounted = new Float64Array(traits.length);
  const deltaEligible = new Float64Array(traits.length);
  const deltaAlike = new Float64Array(traits.length);
  /** Traits whose column the swap changes (c and d hold different categories): the others' links stay as they are. */
  const changes = new Uint8Array(traits.length);
  /** Adds (sign +1) or takes away (−1) the touched links' states into the deltas. */
  const tally = (sign: number) => {
    for (let i = 0; i < touchedCount; i++) {
      const l = touched[i]!;
      if (l < couples) {
        const a = partners[2 * l]!;
        const b = partners[2 * l + 1]!;
        for (let m = 0; m < partnerTraits.length; m++) {
          const k = partnerTraits[m]!;
          if (!changes[k]) continue;
          const s = partnersState(traits[k]!, a, b);
          if (s > 0) {
            deltaCounted[k]! += sign;
            deltaEligible[k]! += sign;
          }
          if (s === 2) deltaAlike[k]! += sign;
        }
      } else {
        const j = 3 * (l - couples);
        const child = children[j]!;
        const parentA = children[j + 1]!;
        const parentB = children[j + 2]!;
        const ofLink = l - couples >= childCount ? relativeTraits : childTraits;
        for (let m = 0; m < ofLink.length; m++) {
          const k = ofLink[m]!;
          if (!changes[k]) continue;
          const s = childState(traits[k]!, child, parentA, parentB);
          if (isCounted(s)) deltaCounted[k]! += sign;
          if (s > 0) deltaEligible[k]! += sign;
          if (s === 2) deltaAlike[k]! += sign;
        }
      }
    }
  };
  /** The distance with the deltas applied. */
  const distanceAfter = () => {
    let sum = 0;
    for (let k = 0; k < traits.length; k++) {
      const c = counted[k]! + deltaCounted[k]!;
      sum += weight[k]! * (Math.abs(alike[k]! + deltaAlike[k]! - traits[k]!.target * c) + 2 * Math.abs(eligible[k]! + deltaEligible[k]! - eligibleBefore[k]!));
    }
    return sum;
  };
  const swap = (c: number, d: number) => {
    for (const col of bundle) {
      const x = col[c]!;
      col[c] = col[d]!;
      col[d] = x;
    }
  };
  return { clearTouched, collect, deltaCounted, deltaEligible, deltaAlike, changes, tally, distanceAfter, swap };
}

/** The climb: proposals of swaps between two persons of a stratum, kept when they bring the traits no further from their targets; returns the swaps kept. */
function climb(input: InheritInput, family: LinkIndex, tallies: LinkTallies, moves: SwapMoves, rng: Rng): number {
  const { stratum, traits, couples, childCount, linkCount, partners, children, stateOf, members, holders } = family;
  const { counted, alike, eligible, distanceBefore } = tallies;
  const { clearTouched, collect, deltaCounted, deltaEligible, deltaAlike, changes, tally, distanceAfter, swap } = moves;
  let swaps = 0;
  let current = distanceBefore;
  // Each trait's kind of link as its first link and count: partners, children or other relatives.
  const kindOf = (t: Compiled) => (!t.children ? [0, couples] : t.relatives ? [couples + childCount, linkCount - couples - childCount] : [couples, childCount]);
  const firstOfKinds = Int32Array.from(traits, (t) => kindOf(t)[0]!);
  const ofKinds = Int32Array.from(traits, (t) => kindOf(t)[1]!);
  const rounds = linkCount * input.proposals;
  // Stop early once the climb has stalled: no step nearer the targets in this many proposals.
  const patience = STALL_PROPOSALS_PER_LINK * linkCount;
  let lastGain = 0;
  for (let round = 0; round < rounds && round - lastGain < patience && traits.length > 0; round++) {
    // A trait, then one of its links, then the member that moves (either side may hold the
    // bundle that fits the other).
    const k = rng.int(traits.length);
    const t = traits[k]!;
    const firstOfKind = firstOfKinds[k]!;
    const ofKind = ofKinds[k]!;
    if (ofKind === 0) continue;
    // A link worth moving: unlike while the trait is short of its target, alike past it (a
    // few draws; most links are already as they should be).
    const short = alike[k]! < t.target * counted[k]!;
    const wanted = short ? 1 : 2;
    let l = firstOfKind + rng.int(ofKind);
    for (let tries = 0; tries < LINK_TRIES && stateOf(t, l) !== wanted; tries++) l = firstOfKind + rng.int(ofKind);
    let c: number;
    let other: number;
    if (!t.children) {
      const first = rng.next() < 0.5;
      c = partners[2 * l + (first ? 0 : 1)]!;
      other = partners[2 * l + (first ? 1 : 0)]!;
    } else {
      const j = 3 * (l - couples);
      const child = children[j]!;
      const parent = children[j + 2]! >= 0 && rng.next() < 0.5 ? children[j + 2]! : children[j + 1]!;
      const moveChild = rng.next() < 0.5;
      c = moveChild ? child : parent;
      other = moveChild ? parent : child;
    }
    const s = stratum[c]!;
    if (s < 0 || c === other) continue;
    // Short of its target, a trait takes someone of the stratum holding what the other side
    // has; past it, anyone (a blind draw undoes likeness).
    const pool = members[s]!;
    const d = short ? holders[k]!.draw(s, t.group[t.column[other]!]!, rng) : pool[rng.int(pool.length)]!;
    if (d < 0 || d === c) continue;
    let changing = 0;
    for (let m = 0; m < traits.length; m++) changing += changes[m] = differs(traits[m]!, c, d) ? 1 : 0;
    if (changing === 0) continue;
    clearTouched();
    collect(c, round);
    collect(d, round);
    deltaCounted.fill(0);
    deltaEligible.fill(0);
    deltaAlike.fill(0);
    tally(-1);
    swap(c, d);
    tally(+1);
    const after = distanceAfter();
    if (after > current + 1e-12) swap(c, d);
    else {
      for (let k = 0; k < traits.length; k++) {
        counted[k]! += deltaCounted[k]!;
        eligible[k]! += deltaEligible[k]!;
        alike[k]! += deltaAlike[k]!;
      }
      if (after < current - 1e-12) lastGain = round;
      current = after;
      swaps++;
      for (const h of holders) h.exchanged(c, d);
    }
  }
  return swaps;
}
