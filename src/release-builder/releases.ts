/** The demo release `spq serve` builds on a fresh data directory, and `spq build` by default. */
export const DEMO_VERSION = 'demo-2021.1';
export const DEMO_SEED = 20210810; // Census night, 10 August 2021
