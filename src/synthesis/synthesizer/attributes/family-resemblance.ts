/**
 * The two resemblance phases of the attributes step (inherit.ts does the swapping):
 *
 * - origins (inheritCulture): partners alike in birthplace, language and religion, children born in
 *   Australia or where a parent was, sharing a parent's language and religion, Indigenous like
 *   an Indigenous parent, born in Australia and a citizen like a citizen parent, other relatives of the family sharing its language; whole origin bundles move within sex × G01 age group;
 * - education (matchPartnersOnEducation): partners alike in their level of qualification; whole
 *   work bundles (schooling, qualification, labour force, hours, occupation, industry, travel,
 *   income) move within sex × G46 age group × attendance.
 *
 * Every table carrying a bundle's columns is by sex and by age groups these strata nest in, so
 * each stays exactly as dealt (the test checks every input table). Partners' targets come from
 * a national log affinity applied to this suburb's own couples (homogamy.ts); children's are
 * shares (family-strengths.ts).
 */
import { categoryIndex, variableByCode } from '../../census/variables.ts';
import type { Rng } from '../rng.ts';
import { familyLinks, LANGUAGE_HOME_GROUPS, type FamilyLinks } from '../../census/family-links.ts';
import { statedCategories } from '../../census/labels.ts';
import type { FamilyStrengths } from '../../shared/family-strengths.ts';
import { affinityTable, alikeBy, nestedAlikeShares } from '../../shared/homogamy.ts';
import { inheritWithinFamilies, type InheritReport } from './inherit.ts';

export interface PersonsForInheritance {
  readonly age: Uint8Array;
  readonly family: Int32Array;
  readonly columns: Record<string, Uint8Array>;
}

/**
 * The share of `links`' couples that should be alike in `column` (both stated) at log affinity
 * δ, from the couples' own margins (the partners' categories as dealt, before any swap). The
 * affinity acts between the groups of `affinityOver` (qualification levels) or else between
 * categories (birthplace regions); alike counts in the groups of `alikeBy` (born in Australia
 * or overseas), else in the affinity's own.
 */
export function partnersTargetShare(
  links: FamilyLinks,
  column: Uint8Array,
  stated: Uint8Array,
  logAffinity: number,
  options: { readonly affinityOver?: ArrayLike<number>; readonly alikeBy?: ArrayLike<number> } = {},
): number {
  const over = (v: number) => (options.affinityOver ? options.affinityOver[v]! : v);
  let groups = 0;
  for (let v = 0; v < 256; v++) if (stated[v]) groups = Math.max(groups, over(v) + 1);
  const rows = new Float64Array(groups);
  const cols = new Float64Array(groups);
  const { partners } = links;
  for (let k = 0; k < partners.length; k += 2) {
    const a = column[partners[k]!]!;
    const b = column[partners[k + 1]!]!;
    if (!stated[a] || !stated[b]) continue;
    rows[over(a)]!++;
    cols[over(b)]!++;
  }
  const table = affinityTable(rows, cols, logAffinity, alikeBy());
  const counted = (options.alikeBy ?? Array.from({ length: groups }, (_, g) => g)) as ArrayLike<number>;
  let total = 0;
  let alike = 0;
  for (let i = 0; i < groups; i++) {
    for (let j = 0; j < groups; j++) {
      const x = table[i * groups + j]!;
      total += x;
      if (counted[i] === counted[j]) alike += x;
    }
  }
  return total > 0 ? alike / total : 0;
}

/** Partners' categories of `column` (both stated) counted: first partners' and second partners' margins. */
export function partnersMargins(links: FamilyLinks, column: Uint8Array, stated: Uint8Array): { readonly rows: Float64Array; readonly cols: Float64Array } {
  const rows = new Float64Array(256);
  const cols = new Float64Array(256);
  const { partners } = links;
  for (let k = 0; k < partners.length; k += 2) {
    const a = column[partners[k]!]!;
    const b = column[partners[k + 1]!]!;
    if (!stated[a] || !stated[b]) continue;
    rows[a]!++;
    cols[b]!++;
  }
  return { rows, cols };
}

