/**
 * The switchable served release (src/adapters/pools/switchable.ts): every call goes to the release
 * serving now; a query's `current()` keeps the release it took through a switch; a level being
 * built is named in resolve's failure, with the seconds left; close closes every release served.
 */
import { describe, expect, it } from 'vitest';
import { switchableRelease } from '../../../src/adapters/pools/switchable.ts';
import { withServedRelease } from '../../../src/app/served-release.ts';
import { err, ok } from '../../../src/core/result.ts';
import type { GeographyLevel } from '../../../src/core/dataset.ts';
import type { PoolRelease, ResolvedSelection } from '../../../src/ports/pool-release.ts';

/** A stand-in release serving `levels`: what the switchable reads of it, and whether it was closed. */
function standIn(version: string, levels: readonly GeographyLevel[]) {
  const state = { closed: false };
  const pools = {
    version,
    checksum: `sum-${version}`,
    fittedTo: 'census',
    levels,
    resolve: (level: GeographyLevel, input: string) =>
      levels.includes(level) ? ok({ level, input, canonical: input, suburbs: [] } as ResolvedSelection) : err({ kind: 'unavailable' as const, held: levels }),
    search: () => ({ results: [], total: 0 }),
    close: async () => {
      state.closed = true;
    },
  } as unknown as PoolRelease;
  return { pools, state };
}

describe('a switchable served release', () => {
  it('serves the new release to every call after a switch; a query keeps the one it took', () => {
    const first = standIn('r-poa-first', ['postcode', 'state', 'australia']);
    const complete = standIn('r', ['suburb', 'postcode', 'sa2', 'state', 'australia']);
    const served = switchableRelease({ pools: first.pools, implicates: undefined });
    const deps = { pools: served.pools, implicates: served.implicates };
    const underWay = withServedRelease(deps);
    expect(served.pools.version).toBe('r-poa-first');
    served.switchTo({ pools: complete.pools, implicates: undefined });
    expect(served.pools.version).toBe('r');
    expect(served.pools.resolve('sa2', 'Hobart').ok).toBe(true);
    // The query that took the first release before the switch still has it.
    expect(underWay.pools.version).toBe('r-poa-first');
    expect(underWay.pools.resolve('sa2', 'Hobart').ok).toBe(false);
    expect(withServedRelease(deps).pools.version).toBe('r');
  });

  it('says which levels are building, and when to retry, until the build is done', async () => {
    const first = standIn('r-poa-first', ['postcode']);
    const served = switchableRelease({ pools: first.pools, implicates: undefined });
    served.setBuilding({ levels: ['suburb', 'sa2'], secondsLeft: () => 41.2 });
    expect(served.pools.building).toEqual({ levels: ['suburb', 'sa2'], retryAfterSeconds: 42 });
    const pinned = withServedRelease({ pools: served.pools, implicates: served.implicates });
    for (const pools of [served.pools, pinned.pools]) {
      const failed = pools.resolve('sa2', 'Hobart');
      expect(failed).toEqual({ ok: false, error: { kind: 'unavailable', held: ['postcode'], building: { levels: ['suburb', 'sa2'], retryAfterSeconds: 42 } } });
    }
    // A level nobody is building is not available, as before.
    expect(served.pools.resolve('lga', 'Hobart')).toEqual({ ok: false, error: { kind: 'unavailable', held: ['postcode'] } });
    // Implicate 1 of the release serving now is that release, with the same word on levels building.
    const one = await served.implicates.open(1);
    expect(one?.pools.resolve('suburb', 'Battery Point').ok).toBe(false);
    expect(one?.pools.resolve('suburb', 'Battery Point')).toMatchObject({ error: { building: { levels: ['suburb', 'sa2'] } } });
    served.setBuilding(undefined);
    expect(served.pools.building).toBeUndefined();
  });

  it('closes every release it served, the replaced ones too', async () => {
    const first = standIn('a', ['postcode']);
    const second = standIn('b', ['postcode', 'sa2']);
    const served = switchableRelease({ pools: first.pools, implicates: undefined });
    served.switchTo({ pools: second.pools, implicates: undefined });
    expect(first.state.closed).toBe(false);
    await served.close();
    expect(first.state.closed && second.state.closed).toBe(true);
  });
});
