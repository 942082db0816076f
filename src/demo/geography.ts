import type { StateAbbr } from '../core/dataset.ts';
import { STATES } from '../core/dataset.ts';
import { ABS_CODE_OF_STATE } from '../core/geography/identifiers.ts';
import { createRng, type Rng } from '../core/synthesis/rng.ts';
import { realLgas, realPostcodes, realSals, type RealArea } from './asgs-reference.ts';
import { DEMO_LGAS, type Archetype } from './places.ts';

/** One demo suburb: a real SAL (code, name, area) with an invented population and allocation. */
export interface DemoSuburb {
  readonly index: number;
  /** The real SAL code and ABS name ("SAL22170", "Richmond (Vic.)") and the SAL's real area. */
  readonly salCode: string;
  readonly name: string;
  readonly absName: string;
  readonly areaSqkm: number;
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

const ARCHETYPE_MEDIAN: Readonly<Record<Archetype, number>> = { I: 9000, M: 7000, F: 11000, R: 4500, T: 3500, X: 600 };

interface Planned {
  name: string;
  state: StateAbbr;
  lga: string;
  capital: boolean;
  archetype: Archetype;
  sal: RealArea;
}

/**
 * The demo's named places with their real SAL (matched by name and state; among same-state
 * namesakes the one the ABS qualifies with the place's LGA), round-robin by state so that any
 * prefix covers every state; shared names first within a state. A place with no real SAL of
 * its name is left out.
 */
function realPlaces(): Planned[] {
  const byName = new Map<string, RealArea[]>();
  for (const sal of realSals()) byName.set(`${sal.name}|${sal.state}`, [...(byName.get(`${sal.name}|${sal.state}`) ?? []), sal]);
  const used = new Set<string>();
  const all = DEMO_LGAS.flatMap((l) =>
    l.suburbs.flatMap((s) => {
      const [name, arch] = s.split(':') as [string, Archetype];
      const candidates = (byName.get(`${name}|${l.state}`) ?? []).filter((c) => !used.has(c.code));
      const sal = candidates.find((c) => c.qualifierArea === l.name) ?? candidates[0];
      if (!sal) return [];
      used.add(sal.code);
      return [{ name, state: l.state, lga: l.name, capital: l.capital, archetype: arch, sal }];
    }),
  );
  const statesOf = new Map<string, Set<StateAbbr>>();
  for (const p of all) statesOf.set(p.name, (statesOf.get(p.name) ?? new Set()).add(p.state));
  const shared = (p: Planned) => (statesOf.get(p.name)!.size > 1 || all.filter((q) => q.name === p.name).length > 1 ? 0 : 1);
  const queues = [...STATES, 'OT' as const].map((st) =>
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

/**
 * Archetype, capital-city membership and LGA of a real SAL that no demo place names: made up
 * from its real area (large localities are rural or remote, small ones urban), with the
 * state's real LGAs given out in runs of neighbouring SAL codes. Real codes and names, invented
 * figures and allocation (the demo inputs' README says so).
 */
function plannedFromArea(sal: RealArea, lga: string, rng: Rng): Planned {
  const a = sal.areaSqkm;
  const remoteState = sal.state === 'NT' || sal.state === 'WA';
  const archetype: Archetype =
    a >= 5000 || (remoteState && a >= 1000) ? 'X'
    : a >= 200 ? (rng.next() < 0.7 ? 'T' : 'R')
    : a >= 25 ? (rng.next() < 0.5 ? 'F' : 'R')
    : a >= 4 ? (rng.next() < 0.6 ? 'M' : 'F')
    : rng.next() < 0.5 ? 'I' : 'M';
  const capital = sal.state === 'ACT' || (a < 40 && !remoteState && rng.next() < 0.65);
  return { name: sal.name, state: sal.state, lga, capital, archetype, sal };
}

/** The real LGAs of each state, handed to that state's unmatched SALs in runs of neighbouring codes. */
function lgaAllocator(sals: readonly RealArea[]): (sal: RealArea) => string {
  const byState = new Map<StateAbbr, RealArea[]>();
  for (const l of realLgas()) byState.set(l.state, [...(byState.get(l.state) ?? []), l]);
  const salsByState = new Map<StateAbbr, number>();
  for (const s of sals) salsByState.set(s.state, (salsByState.get(s.state) ?? 0) + 1);
  const seen = new Map<StateAbbr, number>();
  return (sal) => {
    const lgas = byState.get(sal.state) ?? [];
    const i = seen.get(sal.state) ?? 0;
    seen.set(sal.state, i + 1);
    if (lgas.length === 0) return 'Unincorporated';
    const run = Math.ceil((salsByState.get(sal.state) ?? 1) / lgas.length);
    return lgas[Math.min(lgas.length - 1, Math.floor(i / run))]!.name;
  };
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
  const everySal = realSals();
  const target = Math.min(count ?? (scale === 'national' ? everySal.length : 300), everySal.length);
  let planned = real.slice(0, Math.min(target, real.length));
  if (target > real.length) {
    // National scale: every other real SAL, in code order, with a made-up archetype and LGA.
    const taken = new Set(real.map((p) => p.sal.code));
    const rest = everySal.filter((s) => !taken.has(s.code));
    const lgaOf = lgaAllocator(rest);
    planned = planned.concat(rest.slice(0, target - real.length).map((sal) => plannedFromArea(sal, lgaOf(sal), rng)));
  }
  // Group by state then LGA (stable), so codes and postcodes run in blocks as the ABS's do.
  const order = [...STATES, 'OT' as const].flatMap((st) => {
    const mine = planned.filter((p) => p.state === st);
    const lgaOrder = [...new Set(mine.map((p) => p.lga))];
    return lgaOrder.flatMap((l) => mine.filter((p) => p.lga === l));
  });

  // Sizes: lognormal around the archetype's median, every 12th suburb small, rescaled to a total.
  const sizes = order.map((p, i) => {
    if (i % 12 === 5) return 30 + rng.int(450);
    return Math.max(30, ARCHETYPE_MEDIAN[p.archetype] * Math.exp(0.7 * rng.normal()));
  });
  const wanted = scale === 'national' ? 26_000_000 * (order.length / everySal.length) : 2_100 * order.length;
  const free = sizes.map((s, i) => (i % 12 === 5 ? 0 : s));
  const fixed = sizes.reduce((a, s, i) => a + (i % 12 === 5 ? s : 0), 0);
  const factor = (wanted - fixed) / Math.max(1, free.reduce((a, s) => a + s, 0));
  const persons = sizes.map((s, i) => (i % 12 === 5 ? Math.round(s) : Math.min(30_000, Math.max(500, Math.round(s * factor)))));
  // The largest suburb is pushed to ~30,000 so the range spans what the issue asks for.
  if (order.length >= 20) {
    const big = persons.indexOf(Math.max(...persons));
    persons[big] = 29_000 + rng.int(1000);
  }

  const lgaCodes = new Map(realLgas().map((l) => [`${l.state}|${l.name}`, l.code]));
  const lgasOfState = new Map<StateAbbr, RealArea[]>();
  for (const l of realLgas()) lgasOfState.set(l.state, [...(lgasOfState.get(l.state) ?? []), l]);
  /** The real LGA of a place's LGA name; a name the ABS list lacks borrows a real LGA of its state. */
  const realLga = (state: StateAbbr, name: string): { code: string; name: string } => {
    const code = lgaCodes.get(`${state}|${name}`);
    if (code) return { code, name };
    const pool = lgasOfState.get(state)!;
    let h = 0;
    for (let i = 0; i < name.length; i++) h = (Math.imul(h, 31) + name.charCodeAt(i)) >>> 0;
    const l = pool[h % pool.length]!;
    return { code: l.code, name: l.name };
  };
  const postcodesOf = new Map<StateAbbr, string[]>();
  for (const p of realPostcodes()) postcodesOf.set(p.state, [...(postcodesOf.get(p.state) ?? []), p.name]);
  const postcodeNext = new Map<StateAbbr, number>();
  /** The state's real postcodes in order (the SAL → POA allocation is made up); wraps when used up. */
  const nextPostcode = (state: StateAbbr): string => {
    const codes = postcodesOf.get(state) ?? postcodesOf.get('NSW')!;
    const n = postcodeNext.get(state) ?? 0;
    postcodeNext.set(state, n + 1);
    return codes[n % codes.length]!;
  };
  let mbNext = 0;
  let lastPostcode = '';
  let lastLga = '';
  let previous: { lga: { code: string; name: string }; postcode: string; state: StateAbbr } | undefined;
  const newPostcodeChance = scale === 'national' ? 0.15 : 0.4;

  const suburbs = order.map((p, index): DemoSuburb => {
    const stateDigit = ABS_CODE_OF_STATE[p.state];
    const lga = realLga(p.state, p.lga);
    const lgaCode = lga.code;
    const newLga = lgaCode !== lastLga;
    if (newLga || lastPostcode === '' || rng.next() < newPostcodeChance) lastPostcode = nextPostcode(p.state);
    lastLga = lgaCode;

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
    return {
      index,
      salCode: p.sal.code,
      name: p.sal.name,
      absName: p.sal.absName,
      areaSqkm: p.sal.areaSqkm,
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
