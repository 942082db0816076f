import type { StateAbbr } from '../core/dataset.ts';
import { STATES } from '../core/dataset.ts';
import { ABS_CODE_OF_STATE, formatAbsName } from '../core/geography/identifiers.ts';
import { createRng, type Rng } from '../core/synthesis/rng.ts';
import { DEMO_LGAS, NAME_ENDINGS, NAME_PREFIXES, NAME_STEMS, type Archetype } from './places.ts';

/** One made-up suburb: a real (or, at national scale, invented) name with invented figures. */
export interface DemoSuburb {
  readonly index: number;
  readonly salCode: string; // "SAL20001"
  readonly name: string;
  readonly absName: string;
  readonly state: StateAbbr;
  readonly archetype: Archetype;
  /** Target number of usually resident persons of the hidden truth. */
  readonly persons: number;
  /** 0 Major Cities … 4 Very Remote (DLOD category index). */
  readonly remoteness: number;
  readonly lgas: readonly { code: string; name: string; ratio: number }[];
  readonly postcodes: readonly { code: string; ratio: number }[];
  readonly gccsaCode: string;
  readonly gccsaName: string;
  readonly meshBlocks: readonly string[];
}

export interface DemoGeography {
  readonly suburbs: readonly DemoSuburb[];
}

const GCCSA: Readonly<Record<StateAbbr, readonly [string, string, string, string]>> = {
  NSW: ['1GSYD', 'Greater Sydney', '1RNSW', 'Rest of NSW'],
  VIC: ['2GMEL', 'Greater Melbourne', '2RVIC', 'Rest of Vic.'],
  QLD: ['3GBRI', 'Greater Brisbane', '3RQLD', 'Rest of Qld'],
  SA: ['4GADE', 'Greater Adelaide', '4RSAU', 'Rest of SA'],
  WA: ['5GPER', 'Greater Perth', '5RWAU', 'Rest of WA'],
  TAS: ['6GHOB', 'Greater Hobart', '6RTAS', 'Rest of Tas.'],
  NT: ['7GDAR', 'Greater Darwin', '7RNTE', 'Rest of NT'],
  ACT: ['8ACTE', 'Australian Capital Territory', '8ACTE', 'Australian Capital Territory'],
  OT: ['9OTER', 'Other Territories', '9OTER', 'Other Territories'],
};

/** Postcode ranges per state (the ACT's are carved out of NSW's 2xxx). */
const POSTCODE_RANGES: Readonly<Record<StateAbbr, readonly (readonly [number, number])[]>> = {
  NSW: [[2000, 2599], [2621, 2899], [2915, 2999]],
  ACT: [[2600, 2620], [2900, 2914]],
  VIC: [[3000, 3999]],
  QLD: [[4000, 4999]],
  SA: [[5000, 5799]],
  WA: [[6000, 6797]],
  TAS: [[7000, 7499]],
  NT: [[800, 899]],
  OT: [[6798, 6799]],
};

/** Shares of suburbs by state at national scale (close to the real SAL counts). */
const NATIONAL_STATE_SHARE: Readonly<Record<string, number>> = {
  NSW: 0.3, VIC: 0.2, QLD: 0.22, SA: 0.11, WA: 0.1, TAS: 0.05, NT: 0.012, ACT: 0.008,
};

const ARCHETYPE_MEDIAN: Readonly<Record<Archetype, number>> = { I: 9000, M: 7000, F: 11000, R: 4500, T: 3500, X: 600 };

interface Planned {
  name: string;
  state: StateAbbr;
  lga: string;
  capital: boolean;
  archetype: Archetype;
}

/** Real names, round-robin by state so that any prefix covers every state; shared names first within a state. */
function realPlaces(): Planned[] {
  const all = DEMO_LGAS.flatMap((l) =>
    l.suburbs.map((s) => {
      const [name, arch] = s.split(':') as [string, Archetype];
      return { name, state: l.state, lga: l.name, capital: l.capital, archetype: arch };
    }),
  );
  const statesOf = new Map<string, Set<StateAbbr>>();
  for (const p of all) statesOf.set(p.name, (statesOf.get(p.name) ?? new Set()).add(p.state));
  const shared = (p: Planned) => (statesOf.get(p.name)!.size > 1 || all.filter((q) => q.name === p.name).length > 1 ? 0 : 1);
  const queues = STATES.map((st) =>
    all
      .filter((p) => p.state === st)
      .map((p, i) => [p, i] as const)
      .sort((a, b) => shared(a[0]) - shared(b[0]) || a[1] - b[1])
      .map(([p]) => p),
  );
  const out: Planned[] = [];
  for (let round = 0; out.length < all.length; round++)
    for (const q of queues) if (round < q.length) out.push(q[round]!);
  return out;
}

