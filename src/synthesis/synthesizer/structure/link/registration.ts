/** Registered or de facto: which couples are in a registered marriage, within the role table's quotas and G05's caps. */
import { weightedKey, type Rng } from '../../rng.ts';
import { deFactoPrior } from '../../../census/controls/structure-priors.ts';
import { maxFlowBetween } from '../../max-flow.ts';
import { Role, type StructureTargets } from '../model.ts';
import type { DrawnPersons } from '../persons.ts';
import { bandsOf, orderByDesc, type Links } from './linking.ts';

/** What deciding registered or de facto couples works from: each couple's key, and the caps and quotas of registered partners by sex × age. */
interface Registration {
  readonly couples: [number, number][];
  readonly bandOf: (a: number) => number;
  readonly nb: number;
  readonly expected: number;
  readonly keys: Float64Array;
  readonly cap: Float64Array;
  readonly capOf: (p: number) => number;
  readonly quota: Float64Array;
}

/** De facto or registered: one decision per couple, from the table's share for the couple's band (sets `union`). */
export function registerCouples(t: StructureTargets, drawn: DrawnPersons, links: Links, rng: Rng): void {
  const registration = registrationOdds(t, drawn, links, rng);
  const planned = plannedRegistrations(registration, drawn, links);
  registerByKey(registration, planned, drawn, links);
  registerShortCells(registration, drawn, links);
}

function registrationOdds(t: StructureTargets, drawn: DrawnPersons, links: Links, rng: Rng): Registration {
  const { age, role } = links;
  const { bands, bandOf } = bandsOf(t);
  // As many registered couples as the shares expect, drawn by their chance (Efraimidis–Spirakis
  // keys), but no more registered partners of a sex and age group than the persons G05 counts
  // as married (a registered partner is "Married"; otherwise the marital status fit has to
  // force them).
  const couples = links.couples;
  const chance = new Float64Array(couples.length);
  let expected = 0;
  couples.forEach(([a, b], i) => {
    const younger = Math.min(age[a] as number, age[b] as number);
    const fromTable = t.deFactoShareByBand?.[bandOf(younger)];
    const share = fromTable !== undefined && Number.isFinite(fromTable) ? fromTable : deFactoPrior(younger);
    chance[i] = Math.min(1, Math.max(0, 1 - share));
    expected += chance[i] as number;
  });
  const keys = new Float64Array(couples.length);
  for (let i = 0; i < couples.length; i++) keys[i] = (chance[i] as number) > 0 ? weightedKey(rng, chance[i] as number) : -Infinity;
  const capRanges = t.registeredPartnerCap?.ranges ?? [];
  const cap = Float64Array.from(t.registeredPartnerCap?.bySexRange ?? []);
  /** The cap cell of a person, or -1 when no cap applies. */
  const capOf = (p: number): number => {
    const a = age[p] as number;
    const r = capRanges.findIndex(([lo, hi]) => a >= lo && a <= hi);
    return r < 0 ? -1 : (drawn.sex[p] as number) * capRanges.length + r;
  };
  // With G27's partners by sex × band: each sex × band's quota of registered partners is its share
  // of registered among that cell's partners, applied to the partners it holds here.
  const nb = bands.length;
  const quota = new Float64Array(2 * nb).fill(Infinity);
  if (t.registeredPartnersBySexBand && t.deFactoPartnersBySexBand) {
    const held = new Float64Array(2 * nb);
    for (const [a, b] of couples) for (const p of [a, b]) if (role[p] === Role.Partner) held[(drawn.sex[p] as number) * nb + bandOf(age[p] as number)]! += 1;
    for (let k = 0; k < 2 * nb; k++) {
      const r = Math.max(0, t.registeredPartnersBySexBand[k] as number);
      const d = Math.max(0, t.deFactoPartnersBySexBand[k] as number);
      if (r + d > 0) quota[k] = Math.round(((held[k] as number) * r) / (r + d));
    }
  }
  return { couples, bandOf, nb, expected, keys, cap, capOf, quota };
}

/**
 * Opposite-sex couples at home fill their two cells' quotas together: how many to register
 * between each man's cell and each woman's cell is planned as a maximum flow first, so no
 * quota is left unused because a greedy pass spent its partner cell's.
 */
function plannedRegistrations(registration: Registration, drawn: DrawnPersons, links: Links): Int32Array {
  const { age, role } = links;
  const { couples, bandOf, nb, keys, quota } = registration;
  const cellOf = (p: number) => (drawn.sex[p] as number) * nb + bandOf(age[p] as number);
  const planned = (() => {
    const between = new Int32Array(nb * nb);
    couples.forEach(([a, b], i) => {
      if (!((keys[i] as number) > -Infinity) || role[b] !== Role.Partner || drawn.sex[a] !== 0 || drawn.sex[b] !== 1) return;
      if (!Number.isFinite(quota[cellOf(a)] as number) || !Number.isFinite(quota[cellOf(b)] as number)) return;
      between[bandOf(age[a] as number) * nb + bandOf(age[b] as number)]!++;
    });
    return maxFlowBetween(between, nb, quota.subarray(0, nb), quota.subarray(nb));
  })();
  return planned;
}

