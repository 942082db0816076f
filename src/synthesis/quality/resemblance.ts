/**
 * How much families hang together, against independence (issue 20, item 8): for each link (the
 * two partners of a couple, or a child with its parents) and trait, the share of pairs alike in
 * the records, the share expected if the trait were shuffled among them (the same population's
 * margins: partners paired at random, children dealt to families at random), the synthesizer's
 * target at those margins, and the published national figure where there is one.
 *
 * Pure functions over populations; every figure is tallied as sums that add over suburbs
 * (pairs, alike, expected alike), so shares are pooled counts, never averages of shares.
 */
import type { Population } from '../census/population.ts';
import { cramersVOfCounts } from './associations.ts';
import { categoryIndex, variableByCode } from '../census/variables.ts';
import { familyLinks, LANGUAGE_HOME_GROUPS } from '../census/family-links.ts';
import { statedCategories } from '../census/labels.ts';
import {
  COUPLES_SAME_RELIGION_AT_LEAST,
  DEGREE_WITH_DEGREE_OVER_CHANCE,
  G30_COUPLES_AUSTRALIA_2021,
  HOUSEHOLDS_OVER_PERSONS_OTHER_LANGUAGE_2011,
} from '../census/reference/family-figures.ts';
import { birthplaceConcordance, NATIONAL_FAMILY_STRENGTHS_2021, type FamilyStrengths } from '../shared/family-strengths.ts';
import { affinityTable, alikeBy, nestedAlikeShares } from '../shared/homogamy.ts';

/** What the synthesizer aims at for a link: partners' log affinity (over groups `over` when given), or children's share. */
export type LinkTarget =
  | { readonly logAffinity: number; readonly over?: readonly number[] }
  | { readonly share: number }
  /** Partners' share alike from their margins over categories by a model of its own (the home's language). */
  | { readonly ofMargins: (rows: ArrayLike<number>, cols: ArrayLike<number>) => number };

export interface ResemblanceLink {
  readonly name: string;
  readonly description: string;
  readonly pairs: 'couples' | 'children' | 'relatives';
  readonly code: string;
  /** Alike in these groups of categories (a coarse level) instead of categories. */
  readonly groupOf?: readonly number[];
  /** Children: a category alike whatever the parents hold (born in Australia). */
  readonly childAlsoMatches?: number;
  /** Children: only children with a parent in this group count, alike when in it too. */
  readonly amongParentGroup?: number;
  /** Children: only children holding this category of another variable count (born in Australia). */
  readonly childCountedWhen?: { readonly code: string; readonly category: number };
  /** The synthesizer's target given its strengths; none where the link is not pursued. */
  readonly target?: (strengths: FamilyStrengths) => LinkTarget;
  /** Where the link's strength comes from. */
  readonly source: string;
  /** A published national share alike to compare with, when there is one. */
  readonly published?: number;
}

const BPLP_COARSE = variableByCode('BPLP').coarse!.fromFine;
const HEAP_LEVELS = variableByCode('HEAP').coarse!.fromFine;
const INGP_COARSE = variableByCode('INGP').coarse!;
const INDIGENOUS_GROUP = INGP_COARSE.categories.indexOf('Aboriginal and/or Torres Strait Islander');

