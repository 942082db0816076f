import type { DatasetType } from '../core/dataset.ts';
import type { CellSpec } from '../synthesis/census/table-spec.ts';

/**
 * ABS-style perturbation of published counts (since 2006): every cell gets a small random
 * adjustment; identical cells get identical values wherever they appear (the adjustment is a
 * function of the cell's definition, the area and the true count, not of the table); counts of
 * 1 and 2 are often zeroed; and a total is a cell of its own, so tables stop adding up.
 */

export const fnv1a = (s: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
};

const fmix = (h: number): number => {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};

/** A hash of what a cell counts (not of its header), so equal definitions perturb equally. */
export function cellDefinitionHash(universe: DatasetType, cell: CellSpec): number {
  const where = Object.keys(cell.where)
    .sort()
    .map((k) => `${k}=${cell.where[k]!.join('.')}`)
    .join('&');
  return fnv1a(`${universe}|${where}|${cell.age?.join('-') ?? ''}|${cell.count ?? 'records'}`);
}

export const areaHash = (code: string, seed: number): number => fmix(fnv1a(code) ^ Math.imul(seed | 0, 0x9e3779b1));

// Adjustments −2‥+2 with these cumulative probabilities.
const CUMULATIVE = [0.07, 0.27, 0.73, 0.93, 1];

export function perturbCount(trueCount: number, cellHash: number, area: number): number {
  if (trueCount <= 0) return 0;
  const h1 = fmix(cellHash ^ area ^ Math.imul(trueCount, 0x27d4eb2f));
  const u = h1 / 4294967296;
  if (trueCount <= 2) return u < 0.5 ? 0 : trueCount;
  let k = 0;
  while (u >= CUMULATIVE[k]!) k++;
  return Math.max(0, trueCount + k - 2);
}
