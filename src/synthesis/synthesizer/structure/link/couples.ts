/** Couples: the partners at home paired by age rank, same-sex couples from any surplus of one sex, and the partners whose partner is away left single. */
import type { Rng } from '../../rng.ts';
import { PARTNER_AGE_RANK_SD, SAME_SEX_COUPLE_SHARE, WIDE_AGE_GAPS } from '../../../census/controls/structure-priors.ts';
import { Role } from '../model.ts';
import type { Linking } from './linking.ts';

/**
 * Male and female same-sex couples to form from the partners of each sex: about
 * SAME_SEX_COUPLE_SHARE of all couples, split evenly, but at least what a surplus of one sex
 * needs (a surplus beyond that share says the suburb has more same-sex couples of that sex).
 */
export function sameSexCouples(men: number, women: number): { male: number; female: number } {
  const couples = Math.floor((men + women) / 2);
  const surplus = Math.trunc((men - women) / 2); // male − female same-sex couples
  const wanted = Math.max(Math.abs(surplus), Math.round(SAME_SEX_COUPLE_SHARE * couples));
  let female = Math.max(0, Math.floor((wanted - surplus) / 2));
  let male = female + surplus;
  if (male < 0) { female -= male; male = 0; }
  // Never more than the partners of a sex allow.
  while (2 * male > men || 2 * female > women) { male = Math.max(0, male - 1); female = Math.max(0, female - 1); }
  return { male, female };
}

/** Couples by age rank (with noise, so gaps spread around the mean gap); same-sex from any surplus. */
export function pairCouples(s: Linking): { couples: [number, number][]; singles: Set<number>; absentFamilies: number[] } {
  const { plan, drawn, rng, byRole, jittered } = s;
  // Partners whose partner was away on Census night (the plan's absent partners): the sex in
  // surplus first, since their partners away are of the other sex; they are no couple here.
  const present = byRole(Role.Partner);
  const absentFamilies: number[] = [];
  for (let f = 0; f < plan.families; f++) if ((plan.absentPartner[f] as number) > 0) absentFamilies.push(f);
  const singles = pickSingles(present, drawn.sex, absentFamilies.length, rng);
  const partners = present.filter((p) => !singles.has(p));
  const couples: [number, number][] = [];
  const { male, female } = sameSexCouples(partners.filter((p) => drawn.sex[p] === 0).length, partners.filter((p) => drawn.sex[p] === 1).length);
  const inSameSexCouple = new Set<number>();
  for (const [sex, pairs] of [[0, male], [1, female]] as const) {
    // Same-sex partners: a random choice of that sex, paired by age.
    const pool = partners.filter((p) => drawn.sex[p] === sex);
    rng.shuffle(pool);
    const chosen = jittered(pool.slice(0, 2 * pairs), PARTNER_AGE_RANK_SD);
    for (let i = 0; i + 1 < chosen.length; i += 2) couples.push([chosen[i] as number, chosen[i + 1] as number]);
    for (const p of chosen) inSameSexCouple.add(p);
  }
  const men = jittered(partners.filter((p) => drawn.sex[p] === 0 && !inSameSexCouple.has(p)), PARTNER_AGE_RANK_SD, WIDE_AGE_GAPS);
  const women = jittered(partners.filter((p) => drawn.sex[p] === 1 && !inSameSexCouple.has(p)), PARTNER_AGE_RANK_SD, WIDE_AGE_GAPS);
  const mixed = Math.min(men.length, women.length);
  for (let i = 0; i < mixed; i++) couples.push([men[i] as number, women[i] as number]);
  const rest = men.length > mixed ? men.slice(mixed) : women.slice(mixed);
  for (let i = 0; i + 1 < rest.length; i += 2) couples.push([rest[i] as number, rest[i + 1] as number]);
  return { couples, singles, absentFamilies };
}

/**
 * `count` of the partners at home whose partner is away: from the sex in surplus first (their
 * partners away are of the other sex, which evens the sexes of the rest), at random within a sex.
 */
export function pickSingles(partners: readonly number[], sex: Uint8Array, count: number, rng: Rng): Set<number> {
  const men = partners.filter((p) => sex[p] === 0);
  const women = partners.filter((p) => sex[p] === 1);
  const n = Math.min(count, partners.length);
  const fromMen = Math.max(0, Math.min(n, men.length, Math.max(n - women.length, Math.round((n + men.length - women.length) / 2))));
  rng.shuffle(men);
  rng.shuffle(women);
  return new Set([...men.slice(0, fromMen), ...women.slice(0, n - fromMen)]);
}
