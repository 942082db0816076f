/**
 * Each client README's quick start ("from a key to a labelled data frame in three commands") run
 * as written, in a clean environment, against a live server: the commands between the README's
 * `<!-- quickstart -->` markers, with only what a reader fills in filled in (their key, the path
 * of the tarball they made) and this machine's offline switches (no Python registry here). A
 * README whose commands stop working fails this test.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../http/harness.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const works = (exe: string, args: string[]) => spawnSync(exe, args, { encoding: 'utf8' }).status === 0;
const PYTHON = ['python3', '/usr/bin/python3'].find((exe) => works(exe, ['-c', 'import pandas, venv, setuptools, wheel']));
const haveR = works('Rscript', ['-e', 'library(httr2); library(jsonlite)']);
if (!PYTHON) console.warn('no python3 with pandas, venv, setuptools and wheel: the Python quick start is skipped (Debian: python3-pandas python3-venv)');
if (!haveR) console.warn('R with httr2 and jsonlite not found: the R quick start is skipped');

/** The commands of a README's quick start block. */
function quickStart(readme: string): string[] {
  const text = readFileSync(join(ROOT, readme), 'utf8');
  const block = /<!-- quickstart -->\s*```sh\n([\s\S]*?)```\s*<!-- \/quickstart -->/.exec(text);
  if (!block) throw new Error(`${readme} has no quick start block`);
  return block[1]!.split('\n').filter((line) => line.trim() !== '');
}

let s: TestServer;
const work = mkdtempSync(join(tmpdir(), 'spq-quickstart-'));
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
  rmSync(work, { recursive: true, force: true });
});

/** Runs a bash script (asynchronously: the server answering it runs in this very process). */
function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd, env: { ...process.env, SPQ_URL: s.baseUrl, ...env } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (status) => resolve({ status, output }));
  });
}

/** A fresh account's key in place of the README's `spq_live_…`. */
async function withKey(lines: string[]): Promise<{ lines: string[]; key: string }> {
  const key = (await s.account({ grant: 20 })).key;
  expect(lines.some((l) => l.includes('spq_live_…'))).toBe(true);
  return { lines: lines.map((l) => l.replaceAll('spq_live_…', key)), key };
}

async function spent(key: string): Promise<number> {
  const history = (await (await s.call('/query/history', { key })).json()) as { queries: { credit_cost: number }[] };
  return history.queries.length;
}

describe('the client READMEs\' quick starts, run as written', () => {
  it('have at most three commands each', () => {
    for (const readme of ['clients/python/README.md', 'clients/r/README.md', 'clients/typescript/README.md']) expect(quickStart(readme).length, readme).toBeLessThanOrEqual(3);
  });

  it.skipIf(!PYTHON)('Python: pip install from the repository, then a labelled DataFrame', async () => {
    const dir = join(work, 'python');
    cpSync(join(ROOT, 'clients', 'python'), join(dir, 'clients', 'python'), { recursive: true });
    const made = await bash(`${PYTHON} -m venv --system-site-packages venv`, dir, {});
    expect(made.status, made.output).toBe(0);
    const { lines, key } = await withKey(quickStart('clients/python/README.md'));
    // The venv first on PATH, as after `source venv/bin/activate`; no registry: pandas is Debian's, the build backend the system's.
    const run = await bash(lines.join('\n'), dir, { PATH: `${join(dir, 'venv', 'bin')}:${process.env['PATH']}`, PIP_NO_INDEX: '1', PIP_NO_BUILD_ISOLATION: '0', PYTHONWARNINGS: 'ignore' });
    expect(run.status, run.output).toBe(0);
    expect(run.output).toMatch(/^True 0-4 years/m); // AGE5P is an ordered Categorical, its first level first
    expect(run.output).toContain('0-4 years');
    expect(await spent(key)).toBe(1);
  }, 180_000);

  it('TypeScript: npm pack, npm install in a project of its own, then a labelled table on plain Node', async () => {
    const dir = join(work, 'typescript');
    cpSync(join(ROOT, 'clients', 'typescript'), join(dir, 'clients', 'typescript'), { recursive: true, filter: (p) => !p.includes('/dist') });
    // The repository after its `npm ci`, as the README says (the package compiles with the repository's TypeScript).
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const { lines, key } = await withKey(quickStart('clients/typescript/README.md'));
    // The machine's own node where it has one (20 or later): the package needs nothing newer.
    const machinePath = (process.env['PATH'] ?? '').split(':').filter((p) => !p.includes('node_modules')).join(':');
    const run = await bash(lines.join('\n'), dir, { PATH: machinePath, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_offline: 'true' });
    expect(run.status, run.output).toBe(0);
    expect(run.output).toMatch(/\[ '0-4 years', '5-9 years', '10-14 years' \] 100 .* \d+$/m);
    expect(await spent(key)).toBe(1);
  }, 180_000);

  it.skipIf(!haveR)('R: R CMD build and INSTALL, then a labelled data frame', async () => {
    const dir = join(work, 'r');
    cpSync(join(ROOT, 'clients', 'r'), join(dir, 'clients', 'r'), { recursive: true });
    const library = join(dir, 'library');
    mkdirSync(library);
    const { lines, key } = await withKey(quickStart('clients/r/README.md'));
    // R_LIBS: a fresh library in place of the user's own.
    const run = await bash(lines.join('\n'), dir, { R_LIBS: library });
    expect(run.status, run.output).toBe(0);
    expect(run.output).toMatch(/^\[1\] TRUE$/m); // AGE5P is an ordered factor
    expect(run.output).toContain('0-4 years');
    expect(await spent(key)).toBe(1);
  }, 240_000);
});
