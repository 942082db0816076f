/**
 * Figures of different tables that count the same people.
 *
 * The ABS perturbs a Census figure by a key made from the records it counts, so the same people
 * are published as the same number in every table that counts them: males aged 15–19 in G01,
 * G04, G05, G17, G18, G23 and G46; employed males aged 15–19 in G46, G54 and G60; separate houses
 * in G36, G37, G41 and G42; mortgaged separate houses in G37 and G38. Which figures those are is
 * read from the data of one level: two figures (cells or totals and subtotals) of different
 * tables that are the same number in every area, and not 0 in at least SAME_PEOPLE_MIN_AREAS of
 * them, count the same people. No table spec says so — G54's employed are "industry stated or
 * not", G46's "employed" — and a spec could not tell G27 (persons in private dwellings and their
 * visitors) from G01 (persons by usual residence) under the same sex and age.
 */
import type { TableSpec } from './table-spec.ts';

/** A published figure of a table: a cell (figure < cells.length) or one of its otherCells (cells.length + index). */
export interface FigureRef {
  readonly tableId: string;
  readonly figure: number;
}

/** Classes of figures counting the same people, each spanning at least two tables. */
export type SamePeople = readonly (readonly FigureRef[])[];

/** Areas a figure must be non-zero in before its equality with another is taken to mean the same people. */
export const SAME_PEOPLE_MIN_AREAS = 30;

type ByArea = ReadonlyMap<string, ReadonlyMap<string, Float64Array>>;

/**
 * The classes of same-people figures among `specs`' tables over `areas`, from each table's cells
 * (`tables`: table id → area → cells) and totals and subtotals (`aggregates`: → otherCells values).
 */
export function findSamePeople(specs: readonly TableSpec[], tables: ByArea, aggregates: ByArea, areas: readonly string[]): SamePeople {
  const buckets = new Map<number, { ref: FigureRef; values: Float64Array }[]>();
  for (const spec of specs) {
    const cells = tables.get(spec.id);
    const others = aggregates.get(spec.id);
    const figures = spec.cells.length + spec.otherCells.length;
    // Each area's row looked up once per table, not once per figure.
    const cellRows = areas.map((area) => cells?.get(area));
    const otherRows = areas.map((area) => others?.get(area));
    for (let figure = 0; figure < figures; figure++) {
      const values = new Float64Array(areas.length);
      let nonZero = 0;
      for (let a = 0; a < areas.length; a++) {
        const v = figure < spec.cells.length ? cellRows[a]?.[figure] : otherRows[a]?.[figure - spec.cells.length];
        values[a] = v === undefined ? Number.NaN : v;
        if (v !== undefined && Number.isFinite(v) && v !== 0) nonZero++;
      }
      if (nonZero < SAME_PEOPLE_MIN_AREAS) continue;
      const key = fingerprint(values);
      let bucket = buckets.get(key);
      if (!bucket) buckets.set(key, (bucket = []));
      bucket.push({ ref: { tableId: spec.id, figure }, values });
    }
  }
  const classes: FigureRef[][] = [];
  for (const bucket of buckets.values()) {
    // A fingerprint can collide: the figures of a class are equal in every area.
    const left = [...bucket];
    while (left.length > 0) {
      const first = left.shift()!;
      const same = [first, ...left.filter((other) => sameValues(first.values, other.values))];
      for (const s of same.slice(1)) left.splice(left.indexOf(s), 1);
      if (new Set(same.map((s) => s.ref.tableId)).size >= 2) classes.push(same.map((s) => s.ref));
    }
  }
  return classes;
}

function fingerprint(values: Float64Array): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const word = Number.isNaN(v) ? -1 : Math.round(v);
    hash = Math.imul(hash ^ (word & 0xffff), 0x01000193);
    hash = Math.imul(hash ^ (word >>> 16), 0x01000193);
  }
  return hash >>> 0;
}

function sameValues(a: Float64Array, b: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !(Number.isNaN(a[i]!) && Number.isNaN(b[i]!))) return false;
  return true;
}
