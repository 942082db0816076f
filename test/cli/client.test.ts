/**
 * `spq client …` from a shell against a running server: the key from SPQ_API_KEY only, JSON out,
 * progress and errors on stderr, a failing call a non-zero exit.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../http/harness.ts';

let s: TestServer;
let key = '';
let dir: string;

beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account({ grant: 20 })).key;
  dir = await mkdtemp(join(tmpdir(), 'spq-cli-client-'));
});
afterAll(async () => {
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs bin/spq.js asynchronously (the server answering it runs in this process). */
function spq(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, '../../bin/spq.js'), 'client', '--url', s.baseUrl, ...args], {
      env: { ...process.env, SPQ_API_KEY: key, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('spq client', () => {
  it('previews, executes with download, and reads credits and history', async () => {
    const queryPath = join(dir, 'query.json');
    await writeFile(queryPath, JSON.stringify({ geography_level: 'suburb', geography_selections: ['Fitzroy'], dataset_type: 'persons', n_observations: 50, output_format: 'csv' }));
    const preview = await spq(['preview', queryPath]);
    expect(preview.code, preview.stderr).toBe(0);
    expect(JSON.parse(preview.stdout).credit_cost).toBe(1);
    const out = join(dir, 'fitzroy.csv');
    const executed = await spq(['execute', queryPath, '--out', out]);
    expect(executed.code, executed.stderr).toBe(0);
    const summary = JSON.parse(executed.stdout);
    expect(summary).toMatchObject({ credit_cost: 1, file: out });
    // A csv link sends the file compressed where the client accepts it (fetch does): no size ahead, so no "of N".
    expect(executed.stderr).toMatch(/downloaded \d+ (of \d+ )?bytes/);
    expect((await readFile(out, 'utf8')).trim().split('\n')).toHaveLength(51);
    expect(JSON.parse((await spq(['credits'])).stdout).credits_remaining).toBe(summary.credits_remaining);
    expect(JSON.parse((await spq(['history'])).stdout).queries[0].query_id).toBe(summary.query_id);
  });

  it('execute --dictionary saves a csv result\'s dictionary; a parquet query with it is refused before any charge', async () => {
    const queryPath = join(dir, 'with-dictionary.json');
    await writeFile(queryPath, JSON.stringify({ geography_level: 'suburb', geography_selections: ['Fitzroy'], dataset_type: 'persons', n_observations: 20, output_format: 'csv' }));
    const dictionaryPath = join(dir, 'fitzroy.dictionary.json');
    const executed = await spq(['execute', queryPath, '--out', join(dir, 'with-dictionary.csv'), '--dictionary', dictionaryPath]);
    expect(executed.code, executed.stderr).toBe(0);
    expect(JSON.parse(executed.stdout).dictionary).toBe(dictionaryPath);
    const dictionary = JSON.parse(await readFile(dictionaryPath, 'utf8'));
    expect(dictionary.variables.find((v: { code: string }) => v.code === 'SEXP').measurement).toBe('nominal');
    const before = JSON.parse((await spq(['credits'])).stdout).credits_remaining;
    const parquetPath = join(dir, 'parquet.json');
    await writeFile(parquetPath, JSON.stringify({ geography_level: 'suburb', geography_selections: ['Fitzroy'], dataset_type: 'persons', n_observations: 20 }));
    const refused = await spq(['execute', parquetPath, '--dictionary', dictionaryPath]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--dictionary saves a csv result's dictionary.*parquet/);
    expect(JSON.parse((await spq(['credits'])).stdout).credits_remaining).toBe(before);
  });

  it('names the query file that is not JSON, or cannot be read', async () => {
    const broken = join(dir, 'broken-query.json');
    await writeFile(broken, '{"geography_level": "suburb",');
    const bad = await spq(['preview', broken]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`the query in ${broken} is not valid JSON`);
    const missing = await spq(['execute', join(dir, 'no-such-query.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`cannot read the query file ${join(dir, 'no-such-query.json')}`);
  });

  it('execute prints the version and seed that reproduce the file; --idempotency-key makes a repeated command cost nothing more', async () => {
    const queryPath = join(dir, 'retry.json');
    await writeFile(queryPath, JSON.stringify({ geography_level: 'suburb', geography_selections: ['Fitzroy'], dataset_type: 'persons', n_observations: 10, output_format: 'csv' }));
    const args = ['execute', queryPath, '--idempotency-key', 'nightly-fitzroy-2026-11-25'];
    const first = await spq([...args, '--out', join(dir, 'first.csv')]);
    expect(first.code, first.stderr).toBe(0);
    const one = JSON.parse(first.stdout);
    expect(one).toMatchObject({ version: expect.any(String), seed: expect.stringMatching(/^\d+$/), implicate: 1, fitted_to: 'demo' });
    expect(one.test_data).toBeUndefined();
    // The same command again (say after a dropped connection): the first result, not a second charge.
    const again = await spq([...args, '--out', join(dir, 'again.csv')]);
    expect(again.code, again.stderr).toBe(0);
    const two = JSON.parse(again.stdout);
    expect(two).toMatchObject({ query_id: one.query_id, seed: one.seed, credits_remaining: one.credits_remaining });
    expect(await readFile(join(dir, 'again.csv'), 'utf8')).toBe(await readFile(join(dir, 'first.csv'), 'utf8'));
  });

  it('a sandbox key\'s execute says test data in its output and its file name', async () => {
    const sandbox = await s.account({ grant: 0, kind: 'test' });
    const queryPath = join(dir, 'sandbox.json');
    await writeFile(queryPath, JSON.stringify({ geography_level: 'suburb', geography_selections: ['Fitzroy'], dataset_type: 'persons', n_observations: 5, output_format: 'csv' }));
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [join(import.meta.dirname, '../../bin/spq.js'), 'client', '--url', s.baseUrl, 'execute', queryPath], {
        env: { ...process.env, SPQ_API_KEY: sandbox.key },
        cwd: dir,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ credit_cost: 0, test_data: true, file: expect.stringMatching(/-TEST-DATA\.csv$/) });
  });

  it('says where the key must come from, and fails with the API\'s detail', async () => {
    const noKey = await spq(['credits'], { SPQ_API_KEY: '' });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/set SPQ_API_KEY/);
    const bad = await spq(['search', 'x'.repeat(101)]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^spq client: 400/);
  });

  it('spq --version prints the package version', async () => {
    const run = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [join(import.meta.dirname, '../../bin/spq.js'), '--version']);
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(JSON.parse(await readFile(join(import.meta.dirname, '../../package.json'), 'utf8')).version);
  });
});
