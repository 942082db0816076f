import { readFileSync } from 'node:fs';
import { STATE_BY_ABS_CODE, type StateAbbr } from '../census-names.ts';
import { lgaBaseName, parseAbsName, stateOfSa2 } from './abs-names.ts';
import { parseCsvLine } from './csv.ts';

/**
 * The real ASGS 2021 codes, names and areas (the demo's places; the SA2s, postcodes and LGAs of an SA2, POA or LGA build) (src/census-input/reference, extracted from
 * the ABS geography descriptors by scripts/gen-asgs-reference.ts; CC BY 4.0, based on ABS data).
 */
export interface RealArea {
  readonly code: string;
  /** As the ABS writes it, e.g. "Richmond (Vic.)". */
  readonly absName: string;
  /** Without the ABS qualifier ("Richmond"), or the LGA's base name. */
  readonly name: string;
  /** The area the ABS names in a same-state qualifier ("Ascot (Ballarat - Vic.)" → "Ballarat"). */
  readonly qualifierArea?: string;
  readonly state: StateAbbr;
  readonly areaSqkm: number;
}

function read(file: string, stateOf: (code: string, name: string) => StateAbbr | undefined, nameOf: (absName: string) => string): RealArea[] {
  const text = readFileSync(new URL(`./reference/${file}`, import.meta.url), 'utf8');
  const out: RealArea[] = [];
  for (const line of text.split('\n').slice(1)) {
    if (!line) continue;
    const [code, absName, area] = parseCsvLine(line) as [string, string, string];
    const state = stateOf(code, absName);
    if (!state) continue;
    const qualifierArea = parseAbsName(absName).area;
    out.push({ code, absName, name: nameOf(absName), ...(qualifierArea ? { qualifierArea } : {}), state, areaSqkm: Number(area) });
  }
  return out;
}

/** Codes ending 9494/9797 (SAL) or 9499/9799 (LGA, SA2) are "No usual address" and "Migratory – Offshore – Shipping". */
const nonSpatial = (code: string) => /(?:9494|9797|9499|9799)$/.test(code);
const stateOfCode = (prefix: string) => (code: string) => (nonSpatial(code) ? undefined : STATE_BY_ABS_CODE[code.slice(prefix.length, prefix.length + 1)]);

let sals: RealArea[] | undefined;
/** Every real spatial SAL (15,334), in code order. */
export function realSals(): readonly RealArea[] {
  return (sals ??= read('sal-2021.csv', stateOfCode('SAL'), (n) => parseAbsName(n).name));
}

let lgas: RealArea[] | undefined;
/** Every real LGA with a place (no "No usual address" or migratory ones), in code order. */
export function realLgas(): readonly RealArea[] {
  return (lgas ??= read('lga-2021.csv', stateOfCode('LGA'), lgaBaseName));
}

let sa2s: RealArea[] | undefined;
/**
 * Every real spatial SA2 (2,454: no "No usual address" or migratory ones), in code order:
 * `code` is the nine digits ("601021004"), `absName` the ABS name ("Richmond (Vic.)": SA2 names
 * are unique in Australia) and `name` without its state qualifier, the state the code's first digit.
 */
export function realSa2s(): readonly RealArea[] {
  return (sa2s ??= read('sa2-2021.csv', (code) => (/^\d{9}$/.test(code) && !nonSpatial(code) ? stateOfSa2(code) : undefined), (n) => parseAbsName(n).name));
}

const STATES_ABBR = new Set<string>(['NSW', 'VIC', 'QLD', 'SA', 'WA', 'TAS', 'NT', 'ACT', 'OT']);
let poas: RealArea[] | undefined;
/**
 * Every real postal area, in code order: `name` is the postcode itself, and the state the first
 * one the ABS name gives ("3121, VIC" → VIC; "2406 crosses NSW/QLD" → NSW).
 */
export function realPostcodes(): readonly RealArea[] {
  return (poas ??= read(
    'poa-2021.csv',
    (code, name) => (/^POA\d{4}$/.test(code) ? (name.match(/[A-Z]{2,3}/g)?.find((s) => STATES_ABBR.has(s)) as StateAbbr | undefined) : undefined),
    (n) => n,
  ).map((p) => ({ ...p, name: p.code.slice(3) })));
}

/** One real Remoteness Area of a state: "RA34" Very Remote Australia in Queensland, 1,256,517 km². */
export interface RealRemotenessArea {
  /** RA_CODE_2021 as the allocation files write it: state digit then class ("34"). */
  readonly code: string;
  readonly name: string;
  readonly state: StateAbbr;
  /** 0 Major Cities … 4 Very Remote (the DLOD category index). */
  readonly cls: number;
  readonly areaSqkm: number;
}

let ras: RealRemotenessArea[] | undefined;
/**
 * The Remoteness Areas the ABS has, state by state (classes 0–4 only: not the migratory and
 * no-usual-address codes ending 5 and 9). Not every state has every class: Tasmania has no
 * Major Cities, Victoria no Very Remote, the NT neither Major Cities nor Inner Regional.
 */
export function realRemotenessAreas(): readonly RealRemotenessArea[] {
  return (ras ??= read(
    'ra-2021.csv',
    (code) => (/^RA\d[0-4]$/.test(code) ? STATE_BY_ABS_CODE[code[2]!] : undefined),
    (n) => n,
  ).map((r) => ({ code: r.code.slice(2), name: r.absName, state: r.state, cls: Number(r.code[3]), areaSqkm: r.areaSqkm })));
}
