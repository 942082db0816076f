import type { AreaLevel, CensusInputs, InputError } from '../synthesis/census/inputs.ts';
import type { PopulationEstimate } from '../synthesis/census/population-estimate.ts';
import { STATE_BY_ABS_CODE } from '../census-names.ts';
import type { InputIndex } from '../census-input/file-index.ts';
import { readPopulationEstimates } from '../census-input/population-estimates.ts';
import { areaSa2Shares, loadPopulationLinks, type AreaSa2Shares } from '../census-input/population-links.ts';
import { err, ok, type Result } from '../core/result.ts';
import { sa2Factors, scaleInputs, sizeLevel, stateTotals, type LevelSizing, type StateTotals } from '../synthesis/pipeline/population.ts';

/** What every level of a build sized to an estimate shares: the estimate, the SA2s' and states' factors, each area's SA2 links. */
export interface Sizing {
  readonly estimate: PopulationEstimate;
  readonly factors: ReadonlyMap<string, number>;
  readonly byState: ReadonlyMap<string, StateTotals>;
  readonly linksOf: (area: CensusInputs['suburbs'][number]) => AreaSa2Shares;
  readonly file: string;
  readonly notes: readonly string[];
}

/** The estimate and each level's sizes, for the report, the summary and the catalog. */
export interface PreparedPopulation {
  readonly estimate: PopulationEstimate;
  readonly byLevel: ReadonlyMap<AreaLevel, LevelSizing>;
  readonly notes: readonly string[];
}

/** The estimate read, and the census counts and correspondences its change is carried through. */
export async function loadSizing(population: { readonly file: string; readonly year?: number }, index: InputIndex): Promise<Result<Sizing, InputError[]>> {
  const estimate = await readPopulationEstimates(population.file, population.year);
  if (!estimate.ok) return estimate;
  const links = await loadPopulationLinks(index);
  if (!links.ok) return links;
  const census = links.value.sa2Census;
  const stateOf = (sa2: string) => STATE_BY_ABS_CODE[sa2.slice(0, 1)];
  const factors = sa2Factors(estimate.value, census);
  if (factors.size === 0)
    return err([{ file: population.file, message: census ? 'no SA2 of the estimate has a census count in the inputs\' SA2 DataPack' : 'the inputs hold no SA2 DataPack G01 and the estimate no 2021 column: nothing to set the estimate against' }]);
  return ok({
    estimate: estimate.value,
    factors,
    byState: stateTotals(estimate.value, census, stateOf),
    linksOf: areaSa2Shares(links.value),
    file: population.file,
    notes: links.value.notes,
  });
}

/** One level's areas sized and its tables scaled. */
export function sizeLevelInputs(inputs: CensusInputs, sizing: Sizing): { inputs: CensusInputs; sizing: LevelSizing; problems: InputError[] } {
  const { sizes, problems } = sizeLevel(inputs, sizing.estimate, sizing.factors, sizing.byState, sizing.linksOf, sizing.file);
  return { inputs: problems.length > 0 ? inputs : scaleInputs(inputs, sizes), sizing: sizes, problems };
}
