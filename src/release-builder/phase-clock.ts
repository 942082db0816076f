/**
 * What a build phase cost: wall time and the main thread's CPU time (the build's `--json`
 * `phases`), so that a build bound by its main thread shows as one (issue 42).
 */
import type { PoolStatistics } from './worker-pool.ts';

export interface PhaseFigures {
  readonly seconds: number;
  /** CPU time of the main thread (user + system) in the phase. */
  readonly main_cpu_seconds: number;
}

export interface SynthesisPhaseFigures extends PhaseFigures {
  /** Per synthesis worker thread: its CPU time, the share of the phase it held a job, and the jobs it ran. */
  readonly workers: readonly { readonly cpu_seconds: number; readonly busy_share: number; readonly jobs: number }[];
  /** Time with a worker idle although areas were left, because the read-ahead was full (worker-pool.ts). */
  readonly window_full_seconds: number;
  /**
   * What an area costs its worker: a fixed part and a part per person (CPU time), fitted by least
   * squares over the smaller half of the areas (`areas` of them; over every area the few largest
   * set the line and nationally its fixed part came out negative); and the share of all the
   * workers' CPU the fixed parts of every area add up to.
   */
  readonly area_cost: { readonly areas: number; readonly fixed_ms: number; readonly per_person_us: number; readonly fixed_share: number } | null;
}

/** The build's phases: loading and preparing the inputs, synthesizing every area (implicate 1), writing the release. */
export interface BuildPhases {
  readonly load: PhaseFigures;
  readonly synthesize: SynthesisPhaseFigures;
  readonly write: PhaseFigures;
}

export interface PhaseClock {
  /** The phase from the clock's start to now. */
  elapsed(): PhaseFigures;
}

const round = (x: number) => Math.round(x * 100) / 100;

/** A clock started now, on the calling (main) thread. */
export function startPhaseClock(): PhaseClock {
  const wall = performance.now();
  const cpu = process.threadCpuUsage();
  return {
    elapsed() {
      const used = process.threadCpuUsage(cpu);
      return { seconds: round((performance.now() - wall) / 1000), main_cpu_seconds: round((used.user + used.system) / 1e6) };
    },
  };
}

/** The synthesis phase's figures: the main thread's from its clock, the workers' from the pool. */
export function synthesisPhase(main: PhaseFigures, pool: PoolStatistics): SynthesisPhaseFigures {
  return {
    ...main,
    workers: pool.workers.map((w) => ({ cpu_seconds: round(w.cpuMs / 1000), busy_share: pool.wallMs > 0 ? Math.round((1000 * w.busyMs) / pool.wallMs) / 1000 : 0, jobs: w.jobs })),
    window_full_seconds: round(pool.windowFullMs / 1000),
    area_cost: areaCost(pool.jobCosts),
  };
}

/** Least squares of CPU time on persons over the smaller half of the areas (null with fewer than two sizes). */
function areaCost(costs: PoolStatistics['jobCosts']): SynthesisPhaseFigures['area_cost'] {
  const bySize = [...costs].sort((a, b) => a.weight - b.weight);
  const small = bySize.slice(0, Math.ceil(bySize.length / 2));
  const n = small.length;
  if (n < 2) return null;
  const meanX = small.reduce((s, c) => s + c.weight, 0) / n;
  const meanY = small.reduce((s, c) => s + c.cpuMs, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const c of small) {
    sxx += (c.weight - meanX) ** 2;
    sxy += (c.weight - meanX) * (c.cpuMs - meanY);
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  const fixed = meanY - slope * meanX;
  const total = costs.reduce((s, c) => s + c.cpuMs, 0);
  return { areas: n, fixed_ms: round(fixed), per_person_us: round(slope * 1000), fixed_share: total > 0 ? Math.round((1000 * fixed * costs.length) / total) / 1000 : 0 };
}
