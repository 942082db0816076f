import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPerturbationFloor, loadRealismReference, loadTruth } from '../../src/demo/truth-files.ts';
import { writeFixture } from '../census-input/fixtures.ts';

const dirs: string[] = [];
/** Real (non-demo) inputs: a DataPack and the ASGS files, no truth/ directory. */
const fixture = () => {
  const d = writeFixture();
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('loadTruth', () => {
  it('finds no truth in real (non-demo) inputs, and that is not an error: a real build has none', async () => {
    const result = await loadTruth(fixture());
    expect(result.ok && result.value.size).toBe(0);
  });

  it('names the missing file when a truth/ directory lacks one of its tables', async () => {
    const dir = fixture();
    mkdirSync(join(dir, 'truth'));
    const result = await loadTruth(dir);
    expect(!result.ok && result.error.file).toBe('V_AGE_SEX_LFS_SAL.csv');
    expect(!result.ok && result.error.message).toMatch(/truth file is missing/);
  });
});

describe('loadRealismReference', () => {
  it('is undefined without a demo reference, and refuses a file that is not a realism summary', async () => {
    const dir = fixture();
    const none = await loadRealismReference(dir);
    expect(none.ok && none.value).toBeUndefined();
    mkdirSync(join(dir, 'truth'));
    writeFileSync(join(dir, 'truth', 'realism.json'), '{"all": {}}');
    const bad = await loadRealismReference(dir);
    expect(!bad.ok && bad.error.message).toMatch(/not a realism summary/);
  });
});

describe('loadPerturbationFloor', () => {
  it('is undefined without a demo floor, reads the median and 95th percentile, and refuses a file without them', async () => {
    const dir = fixture();
    const none = await loadPerturbationFloor(dir);
    expect(none.ok && none.value).toBeUndefined();
    mkdirSync(join(dir, 'truth'));
    writeFileSync(join(dir, 'truth', 'floor.json'), '{"median": 0.02, "p95": null}');
    const read = await loadPerturbationFloor(dir);
    expect(read.ok && read.value).toEqual({ median: 0.02, p95: null });
    writeFileSync(join(dir, 'truth', 'floor.json'), '{"median": 0.02}');
    const bad = await loadPerturbationFloor(dir);
    expect(!bad.ok && bad.error.message).toMatch(/not a floor summary/);
    writeFileSync(join(dir, 'truth', 'floor.json'), '{');
    const broken = await loadPerturbationFloor(dir);
    expect(!broken.ok && broken.error.message).toMatch(/unreadable/);
  });
});
