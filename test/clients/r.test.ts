/**
 * The R client (clients/r) the way an R user installs it: `R CMD build` makes the package tarball,
 * `R CMD INSTALL` puts it in a fresh library (R, httr2 and jsonlite from Debian), and its test
 * script runs against a live server started here. Skipped, saying so, where R is missing; under CI
 * (.ci/run installs r-base-core, r-cran-httr2, r-cran-jsonlite) it must run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../http/harness.ts';

const haveR = spawnSync('Rscript', ['-e', 'library(httr2); library(jsonlite)'], { encoding: 'utf8' }).status === 0;
if (!haveR) console.warn('R with httr2 and jsonlite not found: the R client tests are skipped (Debian: r-base-core r-cran-httr2 r-cran-jsonlite)');

const CLIENT = join(import.meta.dirname, '..', '..', 'clients', 'r');
let s: TestServer | undefined;
let key = '';
const work = mkdtempSync(join(tmpdir(), 'spq-r-client-'));

beforeAll(async () => {
  if (!haveR) return;
  s = await startTestServer({ implicates: 5 });
  key = (await s.account({ grant: 30 })).key;
});
afterAll(async () => {
  await s?.close();
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
  });

  it.skipIf(!haveR)('builds as a package, installs into a fresh library and passes its tests against a running server', async () => {
    const built = await run('R', ['CMD', 'build', '--no-manual', '--no-build-vignettes', CLIENT]);
    expect(built.status, built.output).toBe(0);
    const tarball = readdirSync(work).find((f) => /^spqclient_.*\.tar\.gz$/.test(f))!;
    const library = join(work, 'library');
    mkdirSync(library);
    const installed = await run('R', ['CMD', 'INSTALL', `--library=${library}`, tarball]);
    expect(installed.status, installed.output).toBe(0);
    const tested = await run('Rscript', [join(CLIENT, 'tests', 'test-client.R')], { R_LIBS: library, SPQ_BASE_URL: s!.baseUrl, SPQ_API_KEY: key });
    expect(tested.status, tested.output).toBe(0);
    expect(tested.output).toContain('all R client tests passed');
    expect(tested.output).toContain('ok - replicates come from implicates 1 to 5');
  }, 240_000);
});
