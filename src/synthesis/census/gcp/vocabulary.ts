import type { DatasetType } from '../../../census-names.ts';
import { categoryIndex, variableByCode } from '../variables.ts';

/** Variable code → allowed category indices (a conjunction across codes), as in CellSpec. */
export type Where = Readonly<Record<string, readonly number[]>>;

/**
 * How one GCP table's long headers map to our variables. After sex and age are split off
 * (long-header.ts), the rest of a long header is read left to right as a sequence of phrases;
 * each phrase is a conjunction of category sets. A header whose rest is not fully read has no
 * definition here (its variable is one spq does not carry, e.g. ancestry or health conditions).
 */
export interface TableVocabulary {
  readonly table: string;
  /** Whose records the table counts (a family or dwelling table's "_Persons" columns count their members). */
  readonly universe: DatasetType;
  /** The table's population as a condition on its records (e.g. employed persons: LFSP employed). */
  readonly where?: Where;
  /** The table's population's ages, for persons tables (e.g. [15, 115]). */
  readonly ages?: readonly [number, number];
  /** Phrase → conjunction. Matched longest first; "Total" and "Tot" read as no condition. */
  readonly phrases: readonly (readonly [string, Where])[];
  /**
   * Phrases that mean something else when they end the header (G53's "Inadequately_described_
   * Not_stated" is an industry as a row and a qualification level as the last column word).
   */
  readonly lastPhrases?: readonly (readonly [string, Where])[];
  /**
   * The table's population is not expressible in its universe's variables (G39: families in
   * dwellings being purchased; tenure is a dwelling variable): no column is defined, not even
   * its totals, and the demo fills them all.
   */
  readonly populationNotExpressible?: boolean;
}

/** The category indices of the given labels (throws on a typo: labels come from variables.ts). */
export const cats = (code: string, ...labels: string[]): number[] => labels.map((l) => categoryIndex(code, l));
/** Every category of a variable except the listed labels. */
export const catsBut = (code: string, ...labels: string[]): number[] => {
  const all = variableByCode(code).categories;
  return all.flatMap((l, i) => (labels.includes(l) ? [] : [i]));
};
/** Category indices from..to inclusive. */
export const catRange = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Intersection of two conjunctions (same code in both: the categories both allow). */
export function andWhere(a: Where, b: Where): Where {
  const out: Record<string, readonly number[]> = { ...a };
  for (const [code, allowed] of Object.entries(b)) {
    const have = out[code];
    out[code] = have ? have.filter((x) => allowed.includes(x)) : allowed;
  }
  return out;
}

const TOTAL_WORDS: readonly (readonly [string, Where])[] = [
  ['Total', {}],
  ['Tot', {}],
];

/**
 * Reads `rest` as a sequence of the vocabulary's phrases; undefined when some part of it is not
 * a phrase. The empty rest (a sex/age total) reads as no condition.
 */
export function readRest(vocabulary: TableVocabulary, rest: string): Where | undefined {
  const phrases = sortedPhrases(vocabulary);
  let where: Where = {};
  let at = 0;
  while (at < rest.length) {
    let matched: readonly [string, Where] | undefined = vocabulary.lastPhrases?.find(([text]) => rest.length - at === text.length && rest.endsWith(text));
    if (!matched) for (const p of phrases) {
      const [text] = p;
      if (rest.startsWith(text, at) && (at + text.length === rest.length || rest[at + text.length] === '_')) {
        matched = p;
        break;
      }
    }
    if (!matched) return undefined;
    where = andWhere(where, matched[1]);
    at += matched[0].length + 1;
  }
  return where;
}

const SORTED = new WeakMap<TableVocabulary, readonly (readonly [string, Where])[]>();
function sortedPhrases(v: TableVocabulary): readonly (readonly [string, Where])[] {
  let s = SORTED.get(v);
  if (!s) SORTED.set(v, (s = [...v.phrases, ...TOTAL_WORDS].sort((a, b) => b[0].length - a[0].length)));
  return s;
}
