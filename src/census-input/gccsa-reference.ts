import { readFileSync } from 'node:fs';
import type { StateAbbr } from '../census-names.ts';
import { parseCsvLine } from './csv.ts';

let gccsaOfSa4: Map<string, string> | undefined;

/**
 * The GCCSA name of an SA2 (its SA4 is its code's first three digits), from the SA4 → GCCSA table
 * scripts/gen-gccsa-reference.ts derives from the ABS geography descriptors
 * (reference/sa4-gccsa-2021.csv). Without an SA2, the state's single GCCSA where it has one (the
 * ACT, Other Territories); else "" (never guessed between a capital and the rest of a state).
 */
export function gccsaOfSa2(sa2Code: string | undefined, state: StateAbbr): string {
  if (!gccsaOfSa4) {
    const text = readFileSync(new URL('./reference/sa4-gccsa-2021.csv', import.meta.url), 'utf8');
    gccsaOfSa4 = new Map(
      text
        .split('\n')
        .slice(1)
        .filter(Boolean)
        .map((line) => {
          const [sa4, , , name] = parseCsvLine(line) as [string, string, string, string];
          return [sa4, name];
        }),
    );
  }
  const byCode = sa2Code ? gccsaOfSa4.get(sa2Code.slice(0, 3)) : undefined;
  if (byCode) return byCode;
  return state === 'ACT' ? 'Australian Capital Territory' : state === 'OT' ? 'Other Territories' : '';
}