/** Couples registered in key order, within the plan, the quotas and the caps (sets every couple's `union`). */
function registerByKey(registration: Registration, planned: Int32Array, drawn: DrawnPersons, links: Links): void {
  const { age, role, union } = links;
  const { couples, bandOf, nb, expected, keys, cap, capOf, quota } = registration;
  let registered = 0;
  const wanted = Math.round(expected);
  // Opposite-sex couples at home first (their plan is made), then same-sex couples and couples
  // with a partner away from the quota left: taken in one key order, same-sex couples spent the
  // men's quota the plan had counted on (postcode 2010, 830 male same-sex couples: 2,586
  // registered men for G27's 2,190).
  const oppositeSexAtHome = (i: number) => {
    const [a, b] = couples[i] as [number, number];
    return role[b] === Role.Partner && drawn.sex[a] === 0 && drawn.sex[b] === 1;
  };
  const keyOrder = Array.from(orderByDesc(keys));
  for (const i of [...keyOrder.filter(oppositeSexAtHome), ...keyOrder.filter((i) => !oppositeSexAtHome(i))]) {
    const [a, b] = couples[i] as [number, number];
    const sa = drawn.sex[a] as number;
    const sb = drawn.sex[b] as number;
    // G27's registered / de facto counts are of partners at home: a partner away takes no quota.
    const ka = sa * nb + bandOf(age[a] as number);
    const kb = role[b] === Role.Partner ? sb * nb + bandOf(age[b] as number) : -1;
    const ca = capOf(a);
    const cb = capOf(b);
    const withinCap = ca === cb ? ca < 0 || (cap[ca] as number) >= 2 : (ca < 0 || (cap[ca] as number) >= 1) && (cb < 0 || (cap[cb] as number) >= 1);
    const pair = kb >= 0 && sa === 0 && sb === 1 && Number.isFinite(quota[ka] as number) && Number.isFinite(quota[kb] as number) ? (ka % nb) * nb + (kb % nb) : -1;
    const withinQuota = pair >= 0
      ? (planned[pair] as number) > 0
      : ka === kb ? (quota[ka] as number) >= 2 : (quota[ka] as number) >= 1 && (kb < 0 || (quota[kb] as number) >= 1);
    const ok =
      (Number.isFinite(quota[ka] as number) ? withinQuota : registered < wanted) &&
      (keys[i] as number) > -Infinity &&
      withinCap;
    if (ok) {
      registered++;
      if (pair >= 0) planned[pair] = (planned[pair] as number) - 1;
      quota[ka] = (quota[ka] as number) - 1;
      if (kb >= 0) quota[kb] = (quota[kb] as number) - 1;
      if (ca >= 0) cap[ca] = (cap[ca] as number) - 1;
      if (cb >= 0) cap[cb] = (cap[cb] as number) - 1;
    }
    union[a] = ok ? 1 : 2;
    union[b] = ok ? 1 : 2;
  }
}

/**
 * A couple whose partners fall in two cells, one with registered partners to spare and the
 * other without, was left de facto above; registering it still lowers the squared error of
 * the two cells when together they lack two or more: (q_a − 1)² + (q_b − 1)² < q_a² + q_b²
 * for q_a + q_b ≥ 2.
 */
function registerShortCells(registration: Registration, drawn: DrawnPersons, links: Links): void {
  const { age, role, union } = links;
  const { couples, bandOf, nb, keys, cap, capOf, quota } = registration;
  if (Number.isFinite(quota.reduce((m, q) => Math.min(m, q), Infinity))) {
    for (const i of orderByDesc(keys)) {
      const [a, b] = couples[i] as [number, number];
      if (union[a] !== 2 || !((keys[i] as number) > -Infinity)) continue;
      const ka = (drawn.sex[a] as number) * nb + bandOf(age[a] as number);
      const kb = role[b] === Role.Partner ? (drawn.sex[b] as number) * nb + bandOf(age[b] as number) : -1;
      const short = (quota[ka] as number) + (kb >= 0 ? (quota[kb] as number) : 0) - (ka === kb ? 1 : 0);
      const ca = capOf(a);
      const cb = capOf(b);
      const withinCap = ca === cb ? ca < 0 || (cap[ca] as number) >= 2 : (ca < 0 || (cap[ca] as number) >= 1) && (cb < 0 || (cap[cb] as number) >= 1);
      // A partner away has no cell: one cell short by one is then enough.
      if (!Number.isFinite(short) || short <= (kb >= 0 ? 1 : 0) || !withinCap) continue;
      quota[ka] = (quota[ka] as number) - 1;
      if (kb >= 0) quota[kb] = (quota[kb] as number) - 1;
      if (ca >= 0) cap[ca] = (cap[ca] as number) - 1;
      if (cb >= 0) cap[cb] = (cap[cb] as number) - 1;
      union[a] = 1;
      union[b] = 1;
    }
  }
}
