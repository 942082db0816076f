/**
 * quality.json: what an area's quality page needs of a build that serving cannot recompute from
 * the records (its shape: ports/release-quality.ts QualityFile). Written by the builder beside
 * catalog.json, in the manifest; releases built before it lack it, and their pages say so. No
 * date in it: a release's files are the same for the same inputs and seed (its checksum with
 * them); serving dates the build by its manifest's time.
 */
export const QUALITY_FILE = 'quality.json';
export type { QualityArea, QualityFile } from '../../ports/release-quality.ts';
