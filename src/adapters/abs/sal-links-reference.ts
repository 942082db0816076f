import { readFileSync } from 'node:fs';
import type { SuburbGeography } from '../../synthesis/census/inputs.ts';
import { parseCsvLine } from './csv.ts';

/** A suburb's real links (reference/sal-links-2021.csv, written by scripts/gen-sal-links.ts). */
export interface SalLinksRow {
  readonly salCode: string;
  /** Postcodes with the share of the suburb's people in each, largest first. */
  readonly postcodes: readonly { readonly code: string; readonly ratio: number }[];
  readonly lgas: readonly { readonly code: string; readonly name: string; readonly ratio: number }[];
  readonly sa2s: readonly { readonly code: string; readonly ratio: number }[];
  readonly gccsa: string;
}

const HEADER = ['sal_code', 'postcodes', 'lgas', 'sa2s', 'gccsa'] as const;
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
export function formatSalLinks(suburbs: readonly SuburbGeography[], csvLine: (fields: readonly string[]) => string): string {
  return (
    csvLine([...HEADER, 'lga_names']) +
    suburbs.map((s) => csvLine([s.salCode, shares(s.postcodes), shares(s.lgas), shares(s.sa2s ?? []), s.gccsa, s.lgas.map((l) => l.name).join('|')])).join('')
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
    const [salCode, postcodes, lgas, sa2s, gccsa, lgaNames] = parseCsvLine(line) as [string, string, string, string, string, string];
    const names = lgaNames.split('|');
    rows.set(salCode, { salCode, postcodes: parseShares(postcodes), lgas: parseShares(lgas).map((l, i) => ({ ...l, name: names[i]! })), sa2s: parseShares(sa2s), gccsa });
  }
  return rows;
}
