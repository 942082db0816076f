import { controlledRound2D, largestRemainder, sum } from '../integerise.ts';
import { rake } from '../../shared/rake.ts';
import { weightedKey, type Rng } from '../rng.ts';
import {
  ADULT_AGE, ADULT_ROLES, AGES, DEFAULT_BANDS, ROLE_COUNT, ROLE_OF_TARGET, Role, TARGET_ROLE_COUNT,
  type StructureDiagnostics, type StructureTargets,
} from './model.ts';

/** Persons before linking: single-year age, sex (0 male, 1 female) and building role. */
export interface DrawnPersons {
  readonly count: number;
  readonly age: Uint8Array;
  readonly sex: Uint8Array;
  readonly role: Uint8Array;
}

/**
 * Partnering weights at 18 and 19 (roleAgeWeight). Issue 39: 0.035 and 0.07 (about 1% of
 * 15–19-year-olds partnered) gave 1.28% nationally against the real 1.46% and 1.67% on Tasmania's
 * and the NT's postal areas against 2.47%; both short, so both weights are raised by the national
 * ratio, 1.46 / 1.28 ≈ 1.14.
 */
const PARTNER_WEIGHT_18_19 = [0.04, 0.08] as const;

/**
 * How likely a person of single-year age `a` is to hold a role, relative to other ages of the
 * same age band (G27's bands are ten years wide, so a 15–24 partner would otherwise be as often
 * 16 as 24). Shapes from the 2021 Census: partners, lone parents and lone persons under 18 are
 * rare and become common through the early twenties; group households start at 18.
 */
export function roleAgeWeight(role: number, a: number): number {
  const ramp = (from: number, to: number, floor: number) => (a >= to ? 1 : a < from ? floor : floor + ((1 - floor) * (a - from + 1)) / (to - from + 1));
  switch (role) {
    // Partnering rises through the twenties into the early thirties (2021 Census: about half of
    // 25–29-year-olds and two thirds of 30–34-year-olds live with a partner). Under 20 it is
    // rare: about 1% of 15–19-year-olds, nearly all 18 or 19 and de facto, where G27's 15–24
    // partners (2021, Australia: 261,133) against G01's 1,457,812 persons aged 15–19 make that
    // about 6% of the band's partners (G05: 4% of its registered marriages, 2,417 of 60,755,
    // and de facto partners are younger); the weights at 18 and 19 give about 7.5%.
    case Role.Partner: return a < 15 ? 0 : a < 18 ? 0.002 : a < 20 ? PARTNER_WEIGHT_18_19[a - 18]! : ramp(18, 34, 0.03);
    case Role.LoneParent: return a < 15 ? 0 : a < 18 ? 0.01 : ramp(18, 25, 0.1);
    case Role.LonePerson: return a < 15 ? 0 : a < 18 ? 0.003 : ramp(18, 25, 0.05);
    // Group households are a young adult's: most common at 20–28, fewer each year after.
    case Role.GroupMember: return a < 15 ? 0 : a < 18 ? 0.01 : a <= 28 ? ramp(18, 20, 0.3) : Math.max(0.2, 0.85 ** (a - 28));
    case Role.Unrelated: return a < 18 ? 0.3 : 1;
    // Adult children leave home through their late twenties (2021 Census: about two and a half
    // times as many 25–29- as 30–34-year-olds live with a parent).
    case Role.Child: return a <= 24 ? 1 : 0.85 ** (a - 24);
    default: return 1;
  }
}

/**
 * Takes `count` values out of `pool` (in place), each chosen with chance ∝ weight(value),
 * without replacement (Efraimidis–Spirakis keys); zero-weight values only when nothing else is left.
 */
