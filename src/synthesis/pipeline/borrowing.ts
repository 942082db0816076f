/**
 * The borrowing strength of a level's areas per (table, size band), chosen once per build on the
 * level's published subtotals (synthesizer/borrow-strength.ts), handed to each area's job, and
 * reported in the build's JSON and report.txt (docs/synthesis.md, "Borrowing strength per table
 * and band").
 */
import type { AreaLevel, CensusInputs } from '../census/inputs.ts';
import { INPUT_TABLES } from '../census/tables.ts';
import { sizeBand, SIZE_BANDS, type SizeBand } from '../quality/metrics.ts';
import { BORROWING_PSEUDO_COUNT } from '../synthesizer/borrow.ts';
import { chooseStrengths, chooseTableStrengths, tableStrengthAreas, type BandStrengths, type StrengthAreaTables, type StrengthChoice, type TableStrengthArea } from '../synthesizer/borrow-strength.ts';

/** Per table, per size band: the strength chosen for a level's areas. */
export type LevelStrengths = ReadonlyMap<string, BandStrengths>;

/** The parents' tables an area borrows from, as the build hands them to the area (filled). */
export interface ParentTables {
  readonly lgaTables: ReadonlyMap<string, ReadonlyMap<string, Float64Array>>;
  readonly stateTables: ReadonlyMap<string, ReadonlyMap<string, Float64Array>>;
}

/**
 * The strengths of one level: every area in the band its published persons put it in, small when
 * under the build's threshold, with the parent the synthesis borrows from (its LGA's table, else
 * its state's: attributes/context.ts).
 */
export function levelStrengths(inputs: CensusInputs, parents: ParentTables, personsOf: (code: string) => number, smallThreshold: number, significance?: number): LevelStrengths {
  return chooseStrengths(INPUT_TABLES, strengthAreasOf(inputs, parents, personsOf, smallThreshold), significance);
}

/**
 * levelStrengths with each table's choice handed to `choose` (a worker thread of the build: the
 * choice is a tenth of a national build's CPU, and the tables are independent), in table order.
 */
export async function levelStrengthsBy(
  choose: (task: TableStrengthTask) => Promise<BandStrengths | undefined>,
  inputs: CensusInputs,
  parents: ParentTables,
  personsOf: (code: string) => number,
  smallThreshold: number,
  significance?: number,
): Promise<LevelStrengths> {
  const areas = strengthAreasOf(inputs, parents, personsOf, smallThreshold);
  // Each task's figures are gathered only when its table is chosen: a level's are hundreds of MB.
  const chosen = await Promise.all(INPUT_TABLES.map((spec) => choose({ tableId: spec.id, areas: () => tableStrengthAreas(spec.id, areas), ...(significance !== undefined ? { significance } : {}) })));
  return new Map(INPUT_TABLES.flatMap((spec, k) => (chosen[k] ? [[spec.id, chosen[k]!] as const] : [])));
}

/** One input table's strengths over a level's areas (what a strength worker thread runs for a TableStrengthTask). */
export function chooseInputTableStrengths(tableId: string, areas: readonly TableStrengthArea[], significance?: number): BandStrengths | undefined {
  const spec = INPUT_TABLES.find((t) => t.id === tableId);
  if (!spec) throw new Error(`no input table ${tableId}`);
  return chooseTableStrengths(spec, areas, significance);
}

export type { BandStrengths, TableStrengthArea };

/** One input table's strengths to choose, as plain data that can cross to a worker thread (release-builder/strength-worker.ts). */
export interface StrengthRequest {
  readonly tableId: string;
  readonly areas: readonly TableStrengthArea[];
  readonly significance?: number;
}

/** One input table's strength choice over a level: what a worker thread is handed (areas gathered when it is sent). */
export interface TableStrengthTask {
  readonly tableId: string;
  readonly areas: () => TableStrengthArea[];
  readonly significance?: number;
}

