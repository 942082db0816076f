/**
 * Families that hold together: children mostly share their mother's religion, language and
 * Indigenous status and are born in Australia or where she was; partners mostly share
 * birthplace, language and religion. The attributes were dealt person by person (exact to their
 * tables, by sex), so here whole *bundles* (a person's Indigenous status, birthplace, citizenship,
 * language, English proficiency, religion) are swapped between two persons of the same sex and
 * age group: every table that carries them (G01, G14: by sex) stays exactly as dealt, as does
 * their link with age, while the bundles move to the families they fit (a hill climb on the
 * number of family resemblances, one swap at a time, kept when it does not lower it).
 *
 * Not every link is pursued: each child follows its parent, and each couple is alike, with a
 * set probability (intermarriage, adoption, a child's own religion), so the climb stops at a
 * realistic level instead of making every family uniform.
 */
import { categoryIndex, variableByCode } from '../../census/variables.ts';
import type { Rng } from '../rng.ts';
import { isUninformative } from './labels.ts';

export interface ResemblanceTrait {
  /** Index of the trait's column in the bundle. */
  readonly column: number;
  /** Which categories count (stated ones); a link with an unstated side scores nothing. */
  readonly stated: Uint8Array;
  /** Weight of a child sharing its parent's category. */
  readonly child: number;
  /** Weight of partners sharing a category. */
  readonly partner: number;
  /** For children: a category that also counts as resembling whatever the parent has (born in Australia). */
  readonly childAlsoMatches?: number;
  /** Compare groups of categories (a coarse level) instead of categories. */
  readonly groupOf?: ArrayLike<number>;
}

export interface InheritInput {
  /** The swapped columns (changed in place). */
  readonly bundle: readonly Uint8Array[];
  readonly traits: readonly ResemblanceTrait[];
  /** Swap stratum of each person (sex × age group), -1 = never swapped. */
  readonly stratum: Int32Array;
  readonly strata: number;
  /** The person each one should resemble (-1 = none): a child's mother (else parent), the second partner's first. */
  readonly anchor: Int32Array;
  /** 'child' or 'partner' link per person with an anchor. */
  readonly asChild: Uint8Array;
  /** Proposals per linked person. */
  readonly proposals: number;
}

export interface InheritReport {
  readonly links: number;
  readonly scoreBefore: number;
  readonly scoreAfter: number;
  readonly swaps: number;
}

/** Probability that a child follows its parent, and that a couple is alike (2021 Census: about two couples in three share a birthplace). */
export const CHILD_FOLLOWS = 0.9;
export const PARTNERS_ALIKE = 0.7;
/** Draws of a swap partner per proposal in search of one holding the wanted category. */
const TARGETED_TRIES = 24;