export function takeByWeight(pool: number[], count: number, weight: (v: number) => number, rng: Rng): number[] {
  if (count <= 0) return [];
  if (count >= pool.length) return pool.splice(0, pool.length);
  const keys = new Float64Array(pool.length);
  for (let i = 0; i < pool.length; i++) {
    const w = weight(pool[i]!);
    keys[i] = w > 0 ? weightedKey(rng, w) : -Infinity;
  }
  // The `count` largest keys, ties to the earlier value: every key above the count-th largest,
  // then those equal to it in pool order (only which are taken matters, not their order).
  const threshold = Float64Array.from(keys).sort()[pool.length - count]!;
  let above = 0;
  for (let i = 0; i < keys.length; i++) if (keys[i]! > threshold) above++;
  let equalTaken = count - above;
  const out: number[] = [];
  let kept = 0;
  for (let i = 0; i < pool.length; i++) {
    const key = keys[i]!;
    if (key > threshold || (key === threshold && equalTaken-- > 0)) out.push(pool[i]!);
    else pool[kept++] = pool[i]!;
  }
  pool.length = kept;
  return out;
}

/** Prior role × age shape used where the role table is missing or empty (only its shape matters). */
function rolePrior(role: number, lo: number): number {
  const adult = lo >= ADULT_AGE;
  switch (role) {
    case Role.Partner: return adult ? (lo < 25 ? 0.1 : lo < 75 ? 0.65 : 0.4) : 0;
    case Role.LoneParent: return adult ? (lo < 25 ? 0.01 : lo < 65 ? 0.06 : 0.03) : 0;
    case Role.Child: return lo < 15 ? 0.95 : lo < 25 ? 0.55 : lo < 35 ? 0.1 : lo < 55 ? 0.03 : 0.005;
    case Role.OtherRelated: return lo < 15 ? 0.02 : 0.03;
    case Role.Unrelated: return lo < 15 ? 0.005 : 0.02;
    case Role.GroupMember: return adult ? (lo < 35 ? 0.1 : 0.03) : 0;
    case Role.Visitor: return 0.015;
    // Aged care from 75, colleges and barracks at 15-24, prisons and staff quarters between.
    case Role.NonPrivate: return lo >= 85 ? 0.3 : lo >= 75 ? 0.06 : lo >= 15 && lo < 25 ? 0.03 : lo >= 15 ? 0.01 : 0.002;
    case Role.LonePerson: return adult ? (lo < 35 ? 0.07 : lo < 65 ? 0.12 : 0.3) : 0;
    default: return 0;
  }
}

/**
 * Persons by age × sex (integerised to the person anchor), each given a role so that role
 * totals match the household plan exactly and the role × sex × age band joint follows the role
 * table (raked to both margins, rounded with both exact). Adult-only roles never get a band
 * below 15; if the inputs make that impossible, the person's age is raised and counted.
 */
export function drawPersons(
  t: StructureTargets,
  persons: number,
  roleTotals: Int32Array,
  rng: Rng,
  diag: StructureDiagnostics,
): DrawnPersons {
  const columns = personsByColumn(t, persons);
  const rounded = rolesByColumn(t, roleTotals, columns, diag);
  return dealAges(persons, columns, rounded, rng, diag);
}

/** Persons by sex × single-year age (whole, to the anchor), and their columns: sex × the role table's age bands. */
interface PersonColumns {
  readonly ageSex: Int32Array;
  readonly bands: readonly (readonly [number, number])[];
  readonly nb: number;
  readonly cols: number;
  readonly bandOf: Uint8Array;
  readonly colTotals: Int32Array;
}

function personsByColumn(t: StructureTargets, persons: number): PersonColumns {
  const ageSex = largestRemainder(
    t.personsByAgeSex.length === 2 * AGES && sum(t.personsByAgeSex) > 0 ? t.personsByAgeSex : new Float64Array(2 * AGES).fill(1),
    persons,
  );
  const bands = t.roles?.bands ?? DEFAULT_BANDS;
  const nb = bands.length;
  const cols = 2 * nb;
  const bandOf = new Uint8Array(AGES).fill(nb - 1); // ages past the last band belong to it
  bands.forEach(([lo, hi], b) => { for (let a = lo; a <= Math.min(hi, AGES - 1); a++) bandOf[a] = b; });
  const colTotals = new Int32Array(cols);
  for (let s = 0; s < 2; s++) {
    for (let a = 0; a < AGES; a++) {
      const c = s * nb + (bandOf[a] as number);
      colTotals[c] = (colTotals[c] as number) + (ageSex[s * AGES + a] as number);
    }
  }
  return { ageSex, bands, nb, cols, bandOf, colTotals };
}

