/**
 * Where the time of a small execute goes: the same serve composition as bench/execute.ts, with
 * each port call on the execute path timed (charge, sample, export, file store, completion,
 * link signing) around many sequential executes of n rows; the rest of the end-to-end time is
 * HTTP, key check, rate limits and validation. Medians after a warm-up.
 * Usage: node bin/run-ts.js bench/execute-phases.ts [--n 1000] [--runs 40] [--formats parquet,csv,xlsx]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { composeServices, type Services } from '../src/main/compose.ts';
import { Drain } from '../src/app/drain.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { benchAccount, fmtMs, freePort, machineLine, median } from './lib.ts';
import { buildSyntheticRelease } from './pool-release-synthetic.ts';

const { values } = parseArgs({
  options: { n: { type: 'string', default: '1000' }, runs: { type: 'string', default: '40' }, formats: { type: 'string', default: 'parquet,csv,xlsx' } },
});
const n = Number(values.n);
const runs = Number(values.runs);

const timings = new Map<string, number[]>();

/** Replaces `object[method]` with a version that records its duration (sync or async) under `label`. */
function timed<T extends object>(object: T, method: keyof T & string, label: string): void {
  const original = (object[method] as (...args: unknown[]) => unknown).bind(object);
  const record = (t0: number) => timings.set(label, [...(timings.get(label) ?? []), performance.now() - t0]);
  (object as Record<string, unknown>)[method] = (...args: unknown[]) => {
    const t0 = performance.now();
    const result = original(...args);
    if (result instanceof Promise) return result.finally(() => record(t0));
    record(t0);
    return result;
  };
}

const tmp = await mkdtemp(join(tmpdir(), 'spq-bench-phases-'));
let services: Services | undefined;
try {
  process.stderr.write(`machine: ${machineLine()}\n`);
  const built = await buildSyntheticRelease(join(tmp, 'pools'), 50, 5000);
  const port = await freePort();
  const limit = '100000000';
  const config = loadConfig(
    { SPQ_DATA_DIR: join(tmp, 'data'), SPQ_POOL_DIR: built.dir, SPQ_SERVER_SECRET: 'bench-phases-secret-0123456789abcdef', SPQ_RATE_PER_MINUTE: limit, SPQ_RATE_PAID_PER_HOUR: limit, SPQ_RATE_FREE_PER_HOUR: limit },
    { port, host: '127.0.0.1' },
  );
  services = await composeServices(config, () => undefined);
  timed(services.accounts, 'charge', 'charge');
  timed(services.pools, 'sample', 'sample');
  timed(services.pools, 'export', 'export');
  timed(services.files, 'put', 'file store');
  timed(services.accounts, 'completeQuery', 'completion');
  timed(services.files, 'downloadUrl', 'link signing');
  const devNull = new Writable({ write: (_c, _e, done) => done() });
  const app = buildApp({ ...services, logger: { level: 'info', stream: devNull }, drain: new Drain() });
  const url = await app.listen({ host: '127.0.0.1', port });
  const { apiKey } = await benchAccount(services.accounts, services.serverSecret);

  const labels = ['charge', 'sample', 'export', 'file store', 'completion', 'link signing'];
  const table = [`| format | end to end ms | ${labels.join(' ms | ')} ms | rest (HTTP, key, limits, validation) ms |`, `|---|---|${labels.map(() => '---|').join('')}---|`];
  for (const format of values.formats!.split(',')) {
    const total: number[] = [];
    const body = JSON.stringify({ geography_level: 'australia', geography_selections: ['Australia'], dataset_type: 'persons', n_observations: n, output_format: format });
    for (let r = 0; r < runs + 5; r++) {
      if (r === 5) timings.clear(); // warm-up
      const t0 = performance.now();
      const response = await fetch(`${url}/query/execute`, { method: 'POST', body, headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` } });
      await response.json();
      if (response.status !== 200) throw new Error(`execute ${format}: ${response.status}`);
      if (r >= 5) total.push(performance.now() - t0);
    }
    const parts = labels.map((l) => median(timings.get(l) ?? [0]));
    const sumOfMedians = parts.reduce((a, b) => a + b, 0);
    table.push(`| ${format} | ${fmtMs(median(total))} | ${parts.map(fmtMs).join(' | ')} | ${fmtMs(Math.max(0, median(total) - sumOfMedians))} |`);
    timings.clear();
  }
  process.stdout.write(`${table.join('\n')}\n\nn = ${n}, medians of ${runs} sequential executes after 5 warm-up; ${machineLine()}\n`);
  await app.close();
} finally {
  await services?.close();
  await rm(tmp, { recursive: true, force: true });
}
