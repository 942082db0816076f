/**
 * The synthesis's CPU time against a baseline checkout, in one process (issue 29 item 4): both
 * checkouts' compiled `runSuburbJob` (dist/) imported side by side, each sampled area run by one
 * and then the other (alternating which goes first, so the machine's load falls on both alike),
 * CPU seconds summed per side, and every outcome (all columns, fit, realism, rules, diagnostics)
 * hashed and compared. Before that, each checkout's load phase (read the DataPack, prepare the
 * parents and same-people figures) timed once. On a loaded 2-core machine this is the steady
 * figure; bench/build-speed.ts times whole builds and checks their files.
 *
 * Usage: node bin/run-ts.js bench/synthesis-ab.ts --baseline DIR [--inputs DIR] [--level poa]
 *        [--every 40] [--passes 2]
 *   --baseline  a checkout of the code to compare with, dist/ compiled
 *   --inputs    a DataPack directory (default: the real one beside the checkout, ../shared/abs)
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { SuburbJob } from '../src/synthesis/pipeline/area-job.ts';
import type * as AreaJob from '../src/synthesis/pipeline/area-job.ts';
import type * as Level from '../src/synthesis/pipeline/level.ts';
import type { SuburbOutcome } from '../src/synthesis/pipeline/run-job.ts';
import type * as LoadInputs from '../src/census-input/load-inputs.ts';
import type { AreaLevel } from '../src/synthesis/census/inputs.ts';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    inputs: { type: 'string', default: fileURLToPath(new URL('../../shared/abs/2021-gcp/datapack/2021 Census GCP All Geographies for AUS/', import.meta.url)) },
    level: { type: 'string', default: 'poa' },
    every: { type: 'string', default: '40' },
    passes: { type: 'string', default: '2' },
  },
});
if (!values.baseline) throw new Error('--baseline DIR (a checkout of the code to compare with, dist/ compiled) is required');
const sides = { baseline: resolve(values.baseline), this: resolve(import.meta.dirname, '..') } as const;
type Side = keyof typeof sides;
const level = values.level as AreaLevel;
const compiled = <T>(side: Side, path: string): Promise<T> => import(pathToFileURL(resolve(sides[side], 'dist', 'src', path)).href) as Promise<T>;
/** A compiled module where the checkout has it, or where a baseline from before issue 33's moves had it. */
const movedModule = <T>(side: Side, path: string, before: string): Promise<T> =>
  compiled<T>(side, existsSync(resolve(sides[side], 'dist', 'src', path)) ? path : before);
/** A module of the synthesis pipeline (before: in release-builder). */
const pipeline = <T>(side: Side, file: string, before: string): Promise<T> => movedModule<T>(side, `synthesis/pipeline/${file}`, `release-builder/${before}`);
/** The census reader (before: in adapters/abs). */
const censusReader = (side: Side): Promise<typeof LoadInputs> => movedModule<typeof LoadInputs>(side, 'census-input/load-inputs.js', 'adapters/abs/load-inputs.js');

/** A checkout's load phase: seconds to read the inputs and prepare the level, and the prepared level. */
async function loadPhase(side: Side) {
  const { loadCensusInputs } = await censusReader(side);
  const { prepareLevel } = await pipeline<typeof Level>(side, 'level.js', 'build-release.js');
  const { areaJob } = await pipeline<typeof AreaJob>(side, 'area-job.js', 'build-release.js');
  const started = performance.now();
  const loaded = await loadCensusInputs(values.inputs!, () => {}, { level, allowUnknownHeaders: false });
  if (!loaded.ok) throw new Error(`${side}: the inputs did not load`);
  const prepared = prepareLevel(loaded.value);
  return { seconds: (performance.now() - started) / 1000, prepared, areaJob };
}

function digestOf(outcome: SuburbOutcome): string {
  const hash = createHash('sha256');
  const p = outcome.population;
  for (const a of [p.persons.age, p.persons.dwelling, p.persons.family, p.families.dwelling, ...Object.values(p.persons.variables), ...Object.values(p.families.variables), ...Object.values(p.dwellings.variables)])
    hash.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  for (const part of [outcome.inputs, outcome.realism, outcome.violationsByRule, outcome.diagnostics]) hash.update(JSON.stringify(part));
  return hash.digest('hex');
}

const loads = [loadavg()[0]!];
const baseline = await loadPhase('baseline');
const current = await loadPhase('this');
process.stdout.write(`load phase (${level}, ${current.prepared.inputs.suburbs.length} areas): baseline ${baseline.seconds.toFixed(1)} s, this ${current.seconds.toFixed(1)} s, ratio ${(current.seconds / baseline.seconds).toFixed(3)}\n`);

const run: Record<Side, (job: SuburbJob) => SuburbOutcome> = {
  baseline: (await pipeline<{ runSuburbJob: (job: SuburbJob) => SuburbOutcome }>('baseline', 'run-job.js', 'suburb-job.js')).runSuburbJob,
  this: (await pipeline<{ runSuburbJob: (job: SuburbJob) => SuburbOutcome }>('this', 'run-job.js', 'suburb-job.js')).runSuburbJob,
};
const jobs = current.prepared.inputs.suburbs.flatMap((suburb, i) => (i % Number(values.every) === 0 ? [current.areaJob(current.prepared, suburb, i, { seed: 1, smallSuburbThreshold: 500 }).job] : []));
const cpu: Record<Side, number> = { baseline: 0, this: 0 };
let differing = 0;
let persons = 0;
for (let pass = 0; pass < Number(values.passes); pass++) {
  jobs.forEach((job, k) => {
    const order: Side[] = (k + pass) % 2 === 0 ? ['baseline', 'this'] : ['this', 'baseline'];
    const digests = new Set<string>();
    for (const side of order) {
      const before = process.cpuUsage();
      const outcome = run[side](job);
      const used = process.cpuUsage(before);
      cpu[side] += (used.user + used.system) / 1e6;
      digests.add(digestOf(outcome));
      if (side === 'this' && pass === 0) persons += outcome.population.persons.count;
    }
    if (digests.size > 1) differing++;
  });
  loads.push(loadavg()[0]!);
}
process.stdout.write(
  `synthesis CPU (every ${values.every}th area: ${jobs.length} areas, ${persons.toLocaleString('en-AU')} persons, ${values.passes} passes): baseline ${cpu.baseline.toFixed(1)} s, this ${cpu.this.toFixed(1)} s, ratio ${(cpu.this / cpu.baseline).toFixed(3)}; outcomes differing: ${differing}; load average ${loads.map((l) => l.toFixed(1)).join(' → ')}\n`,
);
if (differing > 0) process.exitCode = 1;
