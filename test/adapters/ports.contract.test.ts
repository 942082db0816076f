/**
 * The contract suites of the small ports (issue 14, item 3), run on the real adapter and on the
 * fake that stands in for it in unit tests: a fake that passes the same suite can be trusted.
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cryptoRandomness } from '../../src/adapters/randomness/crypto.ts';
import { seededRandomness } from '../../src/adapters/randomness/seeded.ts';
import { localScratch } from '../../src/adapters/scratch/local.ts';
import { isId } from '../../src/core/keys.ts';
import { systemClock, type Clock } from '../../src/ports/clock.ts';
import type { Randomness } from '../../src/ports/randomness.ts';
import type { ScratchSpace } from '../../src/ports/scratch.ts';
import { memoryScratch } from '../fakes/scratch.ts';
import { TestClock } from '../http/harness.ts';

function randomnessContract(name: string, make: () => Randomness) {
  describe(`Randomness contract: ${name}`, () => {
    it('ids have the documented shape and never repeat; seeds are 64-bit and vary', () => {
      const r = make();
      const ids = Array.from({ length: 2000 }, () => r.id('qry'));
      for (const id of ids) expect(isId('qry', id), id).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      expect(isId('ins', r.id('ins'))).toBe(true);
      const seeds = Array.from({ length: 200 }, () => r.seed());
      for (const s of seeds) expect(s >= 0n && s < 1n << 64n).toBe(true);
      expect(new Set(seeds).size).toBe(seeds.length);
    });
  });
}

function scratchContract(name: string, make: () => Promise<ScratchSpace>) {
  describe(`ScratchSpace contract: ${name}`, () => {
    it('gives one path per name, refuses names that are paths, and removes idempotently', async () => {
      const s = await make();
      const a = await s.file('qry_a.csv');
      const b = await s.file('qry_b.parquet');
      expect(a).not.toBe(b);
      expect(a.endsWith('qry_a.csv')).toBe(true);
      for (const bad of ['../x', 'a/b', '..', '.', '', 'a\\b']) await expect(s.file(bad), bad).rejects.toThrow();
      await s.remove(a);
      await s.remove(a);
      await s.remove(b);
    });
  });
}

function clockContract(name: string, make: () => Clock) {
  describe(`Clock contract: ${name}`, () => {
    it('answers a valid Date that does not go backwards', () => {
      const c = make();
      const first = c.now().getTime();
      expect(Number.isFinite(first)).toBe(true);
      expect(c.now().getTime()).toBeGreaterThanOrEqual(first);
    });
  });
}

randomnessContract('crypto (production)', () => cryptoRandomness);
randomnessContract('seeded (tests)', () => seededRandomness(42));
clockContract('system (production)', () => systemClock);
clockContract('TestClock (tests)', () => new TestClock(Date.parse('2026-11-24T00:00:00Z')));

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
scratchContract('local directory (production)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'spq-scratch-'));
  dirs.push(dir);
  return localScratch(join(dir, 'tmp', 'ins_x'));
});
scratchContract('memory (tests)', async () => memoryScratch());

describe('the seeded fake', () => {
  it('repeats its sequence for the same seed, so a test knows the ids it will see', () => {
    const [a, b] = [seededRandomness(7), seededRandomness(7)];
    expect([a.id('qry'), a.seed(), a.id('qry')]).toEqual([b.id('qry'), b.seed(), b.id('qry')]);
    expect(seededRandomness(8).id('qry')).not.toBe(seededRandomness(7).id('qry'));
  });
});

describe('the local scratch directory', () => {
  it('exists with mode 0700 once a path is handed out, and is made again if removed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spq-scratch-'));
    dirs.push(dir);
    const scratch = localScratch(join(dir, 'tmp', 'ins_y'));
    const path = await scratch.file('qry_c.csv');
    await writeFile(path, 'x');
    expect((await stat(join(dir, 'tmp', 'ins_y'))).mode & 0o777).toBe(0o700);
    await rm(join(dir, 'tmp'), { recursive: true });
    await writeFile(await scratch.file('qry_d.csv'), 'y');
  });
});