export const RESEMBLANCE_LINKS: readonly ResemblanceLink[] = [
  {
    name: 'partners-born-in-australia-or-overseas',
    description: 'couples both born in Australia or both overseas (BPLP), both stated',
    pairs: 'couples',
    code: 'BPLP',
    groupOf: BPLP_COARSE,
    target: (s) => ({ logAffinity: s.partnersBirthplace }),
    source: 'G30 (Australia, 2021): parents of dependent children in couple families',
    published: birthplaceConcordance(G30_COUPLES_AUSTRALIA_2021),
  },
  {
    name: 'partners-birthplace-region',
    description: 'couples born in the same region (BPLP), both stated',
    pairs: 'couples',
    code: 'BPLP',
    target: (s) => ({ logAffinity: s.partnersBirthplace }),
    source: "G30's affinity applied to every region (no table tells regions apart)",
  },
  {
    name: 'partners-language-english-only-or-not',
    description: 'couples both using English only at home or both another language (LANP), both stated',
    pairs: 'couples',
    code: 'LANP',
    groupOf: LANGUAGE_HOME_GROUPS,
    target: (s) => ({ ofMargins: (rows, cols) => nestedAlikeShares(rows, cols, LANGUAGE_HOME_GROUPS, s.partnersEnglishOnly, s.partnersLanguage).coarse }),
    source: 'households using another language over persons using one, 2011 (QuickStats 20.4%, secondary; ABS CO/60 76.8% English only; ABS 2011 quality statement, LANP not stated 5.1%)',
  },
  {
    name: 'partners-language',
    description: 'couples speaking the same language group at home (LANP), both stated',
    pairs: 'couples',
    code: 'LANP',
    target: (s) => ({ ofMargins: (rows, cols) => nestedAlikeShares(rows, cols, LANGUAGE_HOME_GROUPS, s.partnersEnglishOnly, s.partnersLanguage).fine }),
    source: "the home's English only or not (above), then which other language at birthplace's affinity (assumed; no figure at hand)",
  },
  {
    name: 'partners-religion',
    description: 'couples of the same religion group (RELP), both stated',
    pairs: 'couples',
    code: 'RELP',
    target: (s) => ({ logAffinity: s.partnersReligion }),
    source: 'ABC analysis of the 2021 Census (denominations; a lower bound for groups), unverified',
    published: COUPLES_SAME_RELIGION_AT_LEAST,
  },
  {
    name: 'partners-qualification',
    description: 'couples at the same level of qualification (HEAP: degree, diploma or certificate, school), both stated',
    pairs: 'couples',
    code: 'HEAP',
    groupOf: HEAP_LEVELS,
    target: (s) => ({ logAffinity: s.partnersQualification, over: HEAP_LEVELS }),
    source: 'e61 Institute, 2021 Census: degree holders partner each other 1.85 × chance (unverified)',
  },
  {
    name: 'child-birthplace',
    description: "children born in Australia or in a parent's region (BPLP), child and a parent stated",
    pairs: 'children',
    code: 'BPLP',
    childAlsoMatches: categoryIndex('BPLP', 'Australia'),
    target: (s) => ({ share: s.childBirthplace }),
    source: 'assumed (no figure found)',
  },
  {
    name: 'child-language',
    description: "children speaking a parent's language group at home (LANP)",
    pairs: 'children',
    code: 'LANP',
    target: (s) => ({ share: s.childLanguage }),
    source: 'assumed (no figure found)',
  },
  {
    name: 'relative-language',
    description: "other related individuals of a family speaking its partners' or lone parent's language group at home (LANP)",
    pairs: 'relatives',
    code: 'LANP',
    target: (s) => ({ share: s.childLanguage }),
    source: "assumed: the children's share (no figure found)",
  },
  {
    name: 'child-religion',
    description: "children of a parent's religion group (RELP)",
    pairs: 'children',
    code: 'RELP',
    target: (s) => ({ share: s.childReligion }),
    source: 'assumed (no figure found)',
  },
  {
    name: 'child-of-indigenous-parent',
    description: 'children of an Aboriginal and/or Torres Strait Islander parent who are Indigenous too (INGP)',
    pairs: 'children',
    code: 'INGP',
    groupOf: INGP_COARSE.fromFine,
    amongParentGroup: INDIGENOUS_GROUP,
    target: (s) => ({ share: s.childOfIndigenousParent }),
    source: 'assumed; ABS 2077.0 (2016) gives the direction only (two Indigenous parents, or the mother, more often)',
  },
  {
    name: 'child-citizen-of-citizen-parent',
    description: 'children born in Australia with an Australian-citizen parent who are citizens too (CITP)',
    pairs: 'children',
    code: 'CITP',
    amongParentGroup: categoryIndex('CITP', 'Australian citizen'),
    childCountedWhen: { code: 'BPLP', category: categoryIndex('BPLP', 'Australia') },
    target: (s) => ({ share: s.childCitizenOfCitizenParent }),
    source: 'Australian Citizenship Act 2007 s 12(1)(a): born here with a citizen or permanent-resident parent; 99% assumed for answers',
  },
];

// ------------------------------------------------------------------ tallies

/** One link's sums: pairs counted (both sides stated), alike, and alike expected under independence and at the target. */
export interface LinkTally {
  pairs: number;
  alike: number;
  independent: number;
  /** Pairs of suburbs where the link has a target, and the alike expected at it. */
  targetPairs: number;
  target: number;
}