export function inheritWithinFamilies(input: InheritInput, rng: Rng): InheritReport {
  const { bundle, traits, stratum, anchor, asChild } = input;
  const n = stratum.length;
  // Dependents of each person (CSR), for the links a swap touches.
  const start = new Int32Array(n + 1);
  for (let x = 0; x < n; x++) if (anchor[x]! >= 0) start[anchor[x]! + 1]!++;
  for (let x = 0; x < n; x++) start[x + 1]! += start[x]!;
  const dependents = new Int32Array(start[n]!);
  const fill = start.slice(0, n);
  for (let x = 0; x < n; x++) if (anchor[x]! >= 0) dependents[fill[anchor[x]!]!++] = x;
  // Members of each stratum, to draw swap partners from.
  const members: number[][] = Array.from({ length: input.strata }, () => []);
  for (let x = 0; x < n; x++) if (stratum[x]! >= 0) members[stratum[x]!]!.push(x);

  /** Score of the link from dependent y to its anchor. */
  const link = (y: number): number => {
    const a = anchor[y]!;
    if (a < 0) return 0;
    let score = 0;
    const child = asChild[y] === 1;
    for (const t of traits) {
      const col = bundle[t.column]!;
      const vy = col[y]!;
      const va = col[a]!;
      if (!t.stated[vy] || !t.stated[va]) continue;
      const w = child ? t.child : t.partner;
      const same = t.groupOf ? t.groupOf[vy] === t.groupOf[va] : vy === va;
      if (same || (child && t.childAlsoMatches === vy)) score += w;
    }
    return score;
  };
  const touched: number[] = [];
  const collect = (x: number) => {
    if (anchor[x]! >= 0) touched.push(x);
    for (let k = start[x]!; k < start[x + 1]!; k++) touched.push(dependents[k]!);
  };
  const localScore = (): number => {
    let s = 0;
    for (let k = 0; k < touched.length; k++) {
      const y = touched[k]!;
      let seen = false;
      for (let j = 0; j < k; j++) if (touched[j] === y) seen = true;
      if (!seen) s += link(y);
    }
    return s;
  };
  const swap = (c: number, d: number) => {
    for (const col of bundle) {
      const t = col[c]!;
      col[c] = col[d]!;
      col[d] = t;
    }
  };

  const linked: number[] = [];
  let scoreBefore = 0;
  for (let x = 0; x < n; x++) {
    if (anchor[x]! < 0) continue;
    linked.push(x);
    scoreBefore += link(x);
  }
  let swaps = 0;
  const rounds = linked.length * input.proposals;
  for (let r = 0; r < rounds; r++) {
    // The dependent or its anchor moves: either may hold the bundle that fits the other.
    const y = linked[rng.int(linked.length)]!;
    const moveDependent = rng.next() < 0.5;
    const c = moveDependent ? y : anchor[y]!;
    const s = stratum[c]!;
    if (s < 0) continue;
    const pool = members[s]!;
    // Look for a partner holding what the other side of the link has, on one trait at random
    // (a few draws; in a large suburb a blind draw rarely fits).
    const t = traits[rng.int(traits.length)]!;
    const wanted = bundle[t.column]![moveDependent ? anchor[y]! : y]!;
    let d = pool[rng.int(pool.length)]!;
    for (let tries = 0; tries < TARGETED_TRIES && bundle[t.column]![d] !== wanted; tries++) d = pool[rng.int(pool.length)]!;
    if (d === c) continue;
    touched.length = 0;
    collect(c);
    collect(d);
    const before = localScore();
    swap(c, d);
    if (localScore() < before) swap(c, d);
    else swaps++;
  }
  let scoreAfter = 0;
  for (const x of linked) scoreAfter += link(x);
  return { links: linked.length, scoreBefore, scoreAfter, swaps };
}

// ------------------------------------------------------------------ the cultural bundle of persons

/** What moves together: a person's origin and what follows from it. */
export const CULTURE_BUNDLE = ['INGP', 'BPLP', 'CITP', 'LANP', 'ENGLP', 'RELP'] as const;
/** G01's age groups: the bundle's priors vary with age, so swaps stay within one. */
const AGE_GROUP_STARTS = [0, 5, 15, 20, 25, 35, 45, 55, 65, 75, 85];

const stated = (code: string) => Uint8Array.from({ length: 256 }, (_, k) => {
  const label = variableByCode(code).categories[k];
  return label !== undefined && !isUninformative(label) ? 1 : 0;
});

export interface PersonsForInheritance {
  readonly age: Uint8Array;
  readonly family: Int32Array;
  readonly columns: Record<string, Uint8Array>;
}

/**
 * The links a family's resemblance is made of: each child to its mother (else its parent) with
 * probability `childFollows`, each second partner to the first with `partnersAlike`.
 */
export function familyLinks(persons: PersonsForInheritance, rng: Rng, childFollows: number, partnersAlike: number): { anchor: Int32Array; asChild: Uint8Array } {
  const { age, family, columns } = persons;
  const n = age.length;
  const sexp = columns.SEXP!;
  const rlhp = columns.RLHP!;
  const RLHP = (label: string) => categoryIndex('RLHP', label);
  const partner = new Set([RLHP('Partner in a registered marriage'), RLHP('Partner in a de facto marriage')]);
  const parentRoles = new Set([...partner, RLHP('Lone parent')]);
  const childRoles = new Set([RLHP('Child under 15'), RLHP('Dependent student (aged 15-24 years)'), RLHP('Non-dependent child')]);
  const female = categoryIndex('SEXP', 'Female');
  const families = family.reduce((m, f) => Math.max(m, f + 1), 0);
  const mother = new Int32Array(families).fill(-1);
  const firstPartner = new Int32Array(families).fill(-1);
  for (let p = 0; p < n; p++) {
    const f = family[p]!;
    if (f < 0) continue;
    if (parentRoles.has(rlhp[p]!) && (mother[f]! < 0 || (sexp[p] === female && sexp[mother[f]!] !== female))) mother[f] = p;
    if (partner.has(rlhp[p]!) && firstPartner[f]! < 0) firstPartner[f] = p;
  }
  const anchor = new Int32Array(n).fill(-1);
  const asChild = new Uint8Array(n);
  for (let p = 0; p < n; p++) {
    const f = family[p]!;
    if (f < 0) continue;
    if (childRoles.has(rlhp[p]!) && mother[f]! >= 0 && rng.next() < childFollows) {
      anchor[p] = mother[f]!;
      asChild[p] = 1;
    } else if (partner.has(rlhp[p]!) && firstPartner[f]! >= 0 && firstPartner[f] !== p && rng.next() < partnersAlike) anchor[p] = firstPartner[f]!;
  }
  return { anchor, asChild };
}

