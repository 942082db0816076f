import type { FittedTo } from './dataset.ts';

/** What a file or response says about the figures its pools were fitted to. */
export const fittedToText = (fittedTo: FittedTo): string =>
  fittedTo === 'census'
    ? 'census: fitted to the real ABS 2021 Census GCP DataPack tables (based on ABS data, CC BY 4.0)'
    : 'demo: fitted to made-up demo tables, not to ABS figures; for trying the service, not for analysis';

/** The citation every file carries. */
export const citationOf = (fittedTo: FittedTo): string =>
  fittedTo === 'census'
    ? 'Synthetic records from spq (Synthetic Population Query service), fitted to ABS 2021 Census tables (based on ABS data, CC BY 4.0); not real persons. Cite the pool release version and seed.'
    : 'Synthetic records from spq (Synthetic Population Query service), fitted to made-up demo tables, not to ABS figures; not real persons, not for analysis. Cite the pool release version and seed.';
