/**
 * The Python client's own tests (clients/python/tests) run against a real running server: this
 * starts one (the HTTP harness), gives python3 its URL and a fresh key, and expects every test to
 * pass. The python3 with pandas is preferred (Debian's, with python3-pandas, which .ci/run
 * installs), so that the data-frame path is tested; under CI it must be there. Skipped, saying so,
 * where no python3 is.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../http/harness.ts';

const works = (exe: string, code: string) => spawnSync(exe, ['-c', code], { encoding: 'utf8' }).status === 0;
const PYTHON = ['python3', '/usr/bin/python3'].find((exe) => works(exe, 'import pandas')) ?? 'python3';
const havePython = works(PYTHON, 'pass');
const havePandas = havePython && works(PYTHON, 'import pandas');
if (!havePython) console.warn('python3 not found: the Python client tests are skipped');
else if (!havePandas) console.warn(`${PYTHON} has no pandas: the Python client's data-frame tests skip themselves (Debian: apt-get install python3-pandas)`);

const FIXTURES = join(import.meta.dirname, 'fixtures');
let s: TestServer | undefined;
let key = '';
beforeAll(async () => {
  if (!havePython) return;
  s = await startTestServer({ implicates: 5 });
  key = (await s.account({ grant: 70 })).key;
});
afterAll(async () => s?.close());

/** A venv of the python3 with pandas (seeing its system packages: Debian's pandas), made in `dir`. */
async function venv(dir: string): Promise<string> {
  const made = await runPython(PYTHON, ['-m', 'venv', '--system-site-packages', dir], tmpdir());
  expect(made.status, made.output).toBe(0);
  return join(dir, 'bin', 'python');
}

function runPython(exe: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(exe, args, { cwd, env: { ...process.env, PYTHONWARNINGS: 'ignore', ...env } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (status) => resolve({ status, output }));
  });
}

const haveVenv = havePython && works(PYTHON, 'import venv, setuptools, wheel');

describe.skipIf(!haveVenv)('Python client, installed as a package', () => {
  it('pip installs from the repository path and from a built wheel into clean venvs, and passes its tests there', async () => {
    const work = mkdtempSync(join(tmpdir(), 'spq-py-package-'));
    try {
      // A copy: building writes build/ and *.egg-info beside the sources, which stay untouched.
      const root = join(work, 'source');
      cpSync(join(import.meta.dirname, '..', '..', 'clients', 'python'), root, { recursive: true });
      // No registry here: the build backend is the system's setuptools (--no-build-isolation), nothing is downloaded (--no-index).
      const fromPath = await venv(join(work, 'from-path'));
      const installed = await runPython(fromPath, ['-m', 'pip', 'install', '--no-index', '--no-build-isolation', root], work);
      expect(installed.status, installed.output).toBe(0);
      const built = await runPython(fromPath, ['-m', 'pip', 'wheel', '--no-index', '--no-build-isolation', '--no-deps', '-w', join(work, 'wheels'), root], work);
      expect(built.status, built.output).toBe(0);
      const wheel = readdirSync(join(work, 'wheels')).find((f) => /^spq_client-1\.0\.0-py3-none-any\.whl$/.test(f));
      expect(wheel).toBeDefined();
      const fromWheel = await venv(join(work, 'from-wheel'));
      const fromWheelInstalled = await runPython(fromWheel, ['-m', 'pip', 'install', '--no-index', join(work, 'wheels', wheel!)], work);
      expect(fromWheelInstalled.status, fromWheelInstalled.output).toBe(0);
      for (const python of [fromPath, fromWheel]) {
        // The tests run from elsewhere, so only the installed package can be imported.
        const tested = await runPython(python, ['-m', 'unittest', 'discover', '-s', join(root, 'tests'), '-v'], work, {
          SPQ_CLIENT_INSTALLED: '1',
          SPQ_BASE_URL: s!.baseUrl,
          // Its own account: the history tests expect to see only their own queries.
          SPQ_API_KEY: (await s!.account({ grant: 70 })).key,
          SPQ_CLIENT_FIXTURES: FIXTURES,
        });
        expect(tested.status, tested.output).toBe(0);
        const where = await runPython(python, ['-c', 'import spq_client, sys; print(spq_client.__file__, spq_client.__version__)'], work);
        expect(where.output).toMatch(new RegExp(`^${work.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/from-(path|wheel)/lib/.*site-packages/spq_client/__init__\\.py 1\\.0\\.0`));
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 240_000);
});

describe.skipIf(!havePython)('Python client', () => {
  it('passes its tests against a running server', async () => {
    const root = join(import.meta.dirname, '..', '..', 'clients', 'python');
    // Asynchronously: the server answering python3 runs in this very process.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(PYTHON, ['-m', 'unittest', 'discover', '-s', join(root, 'tests'), '-v'], {
        cwd: root,
        env: { ...process.env, SPQ_BASE_URL: s!.baseUrl, SPQ_API_KEY: key, PYTHONWARNINGS: 'ignore', SPQ_CLIENT_FIXTURES: FIXTURES },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    // The server tests ran (not skipped for want of a server).
    expect(run.stderr).toMatch(/test_preview_execute_download_history_credits .* ok/);
    // Replicates come from distinct implicates (the server holds five), at the price of single draws.
    expect(run.stderr).toMatch(/test_replicates_draw_each_from_its_own_implicate .* ok/);
    expect(run.stderr).toMatch(/test_seed_and_implicate_give_the_same_records_back .* ok/);
    // CI installs pandas, so the data frames are really tested there.
    if (process.env['CI']) expect(havePandas, `${PYTHON} has no pandas`).toBe(true);
    if (havePandas) expect(run.stderr).toMatch(/test_to_dataframe_orders_substantive_levels_and_missing_codes_are_na .* ok/);
    if (havePandas) expect(run.stderr).toMatch(/test_nominal_variables_are_unordered_ordinal_ones_run_low_to_high_and_frames_carry_provenance .* ok/);
    expect(run.stderr).toMatch(/test_pool_follows_rubins_rules .* ok/);
    expect(run.stderr).toMatch(/test_replicates_with_seeds_give_the_same_files_again .* ok/);
    // Whole models pooled as mice::pool pools them (fixtures/mice-pool-lm.json); wrong shapes refused.
    expect(run.stderr).toMatch(/test_pooled_models_equal_mice_pool .*\n.*max abs difference .*\nok/);
    expect(run.stderr).toMatch(/test_pool_refuses_inputs_of_the_wrong_shape .* ok/);
    expect(run.stderr).toMatch(/test_parquet_metadata_is_read_from_the_file_and_else_the_arrow_schema .* ok/);
    if (havePandas) expect(run.stderr).toMatch(/test_both_shapes_read_to_the_same_values .* ok/);
    if (havePandas) expect(run.stderr).toMatch(/test_joined_columns_read_like_own_variables .* ok/);
    if (havePandas) expect(run.stderr).toMatch(/test_missing_columns_are_unordered_factors_of_the_missing_codes .* ok/);
    console.log(run.stderr.split('\n').find((l) => l.startsWith('pool vs mice::pool')));
  });
});