function strengthAreasOf(inputs: CensusInputs, parents: ParentTables, personsOf: (code: string) => number, smallThreshold: number): StrengthAreaTables[] {
  return inputs.suburbs.map((suburb) => {
    const persons = personsOf(suburb.salCode);
    const small = persons < smallThreshold;
    const lga = parents.lgaTables.get(suburb.lgaCode);
    const state = parents.stateTables.get(suburb.state);
    return {
      band: sizeBand(persons),
      figures: (tableId: string) => {
        const published = inputs.tables.get(tableId)?.get(suburb.salCode);
        const subtotals = inputs.aggregates.get(tableId)?.get(suburb.salCode);
        if (!published || !subtotals) return undefined;
        return { published, subtotals, parent: lga?.get(tableId) ?? state?.get(tableId), small };
      },
    };
  });
}

/** The strengths one area borrows with: each table's for the area's band. */
export function areaStrengths(strengths: LevelStrengths | undefined, persons: number): [string, number][] {
  if (!strengths) return [];
  const band = sizeBand(persons);
  return [...strengths].flatMap(([tableId, byBand]) => {
    const choice = byBand[band];
    return choice ? [[tableId, choice.k] as [string, number]] : [];
  });
}

/** The bands as the build's JSON names them. */
export const BAND_KEYS: Readonly<Record<SizeBand, '<500' | '500-4999' | '5000+'>> = { '<500': '<500', '500-5000': '500-4999', '>=5000': '5000+' };

/** One (table, band)'s strength in the build's JSON. */
export interface StrengthFigure {
  readonly k: number;
  /** false: no strength beat the default on the held-out subtotals by more than chance (or nothing is borrowed there), so the default stayed. */
  readonly decided: boolean;
  readonly areas: number;
  readonly held_out: number;
  /** RMSE of the held-out subtotals: at k, without borrowing, and at the default k. */
  readonly rmse: number | null;
  readonly rmse_without: number | null;
  readonly rmse_default: number | null;
}

/** Level → table → band → strength, for `--json` (borrowing_strength) and the report. */
export type StrengthFigures = Readonly<Partial<Record<AreaLevel, Readonly<Record<string, Readonly<Partial<Record<'<500' | '500-4999' | '5000+', StrengthFigure>>>>>>>>;

const figureOf = (c: StrengthChoice): StrengthFigure => ({
  k: c.k,
  decided: c.decided,
  areas: c.areas,
  held_out: c.checks,
  rmse: c.rmse,
  rmse_without: c.rmseWithout,
  rmse_default: c.rmseDefault,
});

export function strengthFigures(byLevel: ReadonlyMap<AreaLevel, LevelStrengths>): StrengthFigures {
  return Object.fromEntries(
    [...byLevel].map(([level, strengths]) => [
      level,
      Object.fromEntries(
        [...strengths].map(([tableId, byBand]) => [
          tableId,
          Object.fromEntries(SIZE_BANDS.flatMap((band) => (byBand[band] ? [[BAND_KEYS[band], figureOf(byBand[band]!)]] : []))),
        ]),
      ),
    ]),
  );
}

const fmt = (x: number | null) => (x === null ? '—' : x < 10 ? x.toFixed(2) : x.toFixed(1));

/** report.txt's lines: one per (level, table), the bands side by side. */
export function renderStrengths(figures: StrengthFigures): string[] {
  const lines: string[] = [];
  for (const [level, tables] of Object.entries(figures)) {
    for (const [tableId, byBand] of Object.entries(tables ?? {})) {
      const cells = Object.entries(byBand).map(([band, f]) =>
        f!.decided ? `${band} k=${f!.k} (${fmt(f!.rmse)} / ${fmt(f!.rmse_without)} / ${fmt(f!.rmse_default)}, ${f!.held_out} held out)` : `${band} k=${f!.k} (default: no k beat it by more than chance)`,
      );
      lines.push(`  ${level} ${tableId.padEnd(4)} ${cells.join('; ')}`);
    }
  }
  if (lines.length === 0) return [];
  return [`borrowing strength per table and size band (k pseudo-units of the parent's shares, chosen on held-out subtotals; their RMSE at k / without borrowing / at the default ${BORROWING_PSEUDO_COUNT}):`, ...lines];
}
