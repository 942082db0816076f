/**
 * Does coarsening protect? A small suburb's records carry coarse categories, but the other
 * columns of the same record may give the fine one back (coarse LFSP "Employed" with hours of
 * work "35-39" is full-time). For a coarsened variable X and the columns served next to it,
 * the *rebuild lift* is how much better X's fine category is guessed from X's coarse category
 * and those columns than from X's coarse category alone: the share of records the best guess
 * (the commonest fine category of their combination, fitted to the very records, so it favours
 * the attacker) gets right, with the columns minus without. 0 = the columns tell nothing more.
 * Only records whose coarse category spans more than one fine category count.
 */
import type { Population } from '../census/population.ts';
import { variableByCode } from '../census/variables.ts';
import type { DatasetType } from '../../census-names.ts';

export interface RebuildLift {
  readonly variable: string;
  readonly from: readonly string[];
  /** Records whose coarse category hides more than one fine category. */
  readonly records: number;
  /** Share guessed right from the coarse category alone. */
  readonly alone: number;
  /** Share guessed right with the other columns too. */
  readonly withColumns: number;
  readonly lift: number;
}

/** The category a column is served in for a small suburb: coarse where the variable has a coarse version. */
export function servedValue(code: string, fine: number): number {
  const coarse = variableByCode(code).coarse;
  return coarse ? coarse.fromFine[fine]! : fine;
}

/** Lift of `variable` given `from` (same dataset), pooled over populations of fine records. */
export function rebuildLift(populations: readonly Population[], dataset: DatasetType, variable: string, from: readonly string[]): RebuildLift {
  const def = variableByCode(variable);
  if (!def.coarse) throw new Error(`${variable} has no coarse version`);
  const fromFine = def.coarse.fromFine;
  const span = new Map<number, number>();
  for (const g of fromFine) span.set(g, (span.get(g) ?? 0) + 1);
  const alone = new Map<string, Map<number, number>>();
  const joint = new Map<string, Map<number, number>>();
  const bump = (m: Map<string, Map<number, number>>, key: string, fine: number) => {
    let counts = m.get(key);
    if (!counts) m.set(key, (counts = new Map()));
    counts.set(fine, (counts.get(fine) ?? 0) + 1);
  };
  let records = 0;
  for (const pop of populations) {
    const level = pop[dataset];
    const x = level.variables[variable]!;
    const others = from.map((code) => [code, level.variables[code]!] as const);
    for (let i = 0; i < level.count; i++) {
      const coarse = fromFine[x[i]!]!;
      if ((span.get(coarse) ?? 0) < 2) continue;
      records++;
      bump(alone, String(coarse), x[i]!);
      bump(joint, `${coarse}|${others.map(([code, col]) => servedValue(code, col[i]!)).join(',')}`, x[i]!);
    }
  }
  const hits = (m: Map<string, Map<number, number>>) => [...m.values()].reduce((n, counts) => n + Math.max(...counts.values()), 0);
  const a = records > 0 ? hits(alone) / records : 0;
  const w = records > 0 ? hits(joint) / records : 0;
  return { variable, from, records, alone: a, withColumns: w, lift: w - a };
}
