/**
 * docs/multiple-imputation.md's worked example, run verbatim: its Python script (the block after
 * `<!-- ci: mi_example.py -->`) against a live server holding five implicates, with the Python
 * client from this repository; its output must be the doc's own (the block after
 * `<!-- ci: mi_example.py output -->`), figure for figure. The script names its sampling seeds,
 * and the test release is built from fixed seeds, so the run is the same on every machine.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../http/harness.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'multiple-imputation.md'), 'utf8');

/** The fenced block right after a `<!-- ci: … -->` marker. */
function blockAfter(markdown: string, marker: string): string {
  const at = markdown.indexOf(`<!-- ci: ${marker} -->`);
  if (at < 0) throw new Error(`no <!-- ci: ${marker} --> in the document`);
  const fenced = /```[a-z]*\n([\s\S]*?)```/.exec(markdown.slice(at));
  if (!fenced) throw new Error(`no fenced block after <!-- ci: ${marker} -->`);
  return fenced[1]!;
}

const PYTHON = ['/usr/bin/python3', 'python3'].find((exe) => spawnSync(exe, ['-c', 'import pandas'], { encoding: 'utf8' }).status === 0);
if (!PYTHON) console.warn('no python3 with pandas: the multiple-imputation example is skipped (Debian: python3-pandas)');

let s: TestServer | undefined;
const work = mkdtempSync(join(tmpdir(), 'spq-mi-doc-'));
beforeAll(async () => {
  if (PYTHON) s = await startTestServer({ implicates: 5 });
}, 120_000);
afterAll(async () => {
  await s?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('docs/multiple-imputation.md', () => {
  it('is required under CI', () => {
    if (process.env['CI']) expect(PYTHON, 'python3 with pandas').toBeDefined();
  });

  it.skipIf(!PYTHON)('runs its worked example as written and prints the figures it shows', async () => {
    const script = join(work, 'mi_example.py');
    writeFileSync(script, blockAfter(DOC, 'mi_example.py'));
    const key = (await s!.account({ grant: 200 })).key;
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(PYTHON!, [script], {
        cwd: work,
        env: { ...process.env, SPQ_URL: s!.baseUrl, SPQ_API_KEY: key, PYTHONPATH: join(ROOT, 'clients', 'python'), PYTHONWARNINGS: 'ignore' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(blockAfter(DOC, 'mi_example.py output'));
  }, 180_000);
});
