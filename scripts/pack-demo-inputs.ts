/**
 * Writes src/demo/inputs.pack.gz: the demo inputs generated for DEMO_SEED at demo scale, packed
 * (src/demo/shipped-inputs.ts). Run it after changing the demo generator:
 *   node bin/run-ts.js scripts/pack-demo-inputs.ts
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDemoInputs } from '../src/demo/generate.ts';
import { packDirectory, SHIPPED_DEMO_INPUTS } from '../src/demo/shipped-inputs.ts';
import { DEMO_SEED } from '../src/release-builder/releases.ts';

const dir = await mkdtemp(join(tmpdir(), 'spq-demo-inputs-'));
try {
  const summary = await generateDemoInputs({ outDir: dir, scale: 'demo', seed: DEMO_SEED });
  const pack = packDirectory(dir);
  await writeFile(SHIPPED_DEMO_INPUTS, pack);
  process.stderr.write(`${SHIPPED_DEMO_INPUTS}: ${summary.files} files, ${summary.suburbs} suburbs, ${(pack.length / 1024).toFixed(0)} KiB\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
