import type { FittedTo } from './dataset.ts';

/**
 * The estimated resident population a release's areas were sized to (spq build --population):
 * its year (30 June), its source in words, and whether it gave totals only or age and sex too.
 */
export interface PopulationBasis {
  readonly year: number;
  readonly source: string;
  readonly breakdown: 'totals' | 'age_sex';
  readonly status?: 'preliminary' | 'revised';
}

/** The estimate in words: "the ABS estimated resident population, 30 June 2023 (preliminary; totals only: ages are the census's)". */
export const populationBasisText = (p: PopulationBasis): string =>
  `the ABS estimated resident population, 30 June ${p.year} (${[...(p.status ? [p.status] : []), p.breakdown === 'age_sex' ? 'by age and sex' : "totals only: ages are the census's"].join('; ')}; ${p.source})`;

/** What a file or response says about the figures its pools were fitted to (and the estimate they were sized to, where one was). */
export const fittedToText = (fittedTo: FittedTo, population?: PopulationBasis): string =>
  fittedTo === 'census'
    ? `census: fitted to the real ABS 2021 Census GCP DataPack tables (based on ABS data, CC BY 4.0)${population ? `, every area sized to ${populationBasisText(population)}, its tables scaled alike` : ''}`
    : 'demo: fitted to made-up demo tables, not to ABS figures; for trying the service, not for analysis';

/** The citation every file carries. */
export const citationOf = (fittedTo: FittedTo, population?: PopulationBasis): string =>
  fittedTo === 'census'
    ? `Synthetic records from spq (Synthetic Population Query service), fitted to ABS 2021 Census tables${population ? ` sized to the ABS estimated resident population of 30 June ${population.year}` : ''} (based on ABS data, CC BY 4.0); not real persons. Cite the pool release version and seed.`
    : 'Synthetic records from spq (Synthetic Population Query service), fitted to made-up demo tables, not to ABS figures; not real persons, not for analysis. Cite the pool release version and seed.';