/** Sex × age group (groups starting at `starts`) of every person. */
function sexAgeStrata(age: Uint8Array, sexp: Uint8Array, starts: readonly number[]): Int32Array {
  return Int32Array.from(age, (a, p) => {
    let g = 0;
    while (g + 1 < starts.length && a >= starts[g + 1]!) g++;
    return sexp[p]! * starts.length + g;
  });
}

/**
 * Swaps the persons' cultural bundles (CULTURE_BUNDLE columns, changed in place) so that
 * families resemble each other (inheritWithinFamilies), each link kept with CHILD_FOLLOWS /
 * PARTNERS_ALIKE.
 */
export function inheritCulture(persons: PersonsForInheritance, rng: Rng, proposals = 16): InheritReport {
  const { anchor, asChild } = familyLinks(persons, rng, CHILD_FOLLOWS, PARTNERS_ALIKE);
  const { age, columns } = persons;
  const stratum = sexAgeStrata(age, columns.SEXP!, AGE_GROUP_STARTS);
  const bundle = CULTURE_BUNDLE.map((code) => columns[code]!);
  const at = (code: (typeof CULTURE_BUNDLE)[number]) => CULTURE_BUNDLE.indexOf(code);
  return inheritWithinFamilies(
    {
      bundle,
      traits: [
        { column: at('INGP'), stated: stated('INGP'), child: 2, partner: 0 },
        { column: at('BPLP'), stated: stated('BPLP'), child: 1, partner: 1, childAlsoMatches: categoryIndex('BPLP', 'Australia') },
        { column: at('LANP'), stated: stated('LANP'), child: 1, partner: 1 },
        { column: at('RELP'), stated: stated('RELP'), child: 1, partner: 1 },
      ],
      stratum,
      strata: 2 * AGE_GROUP_STARTS.length,
      anchor,
      asChild,
      proposals,
    },
    rng,
  );
}

// ------------------------------------------------------------------ partners' education

/** What moves with a person's education: schooling, qualification, work and income. */
export const WORK_BUNDLE = ['HSCP', 'HEAP', 'LFSP', 'HRSP', 'OCCP', 'INDP', 'MTWP', 'INCP'] as const;
/** G46's age groups, which every table of the bundle's variables (G16, G17, G49, G54, G60) nests in. */
const WORK_AGE_STARTS = [0, 15, 20, 25, 35, 45, 55, 65, 75, 85];
/** Couples matched on education on purpose (2021 Census: about three in five couples share a broad level). */
export const PARTNERS_MATCHED_ON_EDUCATION = 0.35;

/**
 * Partners matched on education (assortative mating): work bundles (WORK_BUNDLE, changed in
 * place) swapped between persons of one sex, G46 age group and school attendance, so that
 * more second partners share the first's level (HEAP coarse: degree, diploma or certificate,
 * school). Every table of those variables is by age group × sex, so each stays exact. Runs
 * before household incomes are fitted (the income swaps that follow still see the same G17).
 */
export function matchPartnersOnEducation(persons: PersonsForInheritance, attending: Uint8Array, rng: Rng, proposals = 16): InheritReport {
  const { anchor, asChild } = familyLinks(persons, rng, 0, PARTNERS_MATCHED_ON_EDUCATION);
  const { age, columns } = persons;
  const bySexAge = sexAgeStrata(age, columns.SEXP!, WORK_AGE_STARTS);
  const classes = 1 + attending.reduce((m, a) => Math.max(m, a), 0);
  const stratum = Int32Array.from(bySexAge, (s, p) => s * classes + attending[p]!);
  const heap = variableByCode('HEAP');
  return inheritWithinFamilies(
    {
      bundle: WORK_BUNDLE.map((code) => columns[code]!),
      traits: [{ column: WORK_BUNDLE.indexOf('HEAP'), stated: stated('HEAP'), child: 0, partner: 1, groupOf: heap.coarse!.fromFine }],
      stratum,
      strata: 2 * WORK_AGE_STARTS.length * classes,
      anchor,
      asChild,
      proposals,
    },
    rng,
  );
}
