import type { Population } from '../../census/population.ts';
import { age5pOfAge, agepOfAge, categoryIndex } from '../../census/variables.ts';
import type { Rng } from '../rng.ts';
import { FamilyType, HouseholdKind, TargetRole } from './model.ts';
import type { Skeleton } from './link/index.ts';

/** The variables this module writes; the attributes step writes every other one. */
export const STRUCTURE_VARIABLES = {
  persons: ['AGE5P', 'AGEP', 'SEXP', 'RLHP', 'MDCP'],
  families: ['FMCF', 'CDCF', 'CACF', 'NPRF', 'SSCF', 'FBLF', 'FMHD', 'AGFRF'],
  dwellings: ['DWTD', 'NPRD', 'HHCD', 'HCFMD', 'NFMD'],
} as const;

const NA = 'Not applicable';
/** Shares of FBLF categories among couple families with children (national-ish; no GCP table carries blending). */
const BLENDING_SHARES = [0.86, 0.05, 0.06, 0.01, 0.005, 0.005, 0.01];

/** RLHP index per TargetRole; partners split by union kind. */
function rlhpOf(role: number, union: number): number {
  switch (role) {
    case TargetRole.Partner: return union === 2 ? 1 : 0;
    case TargetRole.LoneParent: return 2;
    case TargetRole.ChildUnder15: return 3;
    case TargetRole.DependentStudent: return 4;
    case TargetRole.NonDependentChild: return 5;
    case TargetRole.OtherRelated: return 6;
    case TargetRole.Unrelated: return 7;
    case TargetRole.GroupMember: return 8;
    case TargetRole.LonePerson: return 9;
    case TargetRole.Visitor: return 10;
    default: return 11; // "Not applicable": a resident of a non-private dwelling
  }
}

/** Writes the ABS categories of the structural variables from the linked skeleton. */
export function encodeStructure(sk: Skeleton, rng: Rng): Population {
  const persons = encodePersons(sk);
  const families = encodeFamilies(sk, countFamilyMembers(sk), rng);
  const dwellings = encodeDwellings(sk);
  return {
    persons: { count: sk.persons.count, age: sk.persons.age, dwelling: sk.persons.dwelling, family: sk.persons.family, variables: persons },
    families: { count: sk.families.count, dwelling: sk.families.dwelling, variables: families },
    dwellings: { count: sk.dwellings.count, variables: dwellings },
  };
}

/** Persons: age (five-year group, and G04's single year or group), sex, relationship in household, social marital status. */
function encodePersons(sk: Skeleton): Record<string, Uint8Array> {
  const P = sk.persons.count;
  const { age, sex, role, union } = sk.persons;
  const age5 = new Uint8Array(P);
  const agep = new Uint8Array(P);
  const rlhp = new Uint8Array(P);
  const mdcp = new Uint8Array(P);
  const mdcpNotMarried = categoryIndex('MDCP', 'Not married');
  const mdcpNA = categoryIndex('MDCP', NA);
  for (let p = 0; p < P; p++) {
    const a = age[p] as number;
    const r = role[p] as number;
    age5[p] = age5pOfAge(a);
    agep[p] = agepOfAge(a);
    rlhp[p] = rlhpOf(r, union[p] as number);
    // Social marital status is about living arrangements at home on Census night: "Not
    // applicable" to visitors and residents of non-private dwellings (ABS Census Dictionary, MDCP).
    const away = r === TargetRole.Visitor || r === TargetRole.NonPrivate;
    mdcp[p] = away || a < 15 ? mdcpNA : union[p] === 1 ? 0 : union[p] === 2 ? 1 : mdcpNotMarried;
  }
  return { AGE5P: age5, AGEP: agep, SEXP: Uint8Array.from(sex), RLHP: rlhp, MDCP: mdcp };
}

/** Family members, counted per family. */
interface FamilyMembers {
  readonly members: Uint16Array;
  readonly under15: Uint16Array;
  readonly students: Uint16Array;
  readonly nonDependent: Uint16Array;
  readonly men: Uint8Array;
  readonly women: Uint8Array;
}

function countFamilyMembers(sk: Skeleton): FamilyMembers {
  const P = sk.persons.count;
  const F = sk.families.count;
  const { sex, role, family } = sk.persons;
  const members = new Uint16Array(F);
  const under15 = new Uint16Array(F);
  const students = new Uint16Array(F);
  const nonDependent = new Uint16Array(F);
  const men = new Uint8Array(F);
  const women = new Uint8Array(F);
  for (let p = 0; p < P; p++) {
    const f = family[p] as number;
    if (f < 0) continue;
    members[f] = (members[f] as number) + 1;
    const r = role[p] as number;
    if (r === TargetRole.ChildUnder15) under15[f] = (under15[f] as number) + 1;
    else if (r === TargetRole.DependentStudent) students[f] = (students[f] as number) + 1;
    else if (r === TargetRole.NonDependentChild) nonDependent[f] = (nonDependent[f] as number) + 1;
    else if (r === TargetRole.Partner || r === TargetRole.Visitor || r === TargetRole.NonPrivate) {
      // A family member away on Census night is a couple's partner away (link/parents.ts).
      if (sex[p] === 0) men[f] = (men[f] as number) + 1;
      else women[f] = (women[f] as number) + 1;
    }
  }
  return { members, under15, students, nonDependent, men, women };
}

