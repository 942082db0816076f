/**
 * Who in a family should resemble whom: the two partners of each couple, each child with its
 * parents (both partners of a couple family, or the lone parent), and each other related
 * individual (a grandparent, a sibling of a partner) with the same. Read from the structure's
 * relationship column and family index alone, so the attributes step can use it before the
 * population exists.
 */
import { isChild, isPartner, RLHP } from './relationships.ts';
import { variableByCode } from './variables.ts';

export interface FamilyLinks {
  /** Couples as pairs [first, second, first, second, …] (the family's partners in person order). */
  readonly partners: Int32Array;
  /** Children as triples [child, parent, other parent or −1, …]. */
  readonly children: Int32Array;
  /** Other related individuals of a family with its partners or lone parent, as triples [relative, first, second or −1, …]. */
  readonly relatives?: Int32Array;
}

export function familyLinks(rlhp: Uint8Array, family: Int32Array): FamilyLinks {
  const n = family.length;
  const families = family.reduce((m, f) => Math.max(m, f + 1), 0);
  const first = new Int32Array(families).fill(-1);
  const second = new Int32Array(families).fill(-1);
  for (let p = 0; p < n; p++) {
    const f = family[p]!;
    if (f < 0) continue;
    const r = rlhp[p]!;
    if (!(isPartner(r) || r === RLHP.loneParent)) continue;
    if (first[f]! < 0) first[f] = p;
    else if (second[f]! < 0) second[f] = p;
  }
  const partners: number[] = [];
  for (let f = 0; f < families; f++) if (second[f]! >= 0 && isPartner(rlhp[first[f]!]!) && isPartner(rlhp[second[f]!]!)) partners.push(first[f]!, second[f]!);
  const children: number[] = [];
  for (let p = 0; p < n; p++) {
    const f = family[p]!;
    if (f >= 0 && isChild(rlhp[p]!) && first[f]! >= 0) children.push(p, first[f]!, second[f]!);
  }
  const relatives: number[] = [];
  for (let p = 0; p < n; p++) {
    const f = family[p]!;
    if (f >= 0 && rlhp[p] === RLHP.otherRelated && first[f]! >= 0) relatives.push(p, first[f]!, second[f]!);
  }
  return { partners: Int32Array.from(partners), children: Int32Array.from(children), relatives: Int32Array.from(relatives) };
}

/** LANP's English only / another language / not stated, fine index → group. */
export const LANGUAGE_HOME_GROUPS = variableByCode('LANP').coarse!.fromFine;