/**
 * The shares of `links`' couples that should use English only or another language alike, and
 * the same language group, at these couples' own margins: the home's language first
 * (partnersEnglishOnly), then which other language among couples who both use one
 * (partnersLanguage); homogamy.ts nestedAlikeShares.
 */
export function partnersLanguageTargets(links: FamilyLinks, lanp: Uint8Array, strengths: FamilyStrengths): { readonly englishOnlyOrNot: number; readonly group: number } {
  const { rows, cols } = partnersMargins(links, lanp, statedCategories('LANP'));
  const shares = nestedAlikeShares(rows, cols, LANGUAGE_HOME_GROUPS, strengths.partnersEnglishOnly, strengths.partnersLanguage);
  return { englishOnlyOrNot: shares.coarse, group: shares.fine };
}

/** Sex × age group (groups starting at `starts`) of every person. */
function sexAgeStrata(age: Uint8Array, sexp: Uint8Array, starts: readonly number[]): Int32Array {
  return Int32Array.from(age, (a, p) => {
    let g = 0;
    while (g + 1 < starts.length && a >= starts[g + 1]!) g++;
    return sexp[p]! * starts.length + g;
  });
}

// ------------------------------------------------------------------ origins

const AUSTRALIAN_CITIZEN = categoryIndex('CITP', 'Australian citizen');
/** BPLP's category "Australia" (1), the others 0: children counted by the citizenship link. */
const BORN_IN_AUSTRALIA = Uint8Array.from({ length: 256 }, (_, k) => (k === categoryIndex('BPLP', 'Australia') ? 1 : 0));

/** What moves together: a person's origin and what follows from it. */
export const CULTURE_BUNDLE = ['INGP', 'BPLP', 'CITP', 'LANP', 'ENGLP', 'RELP'] as const;
/** G01's age groups: the bundle's priors vary with age, so swaps stay within one. */
const AGE_GROUP_STARTS = [0, 5, 15, 20, 25, 35, 45, 55, 65, 75, 85];

/**
 * Swaps the persons' origin bundles (CULTURE_BUNDLE columns, changed in place) so that couples
 * and children resemble each other as `strengths` say.
 */
export function inheritCulture(persons: PersonsForInheritance, strengths: FamilyStrengths, rng: Rng, proposals = 12): InheritReport {
  const { age, family, columns } = persons;
  const links = familyLinks(columns.RLHP!, family);
  const column = (code: (typeof CULTURE_BUNDLE)[number]) => columns[code]!;
  const ingp = variableByCode('INGP').coarse!;
  const bornIn = variableByCode('BPLP').coarse!;
  const partnersOn = (code: 'BPLP' | 'LANP' | 'RELP', targetShare: number, groupOf?: readonly number[]) => ({
    name: `partners-${({ BPLP: 'birthplace-region', LANP: 'language', RELP: 'religion' } as const)[code]}${groupOf ? '-english-only-or-not' : ''}`,
    link: 'partners' as const,
    column: column(code),
    stated: statedCategories(code),
    ...(groupOf ? { groupOf } : {}),
    targetShare,
  });
  const affinityShare = (code: 'BPLP' | 'RELP', logAffinity: number) => partnersTargetShare(links, column(code), statedCategories(code), logAffinity);
  const language = partnersLanguageTargets(links, column('LANP'), strengths);
  return inheritWithinFamilies(
    {
      bundle: CULTURE_BUNDLE.map(column),
      traits: [
        {
          // G30's own level: the sourced figure, targeted as such beside the regions it implies.
          name: 'partners-born-in-australia-or-overseas',
          link: 'partners' as const,
          column: column('BPLP'),
          stated: statedCategories('BPLP'),
          groupOf: bornIn.fromFine,
          targetShare: partnersTargetShare(links, column('BPLP'), statedCategories('BPLP'), strengths.partnersBirthplace, { alikeBy: bornIn.fromFine }),
        },
        partnersOn('BPLP', affinityShare('BPLP', strengths.partnersBirthplace)),
        partnersOn('LANP', language.englishOnlyOrNot, LANGUAGE_HOME_GROUPS),
        partnersOn('LANP', language.group),
        partnersOn('RELP', affinityShare('RELP', strengths.partnersReligion)),
        { name: 'child-birthplace', link: 'children', column: column('BPLP'), stated: statedCategories('BPLP'), childAlsoMatches: categoryIndex('BPLP', 'Australia'), targetShare: strengths.childBirthplace },
        { name: 'child-language', link: 'children', column: column('LANP'), stated: statedCategories('LANP'), targetShare: strengths.childLanguage },
        // The home's language reaches its other relatives as it reaches children (no figure: the children's share).
        { name: 'relative-language', link: 'relatives', column: column('LANP'), stated: statedCategories('LANP'), targetShare: strengths.childLanguage },
        { name: 'child-religion', link: 'children', column: column('RELP'), stated: statedCategories('RELP'), targetShare: strengths.childReligion },
        {
          name: 'child-of-indigenous-parent',
          link: 'children',
          column: column('INGP'),
          stated: statedCategories('INGP'),
          groupOf: ingp.fromFine,
          amongParentGroup: ingp.categories.indexOf('Aboriginal and/or Torres Strait Islander'),
          targetShare: strengths.childOfIndigenousParent,
        },
        {
          // The law, not a table: a child born here with a citizen parent is a citizen.
          name: 'child-citizen-of-citizen-parent',
          link: 'children',
          column: column('CITP'),
          stated: statedCategories('CITP'),
          amongParentGroup: AUSTRALIAN_CITIZEN,
          childCountedWhen: { column: column('BPLP'), categories: BORN_IN_AUSTRALIA },
          targetShare: strengths.childCitizenOfCitizenParent,
        },
      ],
      stratum: sexAgeStrata(age, columns.SEXP!, AGE_GROUP_STARTS),
      strata: 2 * AGE_GROUP_STARTS.length,
      links,
      proposals,
    },
    rng,
  );
}

