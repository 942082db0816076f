/**
 * A synthetic pool release of any size for the pool benches (bench/export.ts, bench/sampling.ts):
 * the real variable catalogue, random category values, linked records, suburbs of equal size.
 * Not realistic data: only its shape (columns, links, sizes) matters for timing.
 */
import { join } from 'node:path';
import type { Population } from '../src/synthesis/census/population.ts';
import { variablesOf } from '../src/synthesis/census/variables.ts';
import { DATASET_TYPES, STATES, type DatasetType } from '../src/core/dataset.ts';
import { createPoolReleaseWriter } from '../src/adapters/pools/writer.ts';

const VARIABLES = Object.fromEntries(DATASET_TYPES.map((d) => [d, variablesOf(d)])) as Record<DatasetType, ReturnType<typeof variablesOf>>;

function randomColumn(count: number, k: number, state: { s: number }): Uint8Array {
  const out = new Uint8Array(count);
  let s = state.s;
  for (let i = 0; i < count; i++) {
    s ^= s << 13; s ^= s >>> 17; s ^= s << 5;
    out[i] = (s >>> 0) % k;
  }
  state.s = s;
  return out;
}

/** Occupants per dwelling cycle 1‥4 (mean 2.5): ~0.4 dwellings and ~0.3 families per person. */
export function syntheticPopulation(persons: number, seed: number): Population {
  const state = { s: seed | 1 };
  const dwelling = new Uint32Array(persons);
  const family = new Int32Array(persons);
  const familyDwelling: number[] = [];
  let d = 0;
  for (let p = 0, size = 1; p < persons; size = (size % 4) + 1, d++) {
    const occupants = Math.min(size, persons - p);
    const f = occupants >= 2 ? familyDwelling.push(d) - 1 : -1;
    for (let k = 0; k < occupants; k++, p++) { dwelling[p] = d; family[p] = f; }
  }
  const cols = (dataset: DatasetType, count: number) => Object.fromEntries(VARIABLES[dataset].map((v) => [v.code, randomColumn(count, v.categories.length, state)]));
  return {
    persons: { count: persons, age: randomColumn(persons, 100, state), dwelling, family, variables: cols('persons', persons) },
    families: { count: familyDwelling.length, dwelling: Uint32Array.from(familyDwelling), variables: cols('families', familyDwelling.length) },
    dwellings: { count: d, variables: cols('dwellings', d) },
  };
}

/** Builds `<dir>/<version>` with `suburbs` suburbs of `personsPerSuburb` persons; returns the dir and build seconds. */
export async function buildSyntheticRelease(dir: string, suburbs: number, personsPerSuburb: number, version = 'bench'): Promise<{ dir: string; seconds: number; persons: number }> {
  const releaseDir = join(dir, version);
  const started = performance.now();
  const writer = await createPoolReleaseWriter({ dir: releaseDir, version, variables: VARIABLES });
  // One population object reused with shifted values would hide allocation costs; generate a few and cycle.
  const pops = [0, 1, 2, 3].map((k) => syntheticPopulation(personsPerSuburb, 7919 * (k + 1)));
  for (let i = 0; i < suburbs; i++) {
    const state = STATES[i % STATES.length]!;
    const code = String(10000 + i);
    await writer.append({
      suburb: {
        salCode: `SAL${code}`, suburbId: `Suburb ${code}`, name: `Suburb ${code}`, state, postcode: String(1000 + (i >> 2)).padStart(4, '0'),
        lga: `Council ${i >> 5}`, lgaCode: `LGA${20000 + (i >> 5)}`, gccsa: `Rest of ${state}`, smallSuburb: false,
      },
      population: pops[i % pops.length]!,
      coarsened: [],
    });
  }
  await writer.finish({ synthetic: true });
  return { dir: releaseDir, seconds: (performance.now() - started) / 1000, persons: suburbs * personsPerSuburb };
}