/** Couples where both have a degree, against chance (Σ over suburbs of r_degree · c_degree / n) and the target. */
export interface DegreeTally {
  couples: number;
  bothDegree: number;
  byChance: number;
  atTarget: number;
}

/**
 * Dependent children (under 15, dependent students) of opposite-sex couples by their parents'
 * birthplaces, as G30 counts them: both overseas, father only, mother only, both in Australia
 * (parents stated). Compares like with like with the table the birthplace strength comes from.
 */
export interface ParentsBirthplaceTally {
  bothOverseas: number;
  fatherOnlyOverseas: number;
  motherOnlyOverseas: number;
  bothAustralia: number;
}

/**
 * Children under 15 of couples by their two parents' language at home, as G12 classes parents
 * (English only; another language, English spoken well or very well; another language,
 * English not well or not at all), parents stated: a 3 × 3 table, row = the first partner
 * (the father of an opposite-sex couple), column = the other.
 */
export interface ParentsLanguageTally {
  table: number[];
}

/**
 * Occupied private dwellings and their persons, and those where another language than English is
 * used at home: the home's language as the household figure counts it (family-strengths.ts
 * HOUSEHOLDS_OVER_PERSONS_OTHER_LANGUAGE_2011).
 */
export interface HomeLanguageTally {
  households: number;
  householdsOtherLanguage: number;
  persons: number;
  personsOtherLanguage: number;
}

export interface ResemblanceTally {
  links: Record<string, LinkTally>;
  degree: DegreeTally;
  parentsOfDependentChildren: ParentsBirthplaceTally;
  parentsLanguage: ParentsLanguageTally;
  homeLanguage: HomeLanguageTally;
}

const emptyLink = (): LinkTally => ({ pairs: 0, alike: 0, independent: 0, targetPairs: 0, target: 0 });

export const emptyResemblanceTally = (links: readonly ResemblanceLink[] = RESEMBLANCE_LINKS): ResemblanceTally => ({
  links: Object.fromEntries(links.map((l) => [l.name, emptyLink()])),
  degree: { couples: 0, bothDegree: 0, byChance: 0, atTarget: 0 },
  parentsOfDependentChildren: { bothOverseas: 0, fatherOnlyOverseas: 0, motherOnlyOverseas: 0, bothAustralia: 0 },
  parentsLanguage: { table: Array.from({ length: 9 }, () => 0) },
  homeLanguage: { households: 0, householdsOtherLanguage: 0, persons: 0, personsOtherLanguage: 0 },
});

export function addResemblance(into: ResemblanceTally, from: ResemblanceTally): void {
  for (const [name, t] of Object.entries(from.links)) {
    const to = (into.links[name] ??= emptyLink());
    to.pairs += t.pairs;
    to.alike += t.alike;
    to.independent += t.independent;
    to.targetPairs += t.targetPairs;
    to.target += t.target;
  }
  into.degree.couples += from.degree.couples;
  into.degree.bothDegree += from.degree.bothDegree;
  into.degree.byChance += from.degree.byChance;
  into.degree.atTarget += from.degree.atTarget;
  const parents = into.parentsOfDependentChildren;
  parents.bothOverseas += from.parentsOfDependentChildren.bothOverseas;
  parents.fatherOnlyOverseas += from.parentsOfDependentChildren.fatherOnlyOverseas;
  parents.motherOnlyOverseas += from.parentsOfDependentChildren.motherOnlyOverseas;
  parents.bothAustralia += from.parentsOfDependentChildren.bothAustralia;
  const language = (into.parentsLanguage ??= { table: Array.from({ length: 9 }, () => 0) });
  from.parentsLanguage?.table.forEach((x, k) => (language.table[k]! += x));
  const home = (into.homeLanguage ??= { households: 0, householdsOtherLanguage: 0, persons: 0, personsOtherLanguage: 0 });
  if (from.homeLanguage) {
    home.households += from.homeLanguage.households;
    home.householdsOtherLanguage += from.homeLanguage.householdsOtherLanguage;
    home.persons += from.homeLanguage.persons;
    home.personsOtherLanguage += from.homeLanguage.personsOtherLanguage;
  }
}

interface Pairs {
  readonly partners: Int32Array;
  readonly children: Int32Array;
  readonly relatives?: Int32Array;
}

