/**
 * The real ABS inputs the repository ships (census/2021-gcp, what `npm run start:census` builds)
 * are the real pack's rows of Tasmania, the ACT and the Northern Territory, unchanged
 * (scripts/extract-real-areas.ts): at each level shipped (postal areas, SA2s, suburbs), every part
 * file the real pack holds of those spq reads, its header as published and the rows of exactly
 * those states' areas (the 2016 correspondences shipped beside them are checked in
 * real-correspondences.test.ts, which reads the whole files). Skips, saying so, when ../shared is not beside the checkout.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { realPostcodes, realSa2s, realSals, type RealArea } from '../../src/census-input/asgs-reference.ts';
import { salPartsRead } from '../../src/census-input/load-sal.ts';
import { INPUT_TABLES } from '../../src/synthesis/census/tables.ts';

const SHIPPED = fileURLToPath(new URL('../../census/2021-gcp/', import.meta.url));
const SHARED = fileURLToPath(new URL('../../../shared/abs/', import.meta.url));
const PACK = join(SHARED, '2021-gcp/datapack/2021 Census GCP All Geographies for AUS');
const present = existsSync(PACK);
if (!present) console.warn(`skipping the shipped census inputs test: ${SHARED} is absent`);

const STATES = ['TAS', 'ACT', 'NT'];
const LEVELS: Readonly<Record<string, () => readonly RealArea[]>> = { POA: realPostcodes, SA2: realSa2s, SAL: realSals };
const PARTS = [...new Set(INPUT_TABLES.flatMap((t) => t.files))];

const lines = (path: string) => readFileSync(path, 'utf8').trimEnd().split(/\r?\n/);
const keyOf = (row: string) => row.slice(0, row.indexOf(','));

describe.skipIf(!present)('the real census inputs shipped in census/2021-gcp', () => {
  for (const level of Object.keys(LEVELS)) {
    it(`${level}: every part file spq reads that the real pack holds, with exactly the rows of the three states' areas`, () => {
      const stateOf = new Map(LEVELS[level]!().map((a) => [a.code, a.state]));
      const held = (level === 'SAL' ? salPartsRead() : PARTS).filter((part) => existsSync(join(PACK, level, 'AUS', `2021Census_${part}_AUST_${level}.csv`)));
      expect(held.length).toBeGreaterThanOrEqual(level === 'SAL' ? 31 : 37);
      expect(readdirSync(join(SHIPPED, level)).sort()).toEqual(held.flatMap((part) => STATES.map((s) => `2021Census_${part}_${s}_${level}.csv`)).sort());
      for (const part of held) {
        const [header, ...rows] = lines(join(PACK, level, 'AUS', `2021Census_${part}_AUST_${level}.csv`));
        for (const state of STATES) {
          const [shippedHeader, ...shippedRows] = lines(join(SHIPPED, level, `2021Census_${part}_${state}_${level}.csv`));
          expect(shippedHeader, `${part} ${state}`).toBe(header);
          expect(shippedRows, `${part} ${state}`).toEqual(rows.filter((r) => stateOf.get(keyOf(r)) === state));
        }
      }
    }, 120_000);
  }

  it('SAL: the suburbs of the three states, those with no people among them', () => {
    const rows = STATES.map((s) => lines(join(SHIPPED, 'SAL', `2021Census_G14_${s}_SAL.csv`)).slice(1));
    expect(rows.map((r) => r.length)).toEqual([776, 136, 303]);
    // The total persons of G14 (religion) is its last column: a suburb nobody lives in is shipped and built, not dropped.
    expect(rows.flat().filter((r) => r.endsWith(',0')).length).toBeGreaterThan(30);
  });
});
