/**
 * The served release as one PoolRelease that can be switched while serving: `spq serve --inputs`
 * with several levels serves its first level at once and switches to the complete release when
 * the background build has written it. Every call goes to the release serving at that moment;
 * a query takes `current()` once (src/app/served-release.ts) and keeps that release to its end,
 * so a switch never mixes two releases' rows in one file. A replaced release stays open until
 * close: a query started on it may still be exporting.
 */
import type { GeographyLevel } from '../../core/dataset.ts';
import { err } from '../../core/result.ts';
import type { BuildingLevels, ImplicateSource, PoolRelease, ServedNow } from '../../ports/pool-release.ts';

/** What the background build reports: the levels it will add, and its estimate of the seconds left. */
export interface BuildingStatus {
  readonly levels: readonly GeographyLevel[];
  readonly secondsLeft: () => number;
}

export interface SwitchableRelease {
  /** Stable for the life of the service: what the use cases are handed. */
  readonly pools: PoolRelease;
  readonly implicates: ImplicateSource;
  /** Serves `next` to every request from now on (the replaced release stays open for queries under way). */
  switchTo(next: ServedNow): void;
  /** The levels being built (undefined: nothing is). */
  setBuilding(status: BuildingStatus | undefined): void;
  close(): Promise<void>;
}

/**
 * The release as served: its resolve says when a level it lacks is being built (the query keeps
 * this one, so it must say so itself), and its first implicate is itself.
 */
function annotated(opened: ServedNow, building: () => BuildingLevels | undefined): ServedNow {
  const pools: PoolRelease = {
    ...opened.pools,
    resolve(level, selection) {
      const found = opened.pools.resolve(level, selection);
      const pending = building();
      // A level still being built: say so, and when to ask again, instead of "no such level".
      if (!found.ok && found.error.kind === 'unavailable' && pending?.levels.includes(level)) return err({ ...found.error, building: pending });
      return found;
    },
  };
  const source = opened.implicates;
  const implicates: ImplicateSource | undefined = source && {
    available: () => source.available(),
    open: async (k) => {
      const found = await source.open(k);
      return found !== undefined && k === 1 ? { ...found, pools } : found;
    },
    close: () => source.close(),
  };
  return { pools, implicates };
}

export function switchableRelease(opened: ServedNow): SwitchableRelease {
  let building: BuildingStatus | undefined;
  const buildingNow = (): BuildingLevels | undefined =>
    building === undefined ? undefined : { levels: building.levels, retryAfterSeconds: Math.max(1, Math.ceil(building.secondsLeft())) };
  let now = annotated(opened, buildingNow);
  const all: ServedNow[] = [opened];
  const pools: PoolRelease = {
    get version() { return now.pools.version; },
    get checksum() { return now.pools.checksum; },
    get fittedTo() { return now.pools.fittedTo; },
    get population() { return now.pools.population; },
    get levels() { return now.pools.levels; },
    get quality() { return now.pools.quality; },
    get building() { return buildingNow(); },
    current: () => now,
    resolve: (level, selection) => now.pools.resolve(level, selection),
    suburb: (id) => now.pools.suburb(id),
    search: (query) => now.pools.search(query),
    variables: (selection, dataset) => now.pools.variables(selection, dataset),
    codebook: (dataset) => now.pools.codebook(dataset),
    poolSize: (selection, dataset) => now.pools.poolSize(selection, dataset),
    sample: (selection, dataset, n, seed) => now.pools.sample(selection, dataset, n, seed),
    members: (dataset, rows) => now.pools.members(dataset, rows),
    export: (request) => now.pools.export(request),
    exportBundle: (request) => now.pools.exportBundle(request),
    close: () => Promise.resolve(), // the whole switchable closes, below
  };
  const implicates: ImplicateSource = {
    available: () => now.implicates?.available() ?? [1],
    open: async (k) => {
      const served = now;
      if (served.implicates !== undefined) return served.implicates.open(k);
      return k === 1 ? { number: 1, synthesisSeed: undefined, pools: served.pools } : undefined;
    },
    close: () => Promise.resolve(),
  };
  return {
    pools,
    implicates,
    switchTo(next) {
      all.push(next);
      now = annotated(next, buildingNow);
    },
    setBuilding(status) {
      building = status;
    },
    async close() {
      for (const served of all.splice(0)) {
        await served.implicates?.close().catch(() => undefined);
        await served.pools.close().catch(() => undefined);
      }
    },
  };
}
