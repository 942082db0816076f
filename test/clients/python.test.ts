/**
 * The Python client's own tests (clients/python/tests) run against a real running server: this
 * starts one (the HTTP harness), gives python3 its URL and a fresh key, and expects every test to
 * pass. Skipped, saying so, where python3 is missing; the pandas tests skip themselves without pandas.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../http/harness.ts';

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const havePython = python.status === 0;
if (!havePython) console.warn('python3 not found: the Python client tests are skipped');

let s: TestServer | undefined;
let key = '';
beforeAll(async () => {
  if (!havePython) return;
  s = await startTestServer();
  key = (await s.account({ grant: 20 })).key;
});
afterAll(async () => s?.close());

describe.skipIf(!havePython)('Python client', () => {
  it('passes its tests against a running server', async () => {
    const root = join(import.meta.dirname, '..', '..', 'clients', 'python');
    // Asynchronously: the server answering python3 runs in this very process.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('python3', ['-m', 'unittest', 'discover', '-s', join(root, 'tests'), '-v'], {
        cwd: root,
        env: { ...process.env, SPQ_BASE_URL: s!.baseUrl, SPQ_API_KEY: key, PYTHONWARNINGS: 'ignore' },
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
  });
});