const groupsOf = (groupOf: readonly number[] | undefined, categories: number) => groupOf ?? Array.from({ length: categories }, (_, k) => k);

function countCouples(link: ResemblanceLink, pairs: Pairs, column: Uint8Array, stated: Uint8Array, strengths: FamilyStrengths, into: LinkTally): void {
  const categories = variableByCode(link.code).categories.length;
  const group = groupsOf(link.groupOf, categories);
  const rows = new Float64Array(categories);
  const cols = new Float64Array(categories);
  let n = 0;
  for (let k = 0; k < pairs.partners.length; k += 2) {
    const a = column[pairs.partners[k]!]!;
    const b = column[pairs.partners[k + 1]!]!;
    if (!stated[a] || !stated[b]) continue;
    rows[a]!++;
    cols[b]!++;
    n++;
    if (group[a] === group[b]) into.alike++;
  }
  if (n === 0) return;
  into.pairs += n;
  for (let i = 0; i < categories; i++) for (let j = 0; j < categories; j++) if (group[i] === group[j]) into.independent += (rows[i]! * cols[j]!) / n;
  const target = link.target?.(strengths);
  if (target && 'ofMargins' in target) {
    into.targetPairs += n;
    into.target += n * target.ofMargins(rows, cols);
  }
  if (!target || !('logAffinity' in target)) return;
  into.targetPairs += n;
  if (target.over) {
    // The affinity acts between groups (qualification levels): margins and table over them.
    const size = Math.max(...target.over.filter((_, k) => stated[k])) + 1;
    const r = new Float64Array(size);
    const c = new Float64Array(size);
    for (let k = 0; k < categories; k++) {
      if (!stated[k]) continue;
      r[target.over[k]!]! += rows[k]!;
      c[target.over[k]!]! += cols[k]!;
    }
    const table = affinityTable(r, c, target.logAffinity, alikeBy());
    for (let g = 0; g < size; g++) into.target += table[g * size + g]!;
  } else {
    const table = affinityTable(rows, cols, target.logAffinity, alikeBy());
    for (let i = 0; i < categories; i++) for (let j = 0; j < categories; j++) if (group[i] === group[j]) into.target += table[i * categories + j]!;
  }
}

function countChildren(link: ResemblanceLink, pairs: Pairs, column: Uint8Array, stated: Uint8Array, strengths: FamilyStrengths, into: LinkTally, condition?: Uint8Array): void {
  const categories = variableByCode(link.code).categories.length;
  const group = groupsOf(link.groupOf, categories);
  const among = link.amongParentGroup ?? -1;
  const also = link.childAlsoMatches ?? -1;
  const { children } = pairs;
  /** Whether a child is of those the link counts (all, or those holding the condition's category). */
  const eligible = (child: number) => !condition || condition[child] === link.childCountedWhen!.category;
  // The children's own margin: what a child dealt to a family at random would hold.
  const margin = new Float64Array(categories);
  let stateds = 0;
  for (let k = 0; k < children.length; k += 3) {
    const v = column[children[k]!]!;
    if (stated[v] && eligible(children[k]!)) {
      margin[v]!++;
      stateds++;
    }
  }
  if (stateds === 0) return;
  /** Whether a child of category v is alike parents with categories pa, pb (−1 = none or unstated). */
  const isAlike = (v: number, pa: number, pb: number) =>
    among >= 0 ? group[v] === among : v === also || (pa >= 0 && group[v] === group[pa]) || (pb >= 0 && group[v] === group[pb]);
  let counted = 0;
  for (let k = 0; k < children.length; k += 3) {
    const v = column[children[k]!]!;
    const parent = (p: number) => (p >= 0 && stated[column[p]!] ? column[p]! : -1);
    let pa = parent(children[k + 1]!);
    let pb = parent(children[k + 2]!);
    if (among >= 0) {
      if (pa >= 0 && group[pa] !== among) pa = -1;
      if (pb >= 0 && group[pb] !== among) pb = -1;
    }
    if (!stated[v] || (pa < 0 && pb < 0) || !eligible(children[k]!)) continue;
    counted++;
    if (isAlike(v, pa, pb)) into.alike++;
    for (let w = 0; w < categories; w++) if (margin[w]! > 0 && isAlike(w, pa, pb)) into.independent += margin[w]! / stateds;
  }
  into.pairs += counted;
  const target = link.target?.(strengths);
  if (target && 'share' in target && counted > 0) {
    into.targetPairs += counted;
    into.target += target.share * counted;
  }
}