// ------------------------------------------------------------------ partners' education

/** What moves with a person's education: schooling, qualification, work and income. */
export const WORK_BUNDLE = ['HSCP', 'HEAP', 'LFSP', 'HRSP', 'OCCP', 'INDP', 'MTWP', 'INCP'] as const;
/** G46's age groups, which every table of the bundle's variables (G16, G17, G46, G49, G54, G60) nests in. */
const WORK_AGE_STARTS = [0, 15, 20, 25, 35, 45, 55, 65, 75, 85];

/**
 * Partners matched on their level of qualification (HEAP coarse: degree, diploma or
 * certificate, school) to `strengths.partnersQualification`: work bundles (WORK_BUNDLE, changed
 * in place) swapped between persons of one sex, G46 age group and school attendance, so income
 * and labour force move with the qualification and G16, G17, G46, G49, G54, G60 and G62 stay
 * exact. Runs before household incomes are fitted (their swaps then see the same G17).
 */
export function matchPartnersOnEducation(persons: PersonsForInheritance, attending: Uint8Array, strengths: FamilyStrengths, rng: Rng, proposals = 8): InheritReport {
  const { age, family, columns } = persons;
  const links = familyLinks(columns.RLHP!, family);
  const bySexAge = sexAgeStrata(age, columns.SEXP!, WORK_AGE_STARTS);
  const classes = 1 + attending.reduce((m, a) => Math.max(m, a), 0);
  const stratum = Int32Array.from(bySexAge, (s, p) => s * classes + attending[p]!);
  const levels = variableByCode('HEAP').coarse!.fromFine;
  const heap = columns.HEAP!;
  const stated = statedCategories('HEAP');
  return inheritWithinFamilies(
    {
      bundle: WORK_BUNDLE.map((code) => columns[code]!),
      traits: [
        {
          name: 'partners-qualification',
          link: 'partners',
          column: heap,
          stated,
          groupOf: levels,
          targetShare: partnersTargetShare(links, heap, stated, strengths.partnersQualification, { affinityOver: levels }),
        },
      ],
      stratum,
      strata: 2 * WORK_AGE_STARTS.length * classes,
      links,
      proposals,
    },
    rng,
  );
}