/** Invented suburbs for national scale: names unique within their state, LGAs of ~25 suburbs. */
function inventedPlaces(count: number, rng: Rng, taken: ReadonlySet<string>): Planned[] {
  const out: Planned[] = [];
  const states = STATES.filter((s) => NATIONAL_STATE_SHARE[s]);
  const archetypes: Archetype[] = ['I', 'M', 'M', 'F', 'F', 'F', 'R', 'R', 'T', 'T', 'T', 'X', 'X'];
  let left = count;
  for (const state of states) {
    // The last state takes the rounding remainder, so the total is exactly `count`.
    const n = state === states[states.length - 1] ? left : Math.min(left, Math.round(count * NATIONAL_STATE_SHARE[state]!));
    left -= n;
    let lga = '';
    let capital = false;
    // Stride through stems × endings × prefixes so that neighbouring suburbs do not share a stem.
    let k = STATES.indexOf(state) * 7919;
    for (let i = 0; i < n; i++) {
      let name: string;
      do {
        const stem = NAME_STEMS[k % NAME_STEMS.length]!;
        const ending = NAME_ENDINGS[Math.floor(k / NAME_STEMS.length) % NAME_ENDINGS.length]!;
        const prefix = NAME_PREFIXES[Math.floor(k / (NAME_STEMS.length * NAME_ENDINGS.length)) % NAME_PREFIXES.length]!;
        name = `${prefix}${stem}${ending}`;
        k += 37;
      } while (taken.has(`${name}|${state}`)); // the stride visits every combination once, so invented names never repeat
      if (i % 25 === 0) {
        lga = `${name.replace(/^(North|South|East|West|Upper|Lower|New|Port|Mount) /, '')}`;
        capital = state === 'ACT' || rng.next() < 0.45;
      }
      out.push({ name, state, lga: state === 'ACT' ? 'Unincorporated ACT' : lga, capital, archetype: archetypes[rng.int(archetypes.length)]! });
    }
  }
  return out;
}

function remotenessOf(p: Planned, rng: Rng): number {
  if (p.archetype === 'X') return rng.next() < 0.5 ? 3 : 4;
  if (p.capital) return p.state === 'TAS' ? 1 : p.state === 'NT' ? 2 : 0;
  if (p.archetype === 'T') return rng.next() < 0.6 ? 1 : 2;
  if (p.archetype === 'R') return 1;
  return 0; // regional cities (Newcastle, Geelong, Gold Coast …)
}

/**
 * The demo's geography: suburbs with codes, ABS names, LGAs and postcodes (some straddling
 * two of each), GCCSA, mesh blocks and a target size. Deterministic in (scale, seed, count).
 */
