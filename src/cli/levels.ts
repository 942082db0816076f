import { AREA_LEVELS, type AreaLevel } from '../core/dataset.ts';

/** "poa" or "sal,poa" → the levels; anything else is an error naming what --levels takes. */
export function parseLevels(text: string): AreaLevel[] {
  const levels = text.split(',').map((l) => l.trim().toLowerCase()).filter((l) => l !== '');
  const unknown = levels.find((l) => !(AREA_LEVELS as readonly string[]).includes(l));
  if (unknown !== undefined || levels.length === 0) throw new Error(`--levels takes a comma list of ${AREA_LEVELS.join(', ')}; got "${text}"`);
  return levels as AreaLevel[];
}
