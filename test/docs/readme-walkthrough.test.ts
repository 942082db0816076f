/**
 * The README's "Walk-through with curl", run as written (the block after `<!-- ci: walkthrough -->`)
 * against a live server: bash with `set -euo pipefail`, the placeholder key `spq_live_…` replaced
 * by a fresh account's key and SPQ_URL naming the server, as a reader does with their own.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../http/harness.ts';

const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
const block = /<!-- ci: walkthrough -->\s*```sh\n([\s\S]*?)```/.exec(README)?.[1];

let s: TestServer;
const work = mkdtempSync(join(tmpdir(), 'spq-walkthrough-'));
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
  rmSync(work, { recursive: true, force: true });
});

describe('README walk-through with curl', () => {
  it('runs as written and leaves the file, its dictionary and the query in the history', async () => {
    expect(block, 'README.md has a <!-- ci: walkthrough --> sh block').toBeDefined();
    expect(block).toContain('spq_live_…');
    const { key } = await s.account({ grant: 10 });
    const run = await new Promise<{ status: number | null; output: string }>((resolve) => {
      const child = spawn('bash', ['-euo', 'pipefail', '-c', block!.replaceAll('spq_live_…', key)], { cwd: work, env: { ...process.env, SPQ_URL: s.baseUrl } });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      child.on('close', (status) => resolve({ status, output }));
    });
    expect(run.status, run.output).toBe(0);
    const executed = JSON.parse(readFileSync(join(work, 'execute.json'), 'utf8'));
    expect(readFileSync(join(work, 'persons.csv'), 'utf8').trim().split('\n')).toHaveLength(201);
    const dictionary = JSON.parse(readFileSync(join(work, 'dictionary.json'), 'utf8'));
    expect(dictionary.variables.find((v: { code: string }) => v.code === 'HEAP').measurement).toBe('ordinal');
    expect(run.output).toContain(executed.query_id); // the history lists it
    expect(run.output).toContain('"suburb_id":"Richmond (VIC)"');
  }, 120_000);
});
