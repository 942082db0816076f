/**
 * Does a large household sample block the instance? (issue 40, item 4: "/healthz p99 ≤ 50 ms
 * during a whole-Australia household sample".) The serve composition on a synthetic release of
 * --persons persons; one whole-Australia dwellings execute with linked_records "household" of
 * --n dwellings per format, while a second client asks /healthz every 10 ms. Prints, per format,
 * the execute's time, the /healthz latencies during it (p50, p99, max), the event loop's
 * longest stall (perf_hooks), and the longest phases on the main thread (--phases, timed port
 * calls: sample, members, export of the bundle). A quiet baseline of /healthz is measured first
 * in the same process.
 * Usage: node bin/run-ts.js bench/household-stall.ts [--persons 700000] [--n 257757] [--formats csv,parquet] [--phases]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { Drain } from '../src/app/drain.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { composeServices, type Services } from '../src/main/compose.ts';
import { benchAccount, benchOptions, fmtMs, freePort, machineLine } from './lib.ts';
import { buildSyntheticRelease } from './pool-release-synthetic.ts';
import { workerLoop } from '../test/support/worker-loop.ts';

const options = benchOptions({ persons: 700000, n: 257757, formats: 'csv,parquet', phases: false });
const SUBURBS = 140;

const quantile = (xs: readonly number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

/**
 * /healthz asked every `everyMs` from a worker thread (its own event loop: a probe on the
 * server's loop would be stalled with it and see nothing) until stop(): each answer's latency.
 */
function healthProbe(url: string, everyMs = 10): { stop(): Promise<number[]> } {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const latencies = [];
    let running = true;
    parentPort.on('message', () => (running = false));
    (async () => {
      while (running) {
        const t0 = performance.now();
        const res = await fetch(workerData.url + '/healthz');
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        await new Promise((resolve) => setTimeout(resolve, workerData.everyMs));
      }
      parentPort.postMessage(latencies);
    })();`;
  return workerLoop<number[]>(source, { url, everyMs });
}

/** Records the duration of `object[method]` (sync or async) under `label` in `into`. */
function timed<T extends object>(object: T, method: keyof T & string, label: string, into: Map<string, number>): void {
  const original = (object[method] as (...args: unknown[]) => unknown).bind(object);
  (object as Record<string, unknown>)[method] = (...args: unknown[]) => {
    const t0 = performance.now();
    const add = () => into.set(label, (into.get(label) ?? 0) + performance.now() - t0);
    const result = original(...args);
    if (result instanceof Promise) return result.finally(add);
    add();
    return result;
  };
}

const tmp = await mkdtemp(join(tmpdir(), 'spq-bench-household-'));
let services: Services | undefined;
try {
  process.stderr.write(`machine: ${machineLine()}\nbuilding a synthetic release of ${options.persons.toLocaleString('en-US')} persons…\n`);
  const built = await buildSyntheticRelease(join(tmp, 'pools'), SUBURBS, Math.round(options.persons / SUBURBS));
  const port = await freePort();
  const limit = '100000000';
  const config = loadConfig(
    { SPQ_DATA_DIR: join(tmp, 'data'), SPQ_POOL_DIR: built.dir, SPQ_SERVER_SECRET: 'bench-household-secret-0123456789abcdef', SPQ_RATE_PER_MINUTE: limit, SPQ_RATE_PAID_PER_HOUR: limit, SPQ_RATE_FREE_PER_HOUR: limit },
    { port, host: '127.0.0.1' },
  );
  services = await composeServices(config, () => undefined);
  const phases = new Map<string, number>();
  if (options.phases) {
    timed(services.pools, 'sample', 'sample', phases);
    timed(services.pools, 'members', 'members', phases);
    timed(services.pools, 'exportBundle', 'export bundle', phases);
  }
  const devNull = new Writable({ write: (_c, _e, done) => done() });
  const app = buildApp({ ...services, logger: { level: 'info', stream: devNull }, drain: new Drain() });
  const url = await app.listen({ host: '127.0.0.1', port });
  const { apiKey } = await benchAccount(services.accounts, services.serverSecret);

  const quiet = healthProbe(url);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const quietLatencies = await quiet.stop();
  const rows = [`| format | execute s | /healthz answers | p50 ms | p99 ms | max ms | event loop max stall ms |${options.phases ? ' phases ms |' : ''}`, `|---|---|---|---|---|---|---|${options.phases ? '---|' : ''}`];
  rows.push(`| (quiet, 2 s) | — | ${quietLatencies.length} | ${fmtMs(quantile(quietLatencies, 0.5))} | ${fmtMs(quantile(quietLatencies, 0.99))} | ${fmtMs(Math.max(...quietLatencies))} | — |${options.phases ? ' — |' : ''}`);
  for (const format of options.formats.split(',')) {
    phases.clear();
    const body = JSON.stringify({ geography_level: 'australia', geography_selections: ['Australia'], dataset_type: 'dwellings', n_observations: options.n, output_format: format, linked_records: 'household' });
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const probe = healthProbe(url);
    const t0 = performance.now();
    const response = await fetch(`${url}/query/execute`, { method: 'POST', body, headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` } });
    const answer = (await response.json()) as { detail?: string };
    const seconds = (performance.now() - t0) / 1000;
    const latencies = await probe.stop();
    loop.disable();
    if (response.status !== 200) throw new Error(`execute ${format}: ${response.status} ${answer.detail ?? ''}`);
    const phaseText = [...phases].map(([label, ms]) => `${label} ${fmtMs(ms)}`).join(', ');
    rows.push(`| ${format} | ${seconds.toFixed(2)} | ${latencies.length} | ${fmtMs(quantile(latencies, 0.5))} | ${fmtMs(quantile(latencies, 0.99))} | ${fmtMs(Math.max(...latencies))} | ${fmtMs(loop.max / 1e6)} |${options.phases ? ` ${phaseText} |` : ''}`);
  }
  process.stdout.write(`${rows.join('\n')}\n\nn = ${options.n} dwellings (household), ${options.persons.toLocaleString('en-US')} persons in ${SUBURBS} suburbs; ${machineLine()}\n`);
  await app.close();
} finally {
  await services?.close();
  await rm(tmp, { recursive: true, force: true });
}