/** Persons by role × column: the role table (G27) raked to the plan's role totals and the columns' persons, rounded with both exact. */
function rolesByColumn(t: StructureTargets, roleTotals: Int32Array, columns: PersonColumns, diag: StructureDiagnostics): ReturnType<typeof controlledRound2D> {
  const { bands, nb, cols, colTotals } = columns;
  const seed = new Float64Array(ROLE_COUNT * cols);
  const allowed = new Uint8Array(ROLE_COUNT * cols);
  const table = t.roles && sum(t.roles.byRoleSexBand) > 0 ? t.roles.byRoleSexBand : undefined;
  for (let r = 0; r < ROLE_COUNT; r++) {
    for (let s = 0; s < 2; s++) {
      for (let b = 0; b < nb; b++) {
        const [lo, hi] = bands[b] as readonly [number, number];
        const cell = r * cols + s * nb + b;
        allowed[cell] = ADULT_ROLES.includes(r) && hi < ADULT_AGE ? 0 : 1;
        // A little prior mass keeps cells that the perturbed table zeroed reachable.
        seed[cell] = allowed[cell] ? rolePrior(r, lo) * (table ? 0.02 : 1) : 0;
      }
    }
  }
  if (table) {
    for (let tr = 0; tr < TARGET_ROLE_COUNT; tr++) {
      const r = ROLE_OF_TARGET[tr] as number;
      for (let c = 0; c < cols; c++) {
        const cell = r * cols + c;
        if (allowed[cell]) seed[cell] = (seed[cell] as number) + Math.max(0, (table[tr * cols + c] as number | undefined) ?? 0);
      }
    }
  }
  const fit = rake(seed, [ROLE_COUNT, cols], [
    { dims: [0], target: roleTotals },
    { dims: [1], target: colTotals },
  ], { maxIterations: 200, tolerance: 1e-6 });
  diag.roleRakeIterations = fit.iterations;
  diag.roleRakeResidual = fit.maxResidual;
  const rounded = controlledRound2D(fit.values, ROLE_COUNT, cols, roleTotals, colTotals, allowed);
  diag.roleCellsForced += rounded.forced;
  return rounded;
}

/** Deal single-year ages within each sex × band column to that column's roles. */
function dealAges(persons: number, columns: PersonColumns, rounded: ReturnType<typeof controlledRound2D>, rng: Rng, diag: StructureDiagnostics): DrawnPersons {
  const { ageSex, bands, nb, cols, bandOf } = columns;
  const age = new Uint8Array(persons);
  const sex = new Uint8Array(persons);
  const role = new Uint8Array(persons);
  let p = 0;
  const columnAges = new Int32Array(AGES * 4 + persons);
  for (let s = 0; s < 2; s++) {
    for (let b = 0; b < nb; b++) {
      let n = 0;
      for (let a = 0; a < AGES; a++) if (bandOf[a] === b) for (let k = 0; k < (ageSex[s * AGES + a] as number); k++) columnAges[n++] = a;
      rng.shuffle(columnAges, n);
      // Roles take their ages from the column by their age weights (Efraimidis–Spirakis keys).
      // Residents of non-private dwellings and visitors first, at random ages of the band; then,
      // up to 24, adults first and children last, so that partners and lone persons are the older
      // ones and children the younger (a 15–24 band is mostly students at 15–17); from 25,
      // children first, so that the adult children still at home are the younger ones.
      const pool = Array.from(columnAges.subarray(0, n));
      const adultsFirst = [...ADULT_ROLES, Role.Unrelated, Role.OtherRelated, Role.Child];
      const away = [Role.NonPrivate, Role.Visitor];
      const order = (bands[b] as readonly [number, number])[0] >= 25 ? [...away, Role.Child, ...adultsFirst.slice(0, -1)] : [...away, ...adultsFirst];
      for (const r of order) {
        const count = rounded.cells[r * cols + s * nb + b] as number;
        const chosen = takeByWeight(pool, count, (a) => roleAgeWeight(r, a), rng);
        for (let a of chosen) {
          if (ADULT_ROLES.includes(r) && a < ADULT_AGE) { a = ADULT_AGE; diag.agesRaised++; }
          age[p] = a;
          sex[p] = s;
          role[p] = r;
          p++;
        }
      }
    }
  }
  return { count: persons, age, sex, role };
}
