/**
 * The release builder, one of spq's two products: ABS inputs (or generated demo inputs) → census
 * tables → synthesis → a pool release on disk. This is its one entry point; the serving side
 * (src/main, src/http, src/app, src/adapters) never imports it. `spq build` uses it, and
 * `spq serve` hands `ensureDemoRelease` to the composition root for a fresh data directory.
 */
export { BuildAborted, BuildInputError, buildImplicate, buildRelease, type BuildSummary } from './build-release.ts';
export { censusVersionOf, completeDemoImplicates, ensureDemoRelease } from './ensure-demo.ts';
export { completeInBackground } from './staged-start.ts';
export { DEMO_SEED, DEMO_VERSION } from './releases.ts';
