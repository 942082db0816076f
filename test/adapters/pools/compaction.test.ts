import { afterEach, describe, expect, it, vi } from 'vitest';
import { Compactor } from '../../../src/adapters/pools/compaction.ts';

describe('Compactor: a memory-reducing collection once the work in flight has ended', () => {
  afterEach(() => vi.useRealTimers());

  it('collects once, a delay after the last of overlapping work ends, never while work runs', () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const make = vi.fn(() => collect);
    const c = new Compactor(make, 100);
    const endA = c.begin();
    const endB = c.begin();
    endA();
    vi.advanceTimersByTime(500);
    expect(collect).not.toHaveBeenCalled(); // B still runs
    endB();
    endB(); // ending twice counts once
    vi.advanceTimersByTime(99);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(make).toHaveBeenCalledTimes(1);
  });

  it('work begun within the delay puts the collection off until it ends', () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const c = new Compactor(() => collect, 100);
    c.soon();
    vi.advanceTimersByTime(50);
    const end = c.begin();
    vi.advanceTimersByTime(1000);
    expect(collect).not.toHaveBeenCalled();
    end();
    vi.advanceTimersByTime(100);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('the real collection runs and leaves no gc on the global object', async () => {
    const c = new Compactor(undefined, 0);
    c.soon();
    await new Promise((done) => setTimeout(done, 20));
    if (!process.execArgv.includes('--expose-gc')) expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
