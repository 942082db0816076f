/**
 * The Python client's own tests (clients/python/tests) run against a real running server: this
 * starts one (the HTTP harness), gives python3 its URL and a fresh key, and expects every test to
 * pass. The python3 with pandas is preferred (Debian's, with python3-pandas, which .ci/run
 * installs), so that the data-frame path is tested; under CI it must be there. Skipped, saying so,
 * where no python3 is.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../http/harness.ts';

const works = (exe: string, code: string) => spawnSync(exe, ['-c', code], { encoding: 'utf8' }).status === 0;
const PYTHON = ['python3', '/usr/bin/python3'].find((exe) => works(exe, 'import pandas')) ?? 'python3';
const havePython = works(PYTHON, 'pass');
const havePandas = havePython && works(PYTHON, 'import pandas');
if (!havePython) console.warn('python3 not found: the Python client tests are skipped');
else if (!havePandas) console.warn(`${PYTHON} has no pandas: the Python client's data-frame tests skip themselves (Debian: apt-get install python3-pandas)`);

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
      const child = spawn(PYTHON, ['-m', 'unittest', 'discover', '-s', join(root, 'tests'), '-v'], {
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
    // CI installs pandas, so the data frames are really tested there.
    if (process.env['CI']) expect(havePandas, `${PYTHON} has no pandas`).toBe(true);
    if (havePandas) expect(run.stderr).toMatch(/test_to_dataframe_orders_substantive_levels_and_missing_codes_are_na .* ok/);
  });
});
