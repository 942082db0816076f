import { describe, expect, it } from 'vitest';
import { createTaskPool } from '../../src/release-builder/task-pool.ts';
import type { BandStrengths, StrengthRequest } from '../../src/synthesis/pipeline/borrowing.ts';
import { prepareLevel, withBorrowing, withBorrowingBy } from '../../src/synthesis/pipeline/level.ts';
import { demoInputs } from '../synthesis/pipeline/fixture.ts';

describe('borrowing strengths chosen on worker threads (issue 42: beside the loading of the next level)', () => {
  it('are exactly those chosen inline, table by table', async () => {
    const level = prepareLevel(demoInputs(6).inputs);
    const inline = withBorrowing(level, 1000).borrowing!;
    const pool = createTaskPool<StrengthRequest, BandStrengths | undefined>(2, 'strength-worker');
    try {
      const onThreads = (await withBorrowingBy((task) => pool.run(() => ({ tableId: task.tableId, areas: task.areas() })), level, 1000)).borrowing!;
      expect(inline.size).toBeGreaterThan(5);
      expect([...onThreads.keys()]).toEqual([...inline.keys()]);
      expect(onThreads).toEqual(inline);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('fail the task, not the build silently, when a table is unknown', async () => {
    const pool = createTaskPool<StrengthRequest, BandStrengths | undefined>(1, 'strength-worker');
    try {
      await expect(pool.run(() => ({ tableId: 'G999', areas: [] }))).rejects.toThrow(/no input table G999/);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
