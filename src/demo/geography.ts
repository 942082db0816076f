import type { StateAbbr } from '../core/dataset.ts';
import { STATES } from '../core/dataset.ts';
import { ABS_CODE_OF_STATE } from '../census-names.ts';
import { createRng, type Rng } from '../synthesis/synthesizer/rng.ts';
import { realLgas, realPostcodes, realRemotenessAreas, realSals, type RealArea } from '../census-input/asgs-reference.ts';
import { realSalLinks } from '../census-input/sal-links-reference.ts';
import { DEMO_LGAS, type Archetype } from './places.ts';

/**
 * One demo suburb: a real SAL (code, name, area) with its real postcodes, LGAs and GCCSA where the
 * ABS correspondences link it (src/census-input/reference/sal-links-2021.csv), an invented
 * population, and an invented allocation for the few they do not.
 */
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
/**
 * Size factor by Remoteness Area class for the SALs no named place covers, so that at national
 * scale about seven in ten persons live in Major Cities, as in the 2021 Census.
 */
const CLASS_SIZE = [1, 0.3, 0.15, 1, 1] as const;

interface Planned {
  name: string;
  state: StateAbbr;
  lga: string;
  capital: boolean;
  archetype: Archetype;
  sal: RealArea;
  /** Set for SALs no named place covers (allocated by area); named places draw theirs. */
  remoteness?: number;
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
 * Archetype and capital-city membership of a real SAL that no demo place names, from its
 * (made-up) Remoteness Area class and its real area; the state's real LGAs given out in runs of
 * neighbouring SAL codes. Real codes and names, invented figures and allocation (the demo
 * inputs' README says so).
 */
function plannedFromArea(sal: RealArea, lga: string, remoteness: number, rng: Rng): Planned {
  const a = sal.areaSqkm;
  const archetype: Archetype =
    remoteness >= 3 ? 'X'
    : remoteness === 0 ? (a < 2 ? (rng.next() < 0.5 ? 'I' : 'M') : a < 10 ? (rng.next() < 0.6 ? 'M' : 'F') : 'F')
    : a >= 200 ? (rng.next() < 0.7 ? 'T' : 'R')
    : a >= 25 ? (rng.next() < 0.5 ? 'F' : 'R')
    : rng.next() < 0.6 ? 'T' : rng.next() < 0.6 ? 'R' : 'M';
  // The capital city is the state's least remote class: most of the mainland's Major Cities (the
  // rest are Newcastle, Geelong, the Gold Coast …) and a little of its inner regional fringe,
  // half of Tasmania's Inner Regional, all of the NT's Outer Regional (Greater Darwin's area is
  // exactly that of Outer Regional NT in the ABS descriptors), all of the ACT.
  const least = Math.min(...classesOf(sal.state).keys());
  const capital =
    sal.state === 'ACT' ? true
    : sal.state === 'OT' ? false
    : sal.state === 'NT' ? remoteness === least
    : sal.state === 'TAS' ? remoteness === least && rng.next() < 0.5
    : remoteness === 0 ? rng.next() < 0.8
    : remoteness === 1 && a < 200 && rng.next() < 0.1;
  return { name: sal.name, state: sal.state, lga, capital, archetype, sal, remoteness };
}

let classesByState: Map<StateAbbr, Map<number, number>> | undefined;
/** The Remoteness Area classes the ABS has in a state (0 Major Cities … 4 Very Remote) and their real areas. */
function classesOf(state: StateAbbr): Map<number, number> {
  if (!classesByState) {
    classesByState = new Map();
    for (const ra of realRemotenessAreas()) {
      const m = classesByState.get(ra.state) ?? new Map<number, number>();
      classesByState.set(ra.state, m.set(ra.cls, ra.areaSqkm));
    }
  }
  return classesByState.get(state)!;
}

/** The class of the state nearest `cls` (ties: the more remote): Tasmania has no Major Cities, the NT no Inner Regional, Victoria no Very Remote. */
function nearestClass(state: StateAbbr, cls: number): number {
  const have = [...classesOf(state).keys()];
  return have.reduce((best, c) => (Math.abs(c - cls) < Math.abs(best - cls) || (Math.abs(c - cls) === Math.abs(best - cls) && c > best) ? c : best));
}

/**
 * A made-up but plausible Remoteness Area class for each of a state's SALs: ranked by real area
 * (with noise, so that some small localities are regional and a few large ones metropolitan) and
 * handed out so that each class covers about the share of the state's area the real Remoteness
 * Area covers (Major Cities of NSW 5,522 km² of 800,797 km²; Very Remote WA 2.24 M km²). A SAL
 * takes the class its middle falls in.
 */
function remotenessByArea(sals: readonly RealArea[], rng: Rng): Map<string, number> {
  const out = new Map<string, number>();
  for (const st of [...STATES, 'OT' as const]) {
    let mine = sals.filter((s) => s.state === st);
    let classes = [...classesOf(st)].sort((x, y) => x[0] - y[0]);
    // A Remoteness Area exactly one SAL's size is that SAL (Inner Regional OT is Jervis Bay).
    for (const [cls, area] of classes) {
      const only = mine.find((s) => s.areaSqkm.toFixed(4) === area.toFixed(4));
      if (!only || classes.length === 1) continue;
      out.set(only.code, cls);
      mine = mine.filter((s) => s !== only);
      classes = classes.filter(([c]) => c !== cls);
    }
    if (mine.length === 0) continue;
    const ranked = mine
      .map((s) => ({ s, key: Math.log(Math.max(s.areaSqkm, 1e-4)) + 0.8 * rng.normal() }))
      .sort((x, y) => x.key - y.key || (x.s.code < y.s.code ? -1 : 1));
    const total = mine.reduce((a, s) => a + s.areaSqkm, 0);
    const raTotal = classes.reduce((a, [, area]) => a + area, 0);
    let bound = 0;
    const bounds = classes.map(([cls, area]) => [cls, (bound += (area / raTotal) * total)] as const);
    let cum = 0;
    for (const { s } of ranked) {
      const mid = cum + s.areaSqkm / 2;
      cum += s.areaSqkm;
      out.set(s.code, (bounds.find(([, b]) => mid <= b) ?? bounds[bounds.length - 1]!)[0]);
    }
  }
  return out;
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

/**
 * A named place's Remoteness Area class, from its archetype, then moved to the nearest class
 * its state has (Launceston's suburbs are Inner Regional: Tasmania has no Major Cities). The
 * NT outside Greater Darwin is all Remote or Very Remote.
 */
function remotenessOf(p: Planned, rng: Rng): number {
  const drawn =
    p.archetype === 'X' ? (rng.next() < 0.5 ? 3 : 4)
    : p.capital ? (p.state === 'TAS' ? 1 : p.state === 'NT' ? 2 : 0)
    : p.archetype === 'T' ? (rng.next() < 0.6 ? 1 : 2)
    : p.archetype === 'R' ? 1
    : 0; // regional cities (Newcastle, Geelong, Gold Coast …)
  return nearestClass(p.state, p.state === 'NT' && !p.capital ? Math.max(3, drawn) : drawn);
}

/** Shares scaled to sum to 1 again (rounded as the ABS writes them) after some were dropped. */
function rescaled(shares: readonly { code: string; ratio: number }[]): { code: string; ratio: number }[] {
  const total = shares.reduce((a, c) => a + c.ratio, 0);
  return total > 0 ? shares.map((c) => ({ code: c.code, ratio: Math.round((c.ratio / total) * 1e7) / 1e7 })) : [];
}

/**
 * A made-up Remoteness Area class kept consistent with the SAL's real GCCSA: a capital-city
 * suburb is not Remote, and the NT outside Greater Darwin is Remote or Very Remote.
 */
function withinGccsa(state: StateAbbr, remoteness: number, capital: boolean): number {
  if (capital && remoteness >= 3) return nearestClass(state, 2);
  if (!capital && state === 'NT' && remoteness < 3) return nearestClass(state, 3);
  return remoteness;
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
    // National scale: every other real SAL, in code order, with a made-up remoteness, archetype and LGA.
    const taken = new Set(real.map((p) => p.sal.code));
    const rest = everySal.filter((s) => !taken.has(s.code)).slice(0, target - real.length);
    const lgaOf = lgaAllocator(rest);
    const remoteness = remotenessByArea(rest, rng);
    const capitalOf = (sal: RealArea) => realSalLinks().get(sal.code)?.gccsa === GCCSA[sal.state][1];
    const consistent = (sal: RealArea) => (realSalLinks().has(sal.code) ? withinGccsa(sal.state, remoteness.get(sal.code)!, capitalOf(sal)) : remoteness.get(sal.code)!);
    planned = planned.concat(rest.map((sal) => plannedFromArea(sal, lgaOf(sal), consistent(sal), rng)));
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
    const size = ARCHETYPE_MEDIAN[p.archetype] * Math.exp(0.7 * rng.normal());
    // Area-allocated SALs: regional and rural localities are smaller than the archetype's median.
    return Math.max(30, p.remoteness === undefined ? size : size * CLASS_SIZE[p.remoteness]!);
  });
  const wanted = scale === 'national' ? 26_000_000 * (order.length / everySal.length) : 2_100 * order.length;
  const free = sizes.map((s, i) => (i % 12 === 5 ? 0 : s));
  const fixed = sizes.reduce((a, s, i) => a + (i % 12 === 5 ? s : 0), 0);
  const factor = (wanted - fixed) / Math.max(1, free.reduce((a, s) => a + s, 0));
  const floor = (p: Planned) => (p.remoteness === undefined || p.remoteness === 0 ? 500 : 50);
  const persons = sizes.map((s, i) => (i % 12 === 5 ? Math.round(s) : Math.min(30_000, Math.max(floor(order[i]!), Math.round(s * factor)))));
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
  const postcodeSet = new Set(realPostcodes().map((p) => p.name));
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
    const links = realSalLinks().get(p.sal.code);
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
    // The SAL's real postcodes (those 2021 still has as postal areas), LGAs and GCCSA (scripts/gen-sal-links.ts, from the ABS correspondences).
    const realPostcodesOf = links ? rescaled(links.postcodes.filter((c) => postcodeSet.has(c.code))) : [];
    if (links) lgas = links.lgas.map((l) => ({ code: l.code, name: l.name, ratio: l.ratio }));
    if (realPostcodesOf.length > 0) postcodes = realPostcodesOf;

    const [capCode, capName, restCode, restName] = GCCSA[p.state];
    const capital = links ? links.gccsa === capName : p.capital;
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
      remoteness: p.remoteness ?? remotenessOf({ ...p, capital }, rng),
      lgas,
      postcodes,
      gccsaCode: capital ? capCode : restCode,
      gccsaName: capital ? capName : restName,
      meshBlocks,
    };
  });
  return { suburbs };
}