export function buildDemoGeography(scale: 'demo' | 'national', seed: number, count?: number): DemoGeography {
  const rng = createRng(seed).fork(1);
  const real = realPlaces();
  const target = count ?? (scale === 'national' ? 15_000 : 300);
  let planned = real.slice(0, Math.min(target, real.length));
  if (target > real.length) {
    const taken = new Set(real.map((p) => `${p.name}|${p.state}`));
    planned = planned.concat(inventedPlaces(target - real.length, rng, taken));
  }
  // Group by state then LGA (stable), so codes and postcodes run in blocks as the ABS's do.
  const order = STATES.flatMap((st) => {
    const mine = planned.filter((p) => p.state === st);
    const lgaOrder = [...new Set(mine.map((p) => p.lga))];
    return lgaOrder.flatMap((l) => mine.filter((p) => p.lga === l));
  });

  // ABS naming: a name used in several states gets "(Vic.)"; same-state namesakes get "(Area - Vic.)".
  const statesOf = new Map<string, Set<StateAbbr>>();
  const perState = new Map<string, number>();
  for (const p of order) {
    statesOf.set(p.name, (statesOf.get(p.name) ?? new Set()).add(p.state));
    perState.set(`${p.name}|${p.state}`, (perState.get(`${p.name}|${p.state}`) ?? 0) + 1);
  }

  // Sizes: lognormal around the archetype's median, every 12th suburb small, rescaled to a total.
  const sizes = order.map((p, i) => {
    if (i % 12 === 5) return 30 + rng.int(450);
    return Math.max(30, ARCHETYPE_MEDIAN[p.archetype] * Math.exp(0.7 * rng.normal()));
  });
  const wanted = scale === 'national' ? 26_000_000 * (order.length / 15_000) : 2_100 * order.length;
  const free = sizes.map((s, i) => (i % 12 === 5 ? 0 : s));
  const fixed = sizes.reduce((a, s, i) => a + (i % 12 === 5 ? s : 0), 0);
  const factor = (wanted - fixed) / Math.max(1, free.reduce((a, s) => a + s, 0));
  const persons = sizes.map((s, i) => (i % 12 === 5 ? Math.round(s) : Math.min(30_000, Math.max(500, Math.round(s * factor)))));
  // The largest suburb is pushed to ~30,000 so the range spans what the issue asks for.
  if (order.length >= 20) {
    const big = persons.indexOf(Math.max(...persons));
    persons[big] = 29_000 + rng.int(1000);
  }

  const lgaCodes = new Map<string, string>();
  const postcodeNext = new Map<StateAbbr, number>();
  const nextPostcode = (state: StateAbbr): string => {
    const ranges = POSTCODE_RANGES[state];
    const n = postcodeNext.get(state) ?? 0;
    let left = n;
    for (const [from, to] of ranges) {
      if (left <= to - from) {
        postcodeNext.set(state, n + 1);
        return String(from + left).padStart(4, '0');
      }
      left -= to - from + 1;
    }
    return String(ranges[ranges.length - 1]![1]).padStart(4, '0'); // range exhausted: share the last one
  };
  const salNext = new Map<StateAbbr, number>();
  let mbNext = 0;
  let lastPostcode = '';
  let lastLga = '';
  let previous: { lga: { code: string; name: string }; postcode: string; state: StateAbbr } | undefined;
  const newPostcodeChance = scale === 'national' ? 0.15 : 0.4;

  const suburbs = order.map((p, index): DemoSuburb => {
    const stateDigit = ABS_CODE_OF_STATE[p.state];
    const n = (salNext.get(p.state) ?? 0) + 1;
    salNext.set(p.state, n);
    const salCode = `SAL${stateDigit}${String(n).padStart(4, '0')}`;
    const lgaKey = `${p.state}|${p.lga}`;
    let lgaCode = lgaCodes.get(lgaKey);
    if (!lgaCode) {
      lgaCode = p.state === 'ACT' ? 'LGA89399' : `LGA${stateDigit}${String(1000 + lgaCodes.size * 7).padStart(4, '0')}`;
      lgaCodes.set(lgaKey, lgaCode);
    }
    const newLga = lgaCode !== lastLga;
    if (newLga || lastPostcode === '' || rng.next() < newPostcodeChance) lastPostcode = nextPostcode(p.state);
    lastLga = lgaCode;

    const lga = { code: lgaCode, name: p.lga };
    let lgas = [{ ...lga, ratio: 1 }];
    let postcodes = [{ code: lastPostcode, ratio: 1 }];
    // Straddlers: some SALs reach into the previous suburb's LGA or postcode.
    if (previous && previous.state === p.state) {
      if (previous.lga.code !== lgaCode && rng.next() < 0.3) {
        const r = Math.round((0.55 + 0.4 * rng.next()) * 1e6) / 1e6;
        lgas = [{ ...lga, ratio: r }, { ...previous.lga, ratio: Math.round((1 - r) * 1e6) / 1e6 }];
      }
      if (previous.postcode !== lastPostcode && rng.next() < 0.15) {
        const r = Math.round((0.55 + 0.4 * rng.next()) * 1e6) / 1e6;
        postcodes = [{ code: lastPostcode, ratio: r }, { code: previous.postcode, ratio: Math.round((1 - r) * 1e6) / 1e6 }];
      }
    }
    previous = { lga, postcode: lastPostcode, state: p.state };

    const [capCode, capName, restCode, restName] = GCCSA[p.state];
    const mbCount = Math.max(lgas.length, postcodes.length) + rng.int(2);
    const meshBlocks = Array.from({ length: mbCount }, () => `${stateDigit}${String(mbNext++).padStart(10, '0')}`);
    const repeated = (perState.get(`${p.name}|${p.state}`) ?? 0) > 1;
    const multiState = (statesOf.get(p.name)?.size ?? 0) > 1;
    const absName = repeated ? formatAbsName(p.name, p.state, p.lga) : multiState ? formatAbsName(p.name, p.state) : p.name;
    return {
      index,
      salCode,
      name: p.name,
      absName,
      state: p.state,
      archetype: p.archetype,
      persons: persons[index]!,
      remoteness: remotenessOf(p, rng),
      lgas,
      postcodes,
      gccsaCode: p.capital ? capCode : restCode,
      gccsaName: p.capital ? capName : restName,
      meshBlocks,
    };
  });
  return { suburbs };
}
