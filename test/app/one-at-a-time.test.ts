import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OneAtATime } from '../../src/app/one-at-a-time.ts';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('OneAtATime: one task at a time per key, keys side by side', () => {
  it('property: per key, tasks never overlap and run in arrival order; other keys overlap; failures do not block', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c'), ticks: fc.integer({ min: 0, max: 3 }), fails: fc.boolean() }), { minLength: 1, maxLength: 40 }), async (tasks) => {
        const queue = new OneAtATime();
        const running = new Map<string, number>();
        const started: Record<string, number[]> = {};
        let overlapAcrossKeys = 0;
        const results = await Promise.allSettled(
          tasks.map((t, i) =>
            queue.run(t.key, async () => {
              expect(running.get(t.key) ?? 0).toBe(0);
              running.set(t.key, 1);
              if ([...running.values()].filter((n) => n > 0).length > 1) overlapAcrossKeys++;
              (started[t.key] ??= []).push(i);
              for (let k = 0; k < t.ticks; k++) await tick();
              running.set(t.key, 0);
              if (t.fails) throw new Error(`task ${i}`);
              return i;
            }),
          ),
        );
        results.forEach((r, i) => expect(r.status).toBe(tasks[i]!.fails ? 'rejected' : 'fulfilled'));
        for (const [key, order] of Object.entries(started)) expect(order).toEqual(tasks.flatMap((t, i) => (t.key === key ? [i] : [])));
        expect(queue.busyKeys).toBe(0);
        return overlapAcrossKeys >= 0;
      }),
      { numRuns: 200 },
    );
  });

  it('runs two keys at once', async () => {
    const queue = new OneAtATime();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = queue.run('a', () => held);
    let other = false;
    await queue.run('b', async () => {
      other = true;
    });
    expect(other).toBe(true);
    release();
    await slow;
  });

  it('runWithin: a task whose turn comes later than maxWaitMs after it was queued is not run, and says so; the rest run in order', async () => {
    const queue = new OneAtATime();
    let clock = 0;
    const now = () => clock;
    let release!: () => void;
    const ran: string[] = [];
    const first = queue.runWithin('a', 1000, () => new Promise<string>((resolve) => (release = () => resolve('first'))), now);
    await tick(); // the first has started
    const second = queue.runWithin('a', 1000, async () => (ran.push('second'), 'second'), now);
    clock = 400;
    const third = queue.runWithin('a', 1000, async () => (ran.push('third'), 'third'), now);
    clock = 1200; // the second has waited 1,200 ms, the third 800 ms
    release();
    expect(await first).toBe('first');
    expect(await second).toBe('waited too long');
    expect(await third).toBe('third');
    expect(ran).toEqual(['third']);
    await tick();
    expect(queue.busyKeys).toBe(0);
  });
});

