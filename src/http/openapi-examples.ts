/**
 * One worked example per operation (request and main responses), as a client sees them; the
 * OpenAPI linter checks each against its schema (test/docs/openapi-lint.test.ts). Figures are
 * illustrative, shaped like the demo release's.
 */
const query = {
  geography_level: 'suburb',
  geography_selections: ['Richmond (VIC)', 'Fitzroy'],
  dataset_type: 'persons',
  n_observations: 500,
  output_format: 'parquet',
  include_geography: 'none',
};
const metadata = { ...query, version: '2021.1', fitted_to: 'census', generated_at: '2026-11-24T09:30:00.000Z', seed: '12297829382473034410' };
const historyItem = {
  query_id: 'qry_01JDQ2V3F8X4N6P7R9S2T5W8Y1',
  executed_at: '2026-11-24T09:30:00.000Z',
  dataset_type: 'persons',
  geography_selections: ['Richmond (VIC)', 'Fitzroy'],
  n_observations: 500,
  credit_cost: 2,
  download_url: 'https://spq.example.org/downloads/eyJrIjoi…/spq-qry_01JDQ2V3F8X4N6P7R9S2T5W8Y1-persons.parquet',
  download_expired: false,
};

/** operationId → request body example and response examples by status. */
/** Two variables as the codebook gives them (abridged from the real catalogue). */
const HSCP = {
  code: 'HSCP',
  description: 'Highest year of school completed',
  measurement: 'ordinal',
  categories: ['Did not go to school', 'Year 8 or below', 'Year 9 or equivalent', 'Year 10 or equivalent', 'Year 11 or equivalent', 'Year 12 or equivalent', 'Not stated', 'Not applicable'],
  missing: { not_applicable: ['Not applicable'], non_response: ['Not stated'], partial_response: [] },
  coarse_categories: ['Year 11 or below', 'Year 12 or equivalent', 'Not stated', 'Not applicable'],
};
const SEXP = { code: 'SEXP', description: 'Sex', measurement: 'nominal', categories: ['Male', 'Female'], missing: { not_applicable: [], non_response: [], partial_response: [] } };

export const OPERATION_EXAMPLES: Readonly<Record<string, { readonly request?: unknown; readonly responses: Readonly<Record<string, unknown>> }>> = {
  previewQuery: {
    request: query,
    responses: {
      '200': {
        valid: true,
        n_observations: 500,
        credit_cost: 2,
        pool_available: 63970,
        geography_matches: [
          { suburb_id: 'Richmond (VIC)', pool_size: 28420, small_suburb_flag: false, quality_url: '/quality/areas/suburb/Richmond%20(VIC)' },
          { suburb_id: 'Fitzroy', pool_size: 35550, small_suburb_flag: false, quality_url: '/quality/areas/suburb/Fitzroy' },
        ],
        warnings: [],
      },
      '422': { valid: false, detail: 'No suburb "Richmnd (VIC)". Did you mean "Richmond (VIC)"?', geography_matches: [] },
    },
  },
  executeQuery: {
    request: query,
    responses: {
      '200': {
        query_id: historyItem.query_id,
        status: 'completed',
        credit_cost: 2,
        credits_remaining: 3,
        download_url: historyItem.download_url,
        download_expires: '2026-12-01T09:30:00.000Z',
        metadata,
      },
      '402': { detail: 'This query costs 2 credits; the account has 1 available.', credits_remaining: 1 },
    },
  },
  listQueries: { responses: { '200': { queries: [historyItem], pagination: { page: 1, per_page: 20, total_pages: 1, total_queries: 1 } } } },
  getQuery: { responses: { '200': historyItem, '404': { error: 'not_found', detail: 'No query "qry_01JDQ2V3F8X4N6P7R9S2T5W8Y2" in this account\'s history.' } } },
  getCredits: {
    responses: {
      '200': { credits_remaining: 5, tier: 'free', credits_purchased: 0, credits_used: 12, free_credits_remaining: 5, free_credits_reset: '2026-11-30T00:00:00+11:00' },
    },
  },
  getBundles: {
    responses: {
      '200': {
        bundles: [
          { bundle_id: 'starter', name: 'Starter', credits: 100, paid_days: 30, price: 2500, currency: 'aud', tax_note: 'GST included' },
          { bundle_id: 'research', name: 'Research', credits: 500, paid_days: 90, price: 10000, currency: 'aud', tax_note: 'GST included' },
        ],
        purchase: 'checkout',
        buy_url: 'https://spq.example.org/console/buy',
      },
    },
  },
  searchGeography: {
    responses: {
      '200': {
        results: [
          {
            suburb_id: 'Richmond (VIC)',
            code: 'SAL22170',
            state: 'VIC',
            postcode: '3121',
            lga: 'Yarra',
            gccsa: 'Greater Melbourne',
            postcodes: ['3121'],
            lgas: ['Yarra'],
            pool_size: 28420,
            small_suburb_flag: false,
            fitted_to: 'census',
            datasets_available: ['persons', 'families', 'dwellings'],
            pool_sizes: { persons: 28420, families: 6510, dwellings: 14210 },
            quality_url: '/quality/areas/suburb/Richmond%20(VIC)',
          },
        ],
        total_matches: 1,
      },
    },
  },
  listVariables: {
    responses: {
      '200': {
        suburb_id: 'Richmond (VIC)',
        geography_level: 'suburb',
        dataset_type: 'persons',
        version: 'demo-2021.1',
        fitted_to: 'demo',
        variables: [{ ...HSCP, n_categories: 8, coarse_areas: 0 }, { ...SEXP, n_categories: 2, coarse_areas: 0 }],
      },
    },
  },
  getCodebook: { responses: { '200': { version: 'demo-2021.1', fitted_to: 'demo', datasets: { persons: [HSCP, SEXP] } } } },
  getLiveness: { responses: { '200': { status: 'ok' } } },
  getReadiness: {
    responses: {
      '200': {
        status: 'ready',
        checks: { database: true, rate_limiter: true, pool_release: true, io_pool: true },
        version: 'demo-2021.1',
        checksum: '56ac578c15f39470593e1a841b4064df07cc76fbdc3b5239288c88ac95471634',
      },
    },
  },
};
