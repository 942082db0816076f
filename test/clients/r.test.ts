/**
 * The R client (clients/r) the way an R user installs it: `R CMD build` makes the package tarball,
 * `R CMD INSTALL` puts it in a fresh library (R, httr2 and jsonlite from Debian), and its test
 * script runs against a live server started here (with the hand-made files of fixtures/ and, where
 * mice is installed, spq_pool compared with mice::pool). Skipped, saying so, where R is missing;
 * under CI (.ci/run installs r-base-core, r-cran-httr2, r-cran-jsonlite, r-cran-mice) it must run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../http/harness.ts';

const haveR = spawnSync('Rscript', ['-e', 'library(httr2); library(jsonlite)'], { encoding: 'utf8' }).status === 0;
if (!haveR) console.warn('R with httr2 and jsonlite not found: the R client tests are skipped (Debian: r-base-core r-cran-httr2 r-cran-jsonlite)');
const haveMice = haveR && spawnSync('Rscript', ['-e', 'library(mice)'], { encoding: 'utf8' }).status === 0;
if (haveR && !haveMice) console.warn('R has no mice: spq_pool is not compared with mice::pool (Debian: r-cran-mice)');
const FIXTURES = join(import.meta.dirname, 'fixtures');

const CLIENT = join(import.meta.dirname, '..', '..', 'clients', 'r');
let s: TestServer | undefined;
let key = '';
const work = mkdtempSync(join(tmpdir(), 'spq-r-client-'));

let fake: { url: string; close: () => Promise<void> } | undefined;

/**
 * A server that rate-limits as a real one can (the API's own limiter answers Retry-After of a
 * few seconds at most): /retry-after-3600/… always 429 with Retry-After 3600; /retry-after-1-then-ok/…
 * 429 with Retry-After 1 once, then the credits answer.
 */
async function startRateLimitedServer(): Promise<{ url: string; close: () => Promise<void> }> {
  let shortServed = false;
  const server = createServer((req, res) => {
    const limited = req.url!.startsWith('/retry-after-3600') || (req.url!.startsWith('/retry-after-1-then-ok') && !shortServed);
    if (req.url!.startsWith('/retry-after-1-then-ok') && !shortServed) shortServed = true;
    res.setHeader('content-type', 'application/json');
    if (limited) {
      res.writeHead(429, { 'retry-after': req.url!.startsWith('/retry-after-3600') ? '3600' : '1' });
      res.end(JSON.stringify({ error: 'rate_limited', detail: 'Too many requests' }));
    } else res.end(JSON.stringify({ credits_remaining: 7 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

beforeAll(async () => {
  if (!haveR) return;
  s = await startTestServer({ implicates: 5 });
  key = (await s.account({ grant: 40 })).key;
  fake = await startRateLimitedServer();
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
  rmSync(work, { recursive: true, force: true });
});

function run(command: string, args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; output: string }> {
  // Asynchronously: the server answering R runs in this very process.
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: work, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (status) => resolve({ status, output }));
  });
}

describe('R client', () => {
  it('is required under CI', () => {
    if (process.env['CI']) expect(haveR, 'R with httr2 and jsonlite').toBe(true);
    if (process.env['CI']) expect(haveMice, 'R with mice').toBe(true);
  });

  it.skipIf(!haveMice)('mice::pool still gives the figures the Python and TypeScript clients are checked against (fixtures/mice-pool-lm.json)', async () => {
    const made = await run('Rscript', [join(CLIENT, 'tests', 'mice-pool-fixture.R')]);
    expect(made.status, made.output).toBe(0);
    const fresh = JSON.parse(made.output) as { mice: Record<string, number[]>; coefficients: number[][] };
    const committed = JSON.parse(readFileSync(join(FIXTURES, 'mice-pool-lm.json'), 'utf8')) as typeof fresh;
    for (const [key, values] of Object.entries(committed.mice)) values.forEach((v, i) => expect(Math.abs(v - fresh.mice[key]![i]!), key).toBeLessThan(1e-10));
    expect(committed.coefficients).toEqual(fresh.coefficients);
  }, 60_000);

  it.skipIf(!haveR)('builds as a package, installs into a fresh library and passes its tests against a running server', async () => {
    const built = await run('R', ['CMD', 'build', '--no-manual', '--no-build-vignettes', CLIENT]);
    expect(built.status, built.output).toBe(0);
    const tarball = readdirSync(work).find((f) => /^spqclient_.*\.tar\.gz$/.test(f))!;
    const library = join(work, 'library');
    mkdirSync(library);
    const installed = await run('R', ['CMD', 'INSTALL', `--library=${library}`, tarball]);
    expect(installed.status, installed.output).toBe(0);
    const tested = await run('Rscript', [join(CLIENT, 'tests', 'test-client.R')], {
      R_LIBS: library,
      SPQ_BASE_URL: s!.baseUrl,
      SPQ_API_KEY: key,
      SPQ_FAKE_URL: fake!.url,
      SPQ_CLIENT_FIXTURES: FIXTURES,
    });
    expect(tested.status, tested.output).toBe(0);
    expect(tested.output).toContain('all R client tests passed');
    expect(tested.output).toContain('ok - replicates come from implicates 1 to 5');
    expect(tested.output).toContain('ok - a Retry-After of an hour is a classed condition carrying the wait, at once');
    expect(tested.output).toContain('ok - Idempotency-Keys do not follow set.seed()');
    expect(tested.output).toContain('ok - Idempotency-Keys come from the OS without a warning (options(warn = 2))');
    expect(tested.output).toContain('ok - a seed above 2^53 as a number is refused, saying to pass it as a string');
    expect(tested.output).toContain('ok - old-shape joined dwelling_RNTRD reads like an own variable');
    expect(tested.output).toContain('ok - spq_pool refuses a 2 x 5 matrix instead of pooling m = 10');
    if (haveMice) expect(tested.output).toContain('ok - spq_pool of lm fits equals mice::pool to 1e-8 (coefficients, variances, df)');
    console.log(tested.output.split('\n').find((l) => l.startsWith('spq_pool vs mice::pool')));
  }, 240_000);
});
