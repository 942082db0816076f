/**
 * Small census inputs for the pipeline's tests, made in memory: demo suburbs' hidden truths drawn
 * and tabulated into every input table (cells, subtotals, totals) as a loader would hand them
 * over, unperturbed, so a test knows what each area publishes.
 */
import type { CensusInputs, SuburbGeography } from '../../../src/synthesis/census/inputs.ts';
import type { Population } from '../../../src/synthesis/census/population.ts';
import { INPUT_TABLES } from '../../../src/synthesis/census/tables.ts';
import { tabulate, tabulateCells } from '../../../src/synthesis/census/tabulate.ts';
import { createRng } from '../../../src/synthesis/synthesizer/rng.ts';
import { buildDemoGeography, type DemoSuburb } from '../../../src/demo/geography.ts';
import { drawSuburbPopulation } from '../../../src/demo/truth-model.ts';

/** A demo suburb as a loader describes an area. */
export function areaOf(suburb: DemoSuburb, lgaCode = suburb.lgas[0]!.code): SuburbGeography {
  return {
    level: 'sal',
    salCode: suburb.salCode,
    absName: suburb.absName,
    name: suburb.name,
    suburbId: `${suburb.name} (${suburb.state})`,
    state: suburb.state,
    postcodes: [...suburb.postcodes],
    lgas: [...suburb.lgas],
    postcode: suburb.postcodes[0]!.code,
    lgaCode,
    lgaName: suburb.lgas[0]!.name,
    gccsa: suburb.gccsaName,
    remoteness: suburb.remoteness,
    areaSqkm: suburb.areaSqkm,
  };
}

type ByArea<T> = Map<string, Map<string, T>>;

const put = <T>(into: ByArea<T>, tableId: string, code: string, value: T) => {
  if (!into.has(tableId)) into.set(tableId, new Map());
  into.get(tableId)!.set(code, value);
};

/** Every input table of each area's population, as published when the census adds no noise. */
export function inputsOf(areas: readonly { readonly area: SuburbGeography; readonly population: Population }[]): CensusInputs {
  const tables: ByArea<Float64Array> = new Map();
  const totals: ByArea<number> = new Map();
  const aggregates: ByArea<Float64Array> = new Map();
  for (const { area, population } of areas) {
    for (const spec of INPUT_TABLES) {
      const subtotals = tabulateCells(population, spec.universe, spec.otherCells, spec.population.members);
      put(tables, spec.id, area.salCode, tabulate(population, spec));
      put(aggregates, spec.id, area.salCode, subtotals);
      const at = spec.totalHeader === undefined ? -1 : spec.otherHeaders.indexOf(spec.totalHeader);
      if (at >= 0) put(totals, spec.id, area.salCode, subtotals[at]!);
    }
  }
  return { level: 'sal', suburbs: areas.map((a) => a.area), tables, totals, aggregates, parents: { states: new Map(), australia: undefined } };
}

/** The first `count` demo suburbs with their hidden truths, and the inputs they would publish. */
export function demoInputs(count: number, seed = 3): { readonly inputs: CensusInputs; readonly truths: ReadonlyMap<string, Population> } {
  const suburbs = buildDemoGeography('demo', seed, count).suburbs;
  const areas = suburbs.map((suburb, i) => ({ area: areaOf(suburb), population: drawSuburbPopulation(suburb, createRng(seed).fork(10 + i)) }));
  return { inputs: inputsOf(areas), truths: new Map(areas.map((a) => [a.area.salCode, a.population])) };
}
