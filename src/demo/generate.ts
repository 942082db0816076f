import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INPUT_TABLES, VALIDATION_TABLES } from '../synthesis/census/tables.ts';
import { tabulateCells } from '../synthesis/census/tabulate.ts';
import { STATE_NAMES } from '../core/dataset.ts';
import { ABS_CODE_OF_STATE } from '../census-names.ts';
import { createRng, type Rng } from '../synthesis/synthesizer/rng.ts';
import { csvLine } from '../census-input/csv.ts';
import {
  MB_ALLOCATION,
  MB_ALLOCATION_HEADER,
  RA_ALLOCATION,
  RA_ALLOCATION_HEADER,
  SAL_ALLOCATION,
  SAL_ALLOCATION_HEADER,
  SAL_KEY,
  SAL_LGA_CORRESPONDENCE,
  SAL_LGA_HEADER,
  SAL_POA_CORRESPONDENCE,
  SAL_POA_HEADER,
} from '../census-input/file-names.ts';
import { FLOOR_FILE, REALISM_REFERENCE_FILE, TRUTH_DIR, truthFile } from './truth-files.ts';
import { BufferedFile } from './buffered-file.ts';
import { DemoDataPackWriter } from './datapack-writer.ts';
import { realRemotenessAreas } from '../census-input/asgs-reference.ts';
import { buildDemoGeography, type DemoSuburb } from './geography.ts';
import { areaHash, cellDefinitionHash, perturbCount } from './perturb.ts';
import { drawSuburbPopulation } from './truth-model.ts';
import { createTruthModel, type TruthModel } from './truth-params.ts';
import { createRealismAccumulator } from '../synthesis/quality/realism.ts';
import { quantile, srmse } from '../synthesis/quality/metrics.ts';
import type { TablePlan } from './datapack-plan.ts';

/**
 * The perturbation floor: the hidden truth itself scored (SRMSE) against the input tables it was
 * published as, over every (suburb, table) pair. No synthesizer can know the perturbation, so
 * the build reports this beside its own fit (floor_srmse_median, floor_srmse_p95).
 */
function createFloorAccumulator() {
  /** Per input table: where its fitted cells sit among the written table's columns. */
  const positions = new Map<string, Int32Array>();
  const scores: number[] = [];
  return {
    /** The DataPack writer's view of one table of one suburb: true and published counts per column. */
    observe(plan: TablePlan, truth: Float64Array, published: Float64Array): void {
      const spec = INPUT_TABLES.find((t) => t.id === plan.table);
      if (!spec) return;
      let at = positions.get(spec.id);
      if (!at) {
        const index = new Map(plan.columns.map((c, i) => [c.header, i]));
        positions.set(spec.id, (at = Int32Array.from(spec.cells, (c) => index.get(c.header) ?? -1)));
      }
      if (at.some((i) => i < 0)) return; // a spec cell the plan does not write (none today)
      const score = srmse(Float64Array.from(at, (i) => truth[i]!), Float64Array.from(at, (i) => published[i]!));
      if (score !== undefined) scores.push(score);
    },
    summary: () => ({ pairs: scores.length, median: quantile(scores, 0.5) ?? null, p95: quantile(scores, 0.95) ?? null }),
  };
}

