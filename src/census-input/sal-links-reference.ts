import { readFileSync } from 'node:fs';
import type { SuburbGeography } from '../synthesis/census/inputs.ts';
import { realSals } from './asgs-reference.ts';
import { parseCsvLine } from './csv.ts';

/** A suburb's real links (reference/sal-links-2021.csv, written by scripts/gen-sal-links.ts). */
export interface SalLinksRow {
  readonly salCode: string;
  /** Postcodes with the share of the suburb's people in each, largest first. */
  readonly postcodes: readonly { readonly code: string; readonly ratio: number }[];
  readonly lgas: readonly { readonly code: string; readonly name: string; readonly ratio: number }[];
  readonly sa2s: readonly { readonly code: string; readonly ratio: number }[];
  readonly gccsa: string;
  /** Persons the 2021 Census counted in the suburb (G14's total). */
  readonly persons: number;
}

const HEADER = ['sal_code', 'postcodes', 'lgas', 'sa2s', 'gccsa', 'lga_names', 'persons'] as const;
const shares = (list: readonly { code: string; ratio: number }[]) => list.map((s) => `${s.code}:${s.ratio}`).join(' ');
const parseShares = (text: string) =>
  text
    .split(' ')
    .filter(Boolean)
    .map((s) => {
      const at = s.lastIndexOf(':');
      return { code: s.slice(0, at), ratio: Number(s.slice(at + 1)) };
    });

/** The file's text: one line per suburb, shares as "code:ratio" separated by spaces, LGA names in a column of their own. */
export function formatSalLinks(suburbs: readonly SuburbGeography[], persons: ReadonlyMap<string, number>, csvLine: (fields: readonly string[]) => string): string {
  return (
    csvLine([...HEADER]) +
    suburbs.map((s) => csvLine([s.salCode, shares(s.postcodes), shares(s.lgas), shares(s.sa2s ?? []), s.gccsa, s.lgas.map((l) => l.name).join('|'), String(persons.get(s.salCode) ?? 0)])).join('')
  );
}

let rows: Map<string, SalLinksRow> | undefined;
/** Every linked suburb's real links, by SAL code. */
export function realSalLinks(): ReadonlyMap<string, SalLinksRow> {
  if (rows) return rows;
  const text = readFileSync(new URL('./reference/sal-links-2021.csv', import.meta.url), 'utf8');
  rows = new Map();
  for (const line of text.split('\n').slice(1)) {
    if (!line) continue;
    const [salCode, postcodes, lgas, sa2s, gccsa, lgaNames, persons] = parseCsvLine(line) as [string, string, string, string, string, string, string];
    const names = lgaNames.split('|');
    rows.set(salCode, { salCode, postcodes: parseShares(postcodes), lgas: parseShares(lgas).map((l, i) => ({ ...l, name: names[i]! })), sa2s: parseShares(sa2s), gccsa, persons: Number(persons) });
  }
  return rows;
}

/** A postal area's, SA2's or LGA's real links: the LGAs, postcodes and SA2s its people live in, its GCCSA and its largest suburbs. */
export interface ParentLinks {
  readonly lgas: readonly { readonly code: string; readonly name: string; readonly ratio: number }[];
  readonly postcodes: readonly { readonly code: string; readonly ratio: number }[];
  /** The SA2s its linked suburbs' people live in, largest first (a suburb the correspondences place in no 2021 SA2 adds none). */
  readonly sa2s: readonly { readonly code: string; readonly ratio: number }[];
  readonly gccsa: string;
  /** The names of its suburbs holding most of its people, largest first (at most five). */
  readonly largestSuburbs: readonly string[];
}

let suburbNamesByCode: ReadonlyMap<string, string> | undefined;
/** Every real suburb's name by code, made once (it was made again for each area: 15,000 entries × every postal area or SA2). */
const suburbNames = () => (suburbNamesByCode ??= new Map(realSals().map((s) => [s.code, s.name])));

type Tally = { lgas: Map<string, { name: string; n: number }>; postcodes: Map<string, number>; sa2s: Map<string, number>; gccsa: Map<string, number>; suburbs: { code: string; n: number }[] };
const cache = new Map<string, Map<string, ParentLinks>>();

const ranked = <T extends { code: string; ratio: number }>(list: T[]): T[] => list.sort((a, b) => b.ratio - a.ratio || (a.code < b.code ? -1 : 1));

/**
 * Each postcode's (or SA2's, or LGA's) links from its suburbs': a suburb's persons × its share in
 * the postcode are the postcode's people there, and so in the suburb's LGAs, postcodes and SA2s (by
 * their shares) and GCCSA. A suburb of no people still counts a little, so an empty postcode has links.
 */
export function realParentLinks(kind: 'postcodes' | 'sa2s' | 'lgas'): ReadonlyMap<string, ParentLinks> {
  const cached = cache.get(kind);
  if (cached) return cached;
  const names = suburbNames();
  const tallies = new Map<string, Tally>();
  for (const row of realSalLinks().values()) {
    for (const p of row[kind]) {
      const n = row.persons * p.ratio + 1e-6 * p.ratio;
      let at = tallies.get(p.code);
      if (!at) tallies.set(p.code, (at = { lgas: new Map(), postcodes: new Map(), sa2s: new Map(), gccsa: new Map(), suburbs: [] }));
      at.suburbs.push({ code: row.salCode, n });
      at.gccsa.set(row.gccsa, (at.gccsa.get(row.gccsa) ?? 0) + n);
      for (const l of row.lgas) at.lgas.set(l.code, { name: l.name, n: (at.lgas.get(l.code)?.n ?? 0) + n * l.ratio });
      for (const c of row.postcodes) at.postcodes.set(c.code, (at.postcodes.get(c.code) ?? 0) + n * c.ratio);
      for (const c of row.sa2s) at.sa2s.set(c.code, (at.sa2s.get(c.code) ?? 0) + n * c.ratio);
    }
  }
  const share = (n: number, total: number) => Math.round((n / total) * 1e7) / 1e7;
  const out = new Map(
    [...tallies].map(([code, at]): [string, ParentLinks] => {
      const total = at.suburbs.reduce((a, s) => a + s.n, 0);
      return [
        code,
        {
          lgas: ranked([...at.lgas].map(([c, l]) => ({ code: c, name: l.name, ratio: share(l.n, total) }))),
          postcodes: ranked([...at.postcodes].map(([c, n]) => ({ code: c, ratio: share(n, total) }))),
          sa2s: ranked([...at.sa2s].map(([c, n]) => ({ code: c, ratio: share(n, total) }))),
          gccsa: [...at.gccsa].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0],
          largestSuburbs: at.suburbs
            .sort((a, b) => b.n - a.n || (a.code < b.code ? -1 : 1))
            .slice(0, 5)
            .map((s) => names.get(s.code) ?? s.code),
        },
      ];
    }),
  );
  cache.set(kind, out);
  return out;
}
