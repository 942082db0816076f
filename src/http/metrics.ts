/**
 * Prometheus metrics of one app instance. Everything lives in the registry the app was given
 * (or one buildApp made): never prom-client's global registry, so that several apps in one
 * process (tests, benchmarks) keep separate counts and never register a name twice.
 *
 * Labels are bounded: the route is Fastify's pattern ("/downloads/:token/:fileName"), never the
 * raw URL, so no id, token or key reaches a label and the series count stays fixed.
 */
import type { HasherLoad } from '../ports/password-hasher.ts';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ExecuteCompletion, ExecuteObserver } from '../app/execute.ts';
import type { RateDecision, RateLimiter, WindowPolicy } from '../ports/rate-limiter.ts';

/** Route label of a request no route matched (404s for arbitrary paths must not create series). */
export const UNMATCHED_ROUTE = '(unmatched)';

/** Seconds; executes of a million rows take seconds, everything else milliseconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export interface HttpMetrics extends ExecuteObserver {
  readonly registry: Registry;
  /** One finished request: its method, route pattern, status and latency. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** One request refused by the named rate-limit window ("minute", "hour-free", "failed-auth", …). */
  rateLimited(window: string): void;
}

export interface HttpMetricsOptions {
  /** Executes running now (for the in-flight gauge, read at scrape time). */
  readonly executesInFlight: () => number;
  /** The password hasher's load (its own threads and queue), read at scrape time. */
  readonly passwordLoad?: () => HasherLoad;
  /** prom-client's default process and Node.js metrics (CPU, memory, event loop lag, GC, handles). */
  readonly defaultMetrics?: boolean;
}

export function createHttpMetrics(registry: Registry, options: HttpMetricsOptions): HttpMetrics {
  const registers = [registry];
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'spq_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const latency = new Histogram({
    name: 'spq_http_request_duration_seconds',
    help: 'HTTP request latency from arrival to the response sent, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const credits = new Counter({
    name: 'spq_credits_charged_total',
    help: 'Credits charged by completed executes (idempotent replays and refunded failures are not counted)',
    labelNames: ['dataset'] as const,
    registers,
  });
  const rows = new Counter({
    name: 'spq_rows_written_total',
    help: 'Records written to result files by completed executes, by dataset and format',
    labelNames: ['dataset', 'format'] as const,
    registers,
  });
  const bytes = new Counter({
    name: 'spq_result_bytes_written_total',
    help: 'Bytes of result files written by completed executes, by dataset and format',
    labelNames: ['dataset', 'format'] as const,
    registers,
  });
  const executes = new Counter({
    name: 'spq_executes_completed_total',
    help: 'Executes that charged credits and stored a file, by dataset and format',
    labelNames: ['dataset', 'format'] as const,
    registers,
  });
  const refusals = new Counter({
    name: 'spq_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit, by window (minute, hour-free, hour-paid, failed-auth, downloads)',
    labelNames: ['window'] as const,
    registers,
  });
  new Gauge({
    name: 'spq_executes_in_flight',
    help: 'Executes running now (a graceful shutdown waits for them)',
    registers,
    collect() {
      this.set(options.executesInFlight());
    },
  });
  const passwordLoad = options.passwordLoad;
  if (passwordLoad !== undefined) {
    new Gauge({
      name: 'spq_password_checks',
      help: 'Password hashes and checks on the hasher\'s own threads, by state (running, queued; capacity: the most it holds before refusing)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const load = passwordLoad();
        this.set({ state: 'running' }, load.running);
        this.set({ state: 'queued' }, load.queued);
        this.set({ state: 'capacity' }, load.capacity);
      },
    });
    new Counter({
      name: 'spq_password_checks_refused_total',
      help: 'Password hashes and checks refused at once because every thread and queue place was taken (a sign-in or password flood)',
      registers,
      collect() {
        this.reset();
        this.inc(passwordLoad().refused);
      },
    });
  }

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    rateLimited(window) {
      refusals.inc({ window });
    },
    executeCompleted(c: ExecuteCompletion) {
      credits.inc({ dataset: c.dataset }, c.credits);
      rows.inc({ dataset: c.dataset, format: c.format }, c.rows);
      bytes.inc({ dataset: c.dataset, format: c.format }, c.bytes);
      executes.inc({ dataset: c.dataset, format: c.format });
    },
  };
}

/**
 * The limiter every route uses, counting refusals by the window that refused. Wrapping the port
 * counts the key windows, the failed-auth limit and the download limit alike, whichever route
 * asked.
 */
export function countingLimiter(limiter: RateLimiter, metrics: Pick<HttpMetrics, 'rateLimited'>): RateLimiter {
  const counted = (decision: RateDecision): RateDecision => {
    if (!decision.allowed) metrics.rateLimited(decision.policy.name);
    return decision;
  };
  const hitNow = limiter.hitNow;
  return {
    hit: async (key, policies, nowMs) => counted(await limiter.hit(key, policies, nowMs)),
    ...(hitNow !== undefined ? { hitNow: (key: string, policies: readonly WindowPolicy[], nowMs: number) => counted(hitNow(key, policies, nowMs)) } : {}),
    healthy: () => limiter.healthy(),
    close: () => limiter.close(),
  };
}
