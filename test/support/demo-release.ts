/**
 * The demo release as `npm start` builds it (the shipped demo inputs, DEMO_SEED, suburbs, small under 500 persons as SPQ_SMALL_SUBURB_THRESHOLD's default), built
 * once per test file into a temporary directory: what the quality pages' tests read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHIPPED_DEMO_INPUTS, unpackInto } from '../../src/demo/shipped-inputs.ts';
import { buildRelease, type BuildSummary } from '../../src/release-builder/build-release.ts';
import { DEMO_SEED, DEMO_VERSION } from '../../src/release-builder/releases.ts';

export interface DemoRelease {
  readonly inputsDir: string;
  readonly releaseDir: string;
  readonly summary: BuildSummary;
  /** Removes what buildDemoRelease made (its temporary directory; a given root is left alone). */
  remove(): Promise<void>;
}

/** Builds the demo release under `root` (a fresh temporary directory by default), on one thread. */
export async function buildDemoRelease(root?: string): Promise<DemoRelease> {
  const dir = root ?? (await mkdtemp(join(tmpdir(), 'spq-demo-release-')));
  const inputsDir = join(dir, 'demo-inputs');
  if (!existsSync(join(inputsDir, 'README.txt'))) unpackInto(readFileSync(SHIPPED_DEMO_INPUTS), inputsDir);
  const summary = await buildRelease({ inputsDir, poolsDir: join(dir, 'pools'), version: DEMO_VERSION, seed: DEMO_SEED, levels: ['sal'], smallSuburbThreshold: 500, threads: 1, sqlCopy: true });
  return { inputsDir, releaseDir: summary.dir, summary, remove: () => (root === undefined ? rm(dir, { recursive: true, force: true }) : Promise.resolve()) };
}
