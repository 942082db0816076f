/**
 * Writes census/2021-gcp/POA/: the real 2021 GCP DataPack rows of every postal area of a few
 * small states (Tasmania, the ACT, the Northern Territory), for the part files spq reads, as the
 * ABS names state packs (`2021Census_G01_TAS_POA.csv`). A postal area that crosses states goes
 * with the first state the ABS names ("2611 crosses ACT/NSW" → ACT), as the loader places it.
 *   node bin/run-ts.js scripts/extract-real-postcodes.ts [path/to/"2021 Census GCP All Geographies for AUS"]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { realPostcodes } from '../src/adapters/abs/asgs-reference.ts';
import { INPUT_TABLES } from '../src/synthesis/census/tables.ts';

const STATES = ['TAS', 'ACT', 'NT'] as const;
const pack = process.argv[2] ?? fileURLToPath(new URL('../../shared/abs/2021-gcp/datapack/2021 Census GCP All Geographies for AUS/', import.meta.url));
const out = fileURLToPath(new URL('../census/2021-gcp/POA/', import.meta.url));
mkdirSync(out, { recursive: true });

const stateOf = new Map(realPostcodes().map((p) => [p.code, p.state]));
const parts = [...new Set(INPUT_TABLES.flatMap((t) => t.files))];
let bytes = 0;
for (const part of parts) {
  const [header, ...rows] = readFileSync(join(pack, 'POA', 'AUS', `2021Census_${part}_AUST_POA.csv`), 'utf8').trimEnd().split(/\r?\n/);
  for (const state of STATES) {
    // The key is the first field; DataPack rows hold no quoted commas before it.
    const kept = rows.filter((row) => stateOf.get(row.slice(0, row.indexOf(','))) === state);
    const text = [header, ...kept].join('\n') + '\n';
    writeFileSync(join(out, `2021Census_${part}_${state}_POA.csv`), text);
    bytes += text.length;
  }
}
console.log(`wrote ${parts.length * STATES.length} files (${(bytes / 1e6).toFixed(1)} MB) to ${out}`);
