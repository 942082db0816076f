/**
 * Family variables that follow from the members: LFSF (labour force status of the partners or
 * the lone parent). Derived, not dealt, so a family always agrees with its people.
 */
import { categoryIndex } from '../../census/variables.ts';

const RLHP_PARTNER_REGISTERED = categoryIndex('RLHP', 'Partner in a registered marriage');
const RLHP_PARTNER_DE_FACTO = categoryIndex('RLHP', 'Partner in a de facto marriage');
const RLHP_LONE_PARENT = categoryIndex('RLHP', 'Lone parent');
/** A family member away on Census night is a couple's partner away (structure/link/parents.ts). */
const RLHP_AWAY = new Set([categoryIndex('RLHP', 'Visitor (from within Australia)'), categoryIndex('RLHP', 'Not applicable')]);

/** LFSP categories in four classes: 0 full-time, 1 other employed, 2 not employed, 3 not stated, -1 n/a. */
const LFSP_CLASS = (() => {
  const out = new Int8Array(16).fill(-1);
  out[categoryIndex('LFSP', 'Employed, worked full-time')] = 0;
  out[categoryIndex('LFSP', 'Employed, worked part-time')] = 1;
  out[categoryIndex('LFSP', 'Employed, away from work')] = 1;
  out[categoryIndex('LFSP', 'Employed, hours of work not stated')] = 1;
  out[categoryIndex('LFSP', 'Unemployed, looking for full-time work')] = 2;
  out[categoryIndex('LFSP', 'Unemployed, looking for part-time work')] = 2;
  out[categoryIndex('LFSP', 'Not in the labour force')] = 2;
  out[categoryIndex('LFSP', 'Not stated')] = 3;
  return out;
})();

const LFSF = {
  bothFullTime: categoryIndex('LFSF', 'Couple family: Both employed, worked full-time'),
  fullAndPart: categoryIndex('LFSF', 'Couple family: One employed full-time, other part-time'),
  bothPart: categoryIndex('LFSF', 'Couple family: Both employed, worked part-time or away from work'),
  oneEmployed: categoryIndex('LFSF', 'Couple family: One employed, other not employed'),
  neither: categoryIndex('LFSF', 'Couple family: Neither employed'),
  coupleNotStated: categoryIndex('LFSF', 'Couple family: Labour force status not stated (one or both)'),
  parentFullTime: categoryIndex('LFSF', 'One parent family: Parent employed, worked full-time'),
  parentPart: categoryIndex('LFSF', 'One parent family: Parent employed, worked part-time or away from work'),
  parentNotEmployed: categoryIndex('LFSF', 'One parent family: Parent not employed'),
  parentNotStated: categoryIndex('LFSF', 'One parent family: Labour force status not stated'),
  notApplicable: categoryIndex('LFSF', 'Not applicable'),
};

/** LFSF of a couple from its partners' LFSP classes. */
function coupleStatus(a: number, b: number): number {
  if (a === 3 || b === 3 || a < 0 || b < 0) return LFSF.coupleNotStated;
  if (a === 0 && b === 0) return LFSF.bothFullTime;
  if ((a === 0 && b === 1) || (a === 1 && b === 0)) return LFSF.fullAndPart;
  if (a === 1 && b === 1) return LFSF.bothPart;
  if (a === 2 && b === 2) return LFSF.neither;
  return LFSF.oneEmployed;
}

function parentStatus(a: number): number {
  if (a === 0) return LFSF.parentFullTime;
  if (a === 1) return LFSF.parentPart;
  if (a === 2) return LFSF.parentNotEmployed;
  return LFSF.parentNotStated;
}

/**
 * LFSF of every family from its members: a family with two partners is a couple family, one
 * with a lone parent a one-parent family, any other "Not applicable". A couple whose partner
 * was away on Census night is "not stated" (G57/G58 footnote: the category includes families
 * where a partner was temporarily absent).
 */
export function deriveLfsf(families: number, familyOf: Int32Array, rlhp: Uint8Array, lfsp: Uint8Array): Uint8Array {
  const first = new Int32Array(families).fill(-1);
  const second = new Int32Array(families).fill(-1);
  const parent = new Int32Array(families).fill(-1);
  const away = new Uint8Array(families);
  for (let i = 0; i < familyOf.length; i++) {
    const f = familyOf[i]!;
    if (f < 0) continue;
    const r = rlhp[i]!;
    if (r === RLHP_PARTNER_REGISTERED || r === RLHP_PARTNER_DE_FACTO) {
      if (first[f]! < 0) first[f] = i;
      else if (second[f]! < 0) second[f] = i;
    } else if (RLHP_AWAY.has(r)) away[f] = 1;
    else if (r === RLHP_LONE_PARENT && parent[f]! < 0) parent[f] = i;
  }
  const out = new Uint8Array(families);
  for (let f = 0; f < families; f++) {
    if (first[f]! >= 0 && second[f]! >= 0) {
      out[f] = coupleStatus(LFSP_CLASS[lfsp[first[f]!]!]!, LFSP_CLASS[lfsp[second[f]!]!]!);
    } else if (first[f]! >= 0 && away[f]) out[f] = LFSF.coupleNotStated;
    else if (parent[f]! >= 0) out[f] = parentStatus(LFSP_CLASS[lfsp[parent[f]!]!]!);
    else out[f] = LFSF.notApplicable;
  }
  return out;
}