const HEAP_STATED = statedCategories('HEAP');
const DEGREE_LEVEL = variableByCode('HEAP').coarse!.categories.indexOf('Bachelor Degree Level and above');

function countDegrees(pairs: Pairs, heap: Uint8Array, strengths: FamilyStrengths, into: DegreeTally): void {
  const levels = 1 + Math.max(...HEAP_LEVELS.filter((_, k) => HEAP_STATED[k]));
  const rows = new Float64Array(levels);
  const cols = new Float64Array(levels);
  let n = 0;
  for (let k = 0; k < pairs.partners.length; k += 2) {
    const a = heap[pairs.partners[k]!]!;
    const b = heap[pairs.partners[k + 1]!]!;
    if (!HEAP_STATED[a] || !HEAP_STATED[b]) continue;
    rows[HEAP_LEVELS[a]!]!++;
    cols[HEAP_LEVELS[b]!]!++;
    n++;
    if (HEAP_LEVELS[a] === DEGREE_LEVEL && HEAP_LEVELS[b] === DEGREE_LEVEL) into.bothDegree++;
  }
  if (n === 0) return;
  into.couples += n;
  into.byChance += (rows[DEGREE_LEVEL]! * cols[DEGREE_LEVEL]!) / n;
  into.atTarget += affinityTable(rows, cols, strengths.partnersQualification, alikeBy())[DEGREE_LEVEL * levels + DEGREE_LEVEL]!;
}

const DEPENDENT = new Set(['Child under 15', 'Dependent student (aged 15-24 years)'].map((l) => categoryIndex('RLHP', l)));
const MALE = categoryIndex('SEXP', 'Male');
const BORN_IN_AUSTRALIA = categoryIndex('BPLP', 'Australia');
const BPLP_STATED = statedCategories('BPLP');

function countParentsBirthplace(pairs: Pairs, rlhp: Uint8Array, sexp: Uint8Array, bplp: Uint8Array, into: ParentsBirthplaceTally): void {
  for (let k = 0; k < pairs.children.length; k += 3) {
    const [a, b] = [pairs.children[k + 1]!, pairs.children[k + 2]!];
    if (b < 0 || sexp[a] === sexp[b] || !DEPENDENT.has(rlhp[pairs.children[k]!]!)) continue;
    const [father, mother] = sexp[a] === MALE ? [a, b] : [b, a];
    if (!BPLP_STATED[bplp[father]!] || !BPLP_STATED[bplp[mother]!]) continue;
    const fatherOverseas = bplp[father] !== BORN_IN_AUSTRALIA;
    const motherOverseas = bplp[mother] !== BORN_IN_AUSTRALIA;
    if (fatherOverseas && motherOverseas) into.bothOverseas++;
    else if (fatherOverseas) into.fatherOnlyOverseas++;
    else if (motherOverseas) into.motherOnlyOverseas++;
    else into.bothAustralia++;
  }
}

const UNDER_15 = categoryIndex('RLHP', 'Child under 15');
const ENGLISH_ONLY = categoryIndex('LANP', 'English only');
const LANP_STATED = statedCategories('LANP');
/** ENGLP → 1 (very well, well), 2 (not well, not at all), −1 (not stated). */
const PROFICIENCY_CLASS = Int8Array.from({ length: 256 }, (_, k) => {
  const label = variableByCode('ENGLP').categories[k];
  return label === 'Very well' || label === 'Well' ? 1 : label === 'Not well' || label === 'Not at all' ? 2 : -1;
});

/** G12's class of a parent's language (0 English only, 1 and 2 another language by English), −1 when not stated. */
const languageClass = (lanp: number, englp: number) => (!LANP_STATED[lanp] ? -1 : lanp === ENGLISH_ONLY ? 0 : PROFICIENCY_CLASS[englp]!);

function countParentsLanguage(pairs: Pairs, rlhp: Uint8Array, sexp: Uint8Array, lanp: Uint8Array, englp: Uint8Array, into: ParentsLanguageTally): void {
  for (let k = 0; k < pairs.children.length; k += 3) {
    const [a, b] = [pairs.children[k + 1]!, pairs.children[k + 2]!];
    if (b < 0 || rlhp[pairs.children[k]!] !== UNDER_15) continue;
    const [first, second] = sexp[b] === MALE && sexp[a] !== MALE ? [b, a] : [a, b];
    const row = languageClass(lanp[first]!, englp[first]!);
    const col = languageClass(lanp[second]!, englp[second]!);
    if (row >= 0 && col >= 0) into.table[row * 3 + col]!++;
  }
}