export interface DemoInputOptions {
  readonly outDir: string;
  readonly scale: 'demo' | 'national';
  readonly seed: number;
  /** Number of suburbs (default: 300 for demo, 15,000 for national); small values for tests. */
  readonly suburbs?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface DemoInputSummary {
  readonly suburbs: number;
  readonly persons: number;
  readonly files: number;
}

const ASGS_DIR = 'asgs';
/** The layout of the unzipped ABS DataPack, so the demo directory looks like the real thing. */
const GCP_DIR = join('2021 Census GCP Suburbs and Localities for AUS', 'SAL', 'AUS');

/** The real Remoteness Areas by RA_CODE_2021 (state digit + class: "34" Very Remote Australia in Queensland). */
let raNames: Map<string, string> | undefined;
function raName(code: string): string {
  raNames ??= new Map(realRemotenessAreas().map((r) => [r.code, r.name]));
  const name = raNames.get(code);
  if (name === undefined) throw new Error(`demo geography: no Remoteness Area ${code} in the ABS list`);
  return name;
}

function writeAsgs(dir: string, suburbs: readonly DemoSuburb[]): number {
  const mb = [csvLine(MB_ALLOCATION_HEADER)];
  const sal = [csvLine(SAL_ALLOCATION_HEADER)];
  const ra = [csvLine(RA_ALLOCATION_HEADER)];
  const poa = [csvLine(SAL_POA_HEADER)];
  const lga = [csvLine(SAL_LGA_HEADER)];
  let sa1Next = 0;
  for (const s of suburbs) {
    const stateCode = ABS_CODE_OF_STATE[s.state];
    const bare = s.salCode.slice(3);
    // The SAL's real area, shared evenly by its (made-up) mesh blocks.
    const mbArea = (s.areaSqkm / s.meshBlocks.length).toFixed(4);
    s.meshBlocks.forEach((m) => {
      // One made-up SA1 per mesh block (11 digits, state first), so each SA1 has one RA.
      const sa1 = `${stateCode}${String(sa1Next++).padStart(10, '0')}`;
      mb.push(
        csvLine([
          m, 'Residential', '0', 'No change', sa1, sa1.slice(0, 9), `${s.name} (SA2)`, sa1.slice(0, 5), 'Made-up SA3',
          sa1.slice(0, 3), 'Made-up SA4', s.gccsaCode, s.gccsaName, stateCode, STATE_NAMES[s.state], 'AUS', 'Australia',
          mbArea, `http://linked.data.gov.au/dataset/asgsed3/MB/${m}`,
        ]),
      );
      sal.push(csvLine([m, bare, s.absName, stateCode, STATE_NAMES[s.state], 'AUS', 'Australia', mbArea, `http://linked.data.gov.au/dataset/asgsed3/SAL/${bare}`]));
      const raCode = `${stateCode}${s.remoteness}`;
      ra.push(csvLine([sa1, raCode, raName(raCode), stateCode, STATE_NAMES[s.state], 'AUS', 'Australia', mbArea, `http://linked.data.gov.au/dataset/asgsed3/RA/${raCode}`]));
    });
    for (const p of s.postcodes) poa.push(csvLine([bare, s.absName, p.code, p.code, p.ratio, '', 'Good', '']));
    for (const l of s.lgas) lga.push(csvLine([bare, s.absName, l.code.slice(3), l.name, l.ratio, '', 'Good', '']));
  }
  writeFileSync(join(dir, MB_ALLOCATION), mb.join(''));
  writeFileSync(join(dir, SAL_ALLOCATION), sal.join(''));
  writeFileSync(join(dir, RA_ALLOCATION), ra.join(''));
  writeFileSync(join(dir, SAL_POA_CORRESPONDENCE), poa.join(''));
  writeFileSync(join(dir, SAL_LGA_CORRESPONDENCE), lga.join(''));
  return 5;
}

const README = (scale: string, seed: number, suburbs: number, persons: number) => `spq demo inputs (scale ${scale}, seed ${seed})

THE FIGURES ARE MADE UP; THE CODES AND NAMES ARE REAL. Every SAL (suburb and locality) code,
SAL name and SAL area, every LGA code and name, postcode (POA) code and Remoteness Area code and
name is a real one from the ABS 2021 geography descriptors (ASGS Edition 3). Based on ABS data;
licensed CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/). Which postcodes and LGAs a
SAL falls in (RATIO_FROM_TO) and its GCCSA are real too where the ABS 2016 correspondences link
it (matched to 2021's suburbs by name and state; src/census-input/reference/sal-links-2021.csv).
What joins them otherwise is invented: the links of the few suburbs the correspondences do not
link, the mesh blocks and their SA1-SA4 codes, which Remoteness Area a SAL lies in, and every
population, count and table value,
drawn by \`spq demo-inputs\` from a random model. No figure here describes a real place. The
model is calibrated to the real 2021 Census tables of Australia's states (ages, households and
families, marital status, labour force and incomes by age and sex; based on ABS data), so that
a state's suburbs together look like that state; each suburb's own figures are invented.

The files have the layout of the real ABS inputs, so the loaders that read real data read these:
  asgs/   ASGS Edition 3 allocation files (MB_2021_AUST.csv, SAL_2021_AUST.csv,
          RA_2021_AUST.csv) and correspondences (CG_SAL_2021_POA_2021.csv, CG_SAL_2021_LGA_2021.csv)
  ${GCP_DIR}/
          the 2021 Census GCP DataPack at SAL level, one file per real part file
          (2021Census_G01_AUST_SAL.csv …), each with exactly the real header row of the ABS
          metadata; columns spq has a variable for are tabulated from the hidden truth, the
          others (ancestry, single countries and languages, health conditions, …) are filled
          so that they add up to their totals. Perturbed the way the ABS perturbs (small
          adjustments; 1s and 2s often zeroed; totals perturbed separately, so tables do not
          add up). G02's medians and averages are computed from the truth.
  truth/  the hidden truth's two- and three-way cross-tabulations (not perturbed), for
          validating a synthesizer on questions it was never given, and realism.json: the
          truth's own realism figures and an oracle's (a second draw of the truth model),
          the reference columns of the build report's realism section

${suburbs} suburbs, ${persons} persons in the hidden truth.
`;

/**
 * Writes a complete demo input set: a hidden truth population per suburb, tabulated into every
 * input table and perturbed, plus the truth's validation tables. Deterministic: the same options
 * give the same bytes. Streams suburb by suburb, so national scale needs little memory.
 */
export async function generateDemoInputs(opts: DemoInputOptions): Promise<DemoInputSummary> {
  const geography = buildDemoGeography(opts.scale, opts.seed, opts.suburbs);
  const asgsDir = join(opts.outDir, ASGS_DIR);
  const gcpDir = join(opts.outDir, GCP_DIR);
  const truthDir = join(opts.outDir, TRUTH_DIR);
  for (const d of [asgsDir, gcpDir, truthDir]) mkdirSync(d, { recursive: true });

  let files = writeAsgs(asgsDir, geography.suburbs);
  const dataPack = new DemoDataPackWriter(gcpDir);
  const truth = VALIDATION_TABLES.map((spec) => {
    const file = new BufferedFile(join(truthDir, truthFile(spec.id)));
    file.write(csvLine([SAL_KEY, ...spec.cells.map((c) => c.header)]));
    return { spec, file };
  });
  files += dataPack.fileCount + truth.length;

  const base = createRng(opts.seed);
  const model = createTruthModel(geography.suburbs);
  const realism = createRealismAccumulator();
  const floor = createFloorAccumulator();
  let persons = 0;
  const total = geography.suburbs.length;
  for (const suburb of geography.suburbs) {
    const pop = drawTruth(base, suburb, model);
    persons += pop.persons.count;
    // The build report's reference: the truth's own realism, and an oracle's (another draw).
    realism.add({ synthetic: pop, truth: pop, oracle: drawOracle(base, suburb, model) });
    const area = areaHash(suburb.salCode, opts.seed);
    dataPack.write(suburb.salCode, pop, area, floor.observe);
    for (const v of truth) {
      const counts = tabulateCells(pop, v.spec.universe, v.spec.cells);
      v.file.write(`${suburb.salCode},${Array.from(counts).join(',')}\n`);
    }
    opts.onProgress?.(suburb.index + 1, total);
    // Let timers (progress redraws, signals) run now and then during long national runs.
    if (suburb.index % 200 === 199) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  dataPack.close();
  for (const v of truth) v.file.close();
  writeFileSync(join(truthDir, REALISM_REFERENCE_FILE), `${JSON.stringify(realism.summary())}\n`);
  writeFileSync(join(truthDir, FLOOR_FILE), `${JSON.stringify(floor.summary())}\n`);
  files += 1;
  files += 1;
  writeFileSync(join(opts.outDir, 'README.txt'), README(opts.scale, opts.seed, total, persons));
  files += 1;
  return { suburbs: total, persons, files };
}

/**
 * The hidden truth of one suburb: the same draw for the input files, for the floor below and
 * for benches that redraw it (with the model of the same geography, createTruthModel).
 */
export const drawTruth = (base: Rng, suburb: DemoSuburb, model: TruthModel) => drawSuburbPopulation(suburb, base.fork(1000 + suburb.index), model);

/** The oracle's stream: far from the truth's (fork(1000 + index)). */
export const ORACLE_STREAM = 7_000_000;
/** A second, independent draw of the truth model for the suburb: as close as any synthesizer can come to the truth. */
export const drawOracle = (base: Rng, suburb: DemoSuburb, model: TruthModel) => drawSuburbPopulation(suburb, base.fork(ORACLE_STREAM + suburb.index), model);

export interface TruthInputTables {
  readonly salCode: string;
  /** Persons in the hidden truth. */
  readonly persons: number;
  /** Input table id → the truth's counts in spec order (`spec.cells`), before perturbation. */
  readonly truth: ReadonlyMap<string, Float64Array>;
  /** The same cells as the demo input files publish them (perturbed). */
  readonly published: ReadonlyMap<string, Float64Array>;
}

/**
 * The hidden truth tabulated into every input table, next to the published (perturbed)
 * counts, suburb by suburb, for the same options as generateDemoInputs. The truth itself
 * scores imperfectly against what was published: that SRMSE is the perturbation floor any
 * synthesizer is measured against (bench/synthesis.ts). Regenerates the truth (nothing is
 * read from disk), so it costs about as much as writing the inputs.
 */
export function* demoTruthInputTables(opts: Pick<DemoInputOptions, 'scale' | 'seed' | 'suburbs'>): Generator<TruthInputTables> {
  const geography = buildDemoGeography(opts.scale, opts.seed, opts.suburbs);
  const base = createRng(opts.seed);
  const model = createTruthModel(geography.suburbs);
  const hashes = INPUT_TABLES.map((spec) => Uint32Array.from(spec.cells.map((c) => cellDefinitionHash(spec.universe, c))));
  for (const suburb of geography.suburbs) {
    const pop = drawTruth(base, suburb, model);
    const area = areaHash(suburb.salCode, opts.seed);
    const truth = new Map<string, Float64Array>();
    const published = new Map<string, Float64Array>();
    INPUT_TABLES.forEach((spec, t) => {
      const counts = tabulateCells(pop, spec.universe, spec.cells);
      truth.set(spec.id, counts);
      published.set(spec.id, Float64Array.from(counts, (count, i) => perturbCount(count, hashes[t]![i]!, area)));
    });
    yield { salCode: suburb.salCode, persons: pop.persons.count, truth, published };
  }
}