/** Families: composition, children, members, same-sex couples, blending, household, reference person's age. */
function encodeFamilies(sk: Skeleton, counted: FamilyMembers, rng: Rng): Record<string, Uint8Array> {
  const F = sk.families.count;
  const { age } = sk.persons;
  const { members, under15, students, nonDependent, men, women } = counted;
  const fmcf = new Uint8Array(F);
  const cdcf = new Uint8Array(F);
  const cacf = new Uint8Array(F);
  const nprf = new Uint8Array(F);
  const sscf = new Uint8Array(F);
  const fblf = new Uint8Array(F);
  const fmhd = new Uint8Array(F);
  const agfrf = new Uint8Array(F);
  const fblfNA = categoryIndex('FBLF', NA);
  const sscfNA = categoryIndex('SSCF', NA);
  for (let f = 0; f < F; f++) {
    const type = sk.families.type[f] as number;
    const u15 = under15[f] as number;
    const all = u15 + (students[f] as number) + (nonDependent[f] as number);
    const couple = type === FamilyType.CoupleNoChildren || type === FamilyType.CoupleWithChildren;
    fmcf[f] = type === FamilyType.CoupleNoChildren ? 0
      : type === FamilyType.CoupleWithChildren ? (u15 > 0 ? 1 : 2)
      : type === FamilyType.OneParent ? (u15 > 0 ? 3 : 4)
      : 5;
    cdcf[f] = Math.min(6, u15 + (students[f] as number));
    cacf[f] = Math.min(6, all);
    nprf[f] = Math.min(6, Math.max(0, (members[f] as number) - 2));
    sscf[f] = !couple ? sscfNA : men[f] === 2 ? 1 : women[f] === 2 ? 2 : 0;
    fblf[f] = type === FamilyType.CoupleWithChildren ? rng.pick(BLENDING_SHARES) : fblfNA;
    fmhd[f] = Math.min(2, (sk.dwellings.families[sk.families.dwelling[f] as number] as number) - 1);
    const refAge = age[sk.families.reference[f] as number] as number;
    agfrf[f] = Math.max(0, Math.min(7, Math.floor((refAge - 15) / 10)));
  }
  return { FMCF: fmcf, CDCF: cdcf, CACF: cacf, NPRF: nprf, SSCF: sscf, FBLF: fblf, FMHD: fmhd, AGFRF: agfrf };
}

/** Dwellings: type, size, kind, primary family type; a non-private dwelling has none of them. */
function encodeDwellings(sk: Skeleton): Record<string, Uint8Array> {
  const F = sk.families.count;
  const D = sk.dwellings.count;
  const dwtd = new Uint8Array(D);
  const nprd = new Uint8Array(D);
  const hhcd = new Uint8Array(D);
  const hcfmd = new Uint8Array(D);
  const nfmd = new Uint8Array(D);
  const primary = new Int32Array(D).fill(-1);
  for (let f = F - 1; f >= 0; f--) primary[sk.families.dwelling[f] as number] = f; // first family of each dwelling
  const nonPrivate = {
    dwtd: categoryIndex('DWTD', 'Non-private dwelling or non-classifiable household'),
    nprd: categoryIndex('NPRD', NA),
    hhcd: categoryIndex('HHCD', NA),
    hcfmd: categoryIndex('HCFMD', NA),
    nfmd: categoryIndex('NFMD', NA),
  };
  for (let d = 0; d < D; d++) {
    const kind = sk.dwellings.kind[d] as number;
    const nfam = sk.dwellings.families[d] as number;
    if (kind === HouseholdKind.NonPrivate) {
      dwtd[d] = nonPrivate.dwtd;
      nprd[d] = nonPrivate.nprd;
      hhcd[d] = nonPrivate.hhcd;
      hcfmd[d] = nonPrivate.hcfmd;
      nfmd[d] = nonPrivate.nfmd;
      continue;
    }
    nprd[d] = Math.min(7, (sk.dwellings.size[d] as number) - 1);
    hhcd[d] = kind === HouseholdKind.Family ? 0 : kind === HouseholdKind.LonePerson ? 1 : 2;
    nfmd[d] = Math.min(3, nfam);
    if (kind === HouseholdKind.Family) {
      const type = sk.families.type[primary[d] as number] as number;
      hcfmd[d] = (nfam > 1 ? 4 : 0) + type;
    } else {
      hcfmd[d] = kind === HouseholdKind.LonePerson ? 8 : 9;
    }
  }
  return { DWTD: dwtd, NPRD: nprd, HHCD: hhcd, HCFMD: hcfmd, NFMD: nfmd };
}