const OCCUPIED_PRIVATE = categoryIndex('DWTD', 'Occupied private dwelling');

function countHomeLanguage(pop: Population, lanp: Uint8Array, into: HomeLanguageTally): void {
  const dwtd = pop.dwellings.variables.DWTD;
  const other = new Uint8Array(pop.dwellings.count);
  const occupied = new Uint8Array(pop.dwellings.count);
  for (let p = 0; p < pop.persons.count; p++) {
    const d = pop.persons.dwelling[p]!;
    if (dwtd && dwtd[d] !== OCCUPIED_PRIVATE) continue;
    occupied[d] = 1;
    into.persons++;
    if (LANP_STATED[lanp[p]!] && lanp[p] !== ENGLISH_ONLY) {
      into.personsOtherLanguage++;
      other[d] = 1;
    }
  }
  for (let d = 0; d < other.length; d++) {
    into.households += occupied[d]!;
    into.householdsOtherLanguage += other[d]!;
  }
}

/** Adds one population's resemblance to `into`, against the targets `strengths` set. */
export function countResemblance(pop: Population, into: ResemblanceTally, strengths: FamilyStrengths = NATIONAL_FAMILY_STRENGTHS_2021, links: readonly ResemblanceLink[] = RESEMBLANCE_LINKS): void {
  const v = pop.persons.variables;
  if (!v.RLHP) throw new Error('population has no persons column RLHP');
  const pairs = familyLinks(v.RLHP, pop.persons.family);
  for (const link of links) {
    const column = v[link.code];
    if (!column) throw new Error(`population has no persons column ${link.code}`);
    const tally = (into.links[link.name] ??= emptyLink());
    const stated = statedCategories(link.code);
    if (link.pairs === 'couples') countCouples(link, pairs, column, stated, strengths, tally);
    else {
      const condition = link.childCountedWhen ? v[link.childCountedWhen.code] : undefined;
      if (link.childCountedWhen && !condition) throw new Error(`population has no persons column ${link.childCountedWhen.code}`);
      countChildren(link, link.pairs === 'relatives' ? { partners: pairs.partners, children: pairs.relatives ?? new Int32Array(0) } : pairs, column, stated, strengths, tally, condition);
    }
  }
  if (v.HEAP) countDegrees(pairs, v.HEAP, strengths, into.degree);
  if (v.SEXP && v.BPLP) countParentsBirthplace(pairs, v.RLHP, v.SEXP, v.BPLP, into.parentsOfDependentChildren);
  if (v.LANP) countHomeLanguage(pop, v.LANP, (into.homeLanguage ??= { households: 0, householdsOtherLanguage: 0, persons: 0, personsOtherLanguage: 0 }));
  if (v.SEXP && v.LANP && v.ENGLP) countParentsLanguage(pairs, v.RLHP, v.SEXP, v.LANP, v.ENGLP, (into.parentsLanguage ??= { table: Array.from({ length: 9 }, () => 0) }));
}

// ------------------------------------------------------------------ figures

export interface LinkFigures {
  readonly pairs: number;
  /** Share of pairs alike in the records. */
  readonly alike: number | undefined;
  /** Share expected alike from the same records' margins (partners or children shuffled). */
  readonly independence: number | undefined;
  /** Share the synthesizer aims at, at the same margins; undefined where the link is not pursued. */
  readonly target: number | undefined;
  /** The national figure the strength comes from, where one compares with the share alike. */
  readonly published: number | undefined;
  readonly source: string;
}

/** Parents of dependent children as G30 counts them: share both born in Australia or both overseas, odds ratio, and G30's own. */
export interface ParentsBirthplaceFigures {
  readonly children: number;
  readonly alike: number | undefined;
  readonly independence: number | undefined;
  readonly oddsRatio: number | undefined;
  readonly published: { readonly alike: number; readonly independence: number; readonly oddsRatio: number };
}

function parentsFigures(t: ParentsBirthplaceTally): Omit<ParentsBirthplaceFigures, 'published'> {
  const n = t.bothOverseas + t.fatherOnlyOverseas + t.motherOnlyOverseas + t.bothAustralia;
  if (n === 0) return { children: 0, alike: undefined, independence: undefined, oddsRatio: undefined };
  const father = (t.bothOverseas + t.fatherOnlyOverseas) / n;
  const mother = (t.bothOverseas + t.motherOnlyOverseas) / n;
  const unlike = t.fatherOnlyOverseas * t.motherOnlyOverseas;
  return {
    children: n,
    alike: (t.bothOverseas + t.bothAustralia) / n,
    independence: father * mother + (1 - father) * (1 - mother),
    oddsRatio: unlike > 0 ? (t.bothOverseas * t.bothAustralia) / unlike : undefined,
  };
}

/** Children under 15 of couples by their parents' language (G12's classes): how many have exactly one English-only parent, and Cramér's V between the parents. */
export interface ParentsLanguageFigures {
  readonly children: number;
  readonly oneEnglishOnly: number | undefined;
  readonly cramersV: number | undefined;
}

function parentsLanguageFigures(t: ParentsLanguageTally | undefined): ParentsLanguageFigures {
  const table = t?.table ?? [];
  const children = table.reduce((a, b) => a + b, 0);
  const one = children - (table[0] ?? 0) - table.filter((_, k) => Math.floor(k / 3) > 0 && k % 3 > 0).reduce((a, b) => a + b, 0);
  return { children, oneEnglishOnly: share(one, children), cramersV: children > 0 ? cramersVOfCounts(table, 3, 3) : undefined };
}

export interface ResemblanceFigures {
  readonly links: Record<string, LinkFigures>;
  /**
   * Occupied private dwellings where another language is used, over persons in them who use
   * one: 1 when every home agrees; against the 2011 Census's 1.167 (family-strengths.ts).
   */
  readonly homeLanguage: { readonly households: number; readonly householdsOverPersons: number | undefined; readonly published: number };
  /** Children under 15 of couples: parents' language at home (no table in the inputs crosses it: G12 is not in the DataPack copy). */
  readonly parentsLanguage: ParentsLanguageFigures;
  /** Parents of dependent children, Australian-born or overseas-born, against G30 for Australia. */
  readonly parentsOfDependentChildren: ParentsBirthplaceFigures;
  /** Couples both holding a degree, over what chance gives at their margins: records, target, published (e61). */
  readonly degreeOverChance: { readonly couples: number; readonly records: number | undefined; readonly target: number | undefined; readonly published: number };
}

const share = (x: number, of: number) => (of > 0 ? x / of : undefined);

export function resemblanceFigures(t: ResemblanceTally, links: readonly ResemblanceLink[] = RESEMBLANCE_LINKS): ResemblanceFigures {
  return {
    links: Object.fromEntries(
      links.map((link) => {
        const x = t.links[link.name] ?? emptyLink();
        return [
          link.name,
          {
            pairs: x.pairs,
            alike: share(x.alike, x.pairs),
            independence: share(x.independent, x.pairs),
            target: share(x.target, x.targetPairs),
            published: link.published,
            source: link.source,
          },
        ];
      }),
    ),
    parentsLanguage: parentsLanguageFigures(t.parentsLanguage),
    homeLanguage: (() => {
      const h = t.homeLanguage;
      const households = share(h?.householdsOtherLanguage ?? 0, h?.households ?? 0);
      const persons = share(h?.personsOtherLanguage ?? 0, h?.persons ?? 0);
      return { households: h?.households ?? 0, householdsOverPersons: households !== undefined && persons ? households / persons : undefined, published: HOUSEHOLDS_OVER_PERSONS_OTHER_LANGUAGE_2011 };
    })(),
    parentsOfDependentChildren: (() => {
      const national = parentsFigures(G30_COUPLES_AUSTRALIA_2021);
      return { ...parentsFigures(t.parentsOfDependentChildren), published: { alike: national.alike!, independence: national.independence!, oddsRatio: national.oddsRatio! } };
    })(),
    degreeOverChance: {
      couples: t.degree.couples,
      records: share(t.degree.bothDegree, t.degree.byChance),
      target: share(t.degree.atTarget, t.degree.byChance),
      published: DEGREE_WITH_DEGREE_OVER_CHANCE,
    },
  };
}
