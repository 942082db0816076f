/**
 * clients/python/README.md, "From an API key to a labelled DataFrame" and then "Without the client,
 * the same in pandas", run as written one after the other (the second block reads what the first
 * saved), against a live server with only what a reader fills in filled in (their key and their
 * server's address): the pandas-only reading gives the client's HEAP levels, counts and NAs, and
 * keeps the reasons (issue 38, item 9).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SUBURBS } from '../adapters/pools/fixture.ts';
import { startTestServer, type TestServer } from '../http/harness.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'clients', 'python', 'README.md'), 'utf8');
const blockAfter = (anchor: string) => new RegExp(`${anchor}\\s*\`\`\`python\\n([\\s\\S]*?)\`\`\``).exec(README)?.[1];
const withClient = blockAfter('From an API key to a labelled DataFrame:');
const withoutClient = blockAfter('Without the client, the same in pandas:');
const PYTHON = ['python3', '/usr/bin/python3'].find((exe) => spawnSync(exe, ['-c', 'import pandas'], { encoding: 'utf8' }).status === 0);
if (!PYTHON) console.warn('no python3 with pandas: the README pandas snippet is skipped (Debian: apt-get install python3-pandas)');

let s: TestServer;
const work = mkdtempSync(join(tmpdir(), 'spq-readme-pandas-'));
beforeAll(async () => {
  // The README asks Fitzroy for 500 persons: the fixture's Fitzroy holds more here.
  s = await startTestServer({ areas: FIXTURE_SUBURBS.map((a) => (a.suburb.suburbId === 'Fitzroy' ? { ...a, persons: 700 } : a)) });
});
afterAll(async () => {
  await s.close();
  rmSync(work, { recursive: true, force: true });
});

/** Runs a Python script (asynchronously: the server answering it runs in this very process). */
function python(script: string, env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(PYTHON!, ['-c', script], { cwd: work, env: { ...process.env, PYTHONPATH: join(ROOT, 'clients', 'python'), PYTHONWARNINGS: 'ignore', ...env } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (status) => resolve({ status, output }));
  });
}

describe('clients/python/README.md: pandas without the client', () => {
  it.skipIf(!PYTHON)('runs as written after the client block and gives the client\'s HEAP levels, counts and NAs', async () => {
    expect(withClient, 'the README has the "From an API key to a labelled DataFrame" python block').toBeDefined();
    expect(withoutClient, 'the README has the "Without the client, the same in pandas" python block').toBeDefined();
    expect(withClient).toContain('http://127.0.0.1:8080');
    const { key } = await s.account({ grant: 20 });
    // Then the client's own reading of the same file, to compare with.
    const compare = [
      'import json as _json',
      'ours = spq.to_dataframe("fitzroy.csv", spq.dictionary(result))',
      'print("COMPARE " + _json.dumps({"levels": [list(df.HEAP.cat.categories), list(ours.HEAP.cat.categories)], "ordered": [bool(df.HEAP.cat.ordered), bool(ours.HEAP.cat.ordered)],',
      '  "at_least": [int((df.HEAP >= "Bachelor Degree Level").sum()), int((ours.HEAP >= "Bachelor Degree Level").sum())], "na": [int(df.HEAP.isna().sum()), int(ours.HEAP.isna().sum())],',
      '  "max": [str(df.HEAP.max()), str(ours.HEAP.max())], "reasons": int(df.HEAP_missing.notna().sum())}))',
    ].join('\n');
    const script = [withClient!.replaceAll('http://127.0.0.1:8080', s.baseUrl), withoutClient!, compare].join('\n');
    const run = await python(script, { SPQ_API_KEY: key });
    expect(run.status, run.output).toBe(0);
    const line = run.output.split('\n').find((l) => l.startsWith('COMPARE '));
    expect(line, run.output).toBeDefined();
    const c = JSON.parse(line!.slice('COMPARE '.length)) as Record<string, unknown[]> & { reasons: number };
    for (const k of ['levels', 'ordered', 'at_least', 'na', 'max']) expect(c[k]![0], k).toEqual(c[k]![1]);
    expect(c['levels']![0]).not.toContain('Not stated');
    expect(c['ordered']![0]).toBe(true);
    expect(c['at_least']![0]).toBeGreaterThan(0);
    expect(c['na']![0]).toBeGreaterThan(0);
    expect(c.reasons).toBe(c['na']![0]);
    // The snippet's own line: the count, the NAs and the reasons it kept.
    expect(run.output).toMatch(new RegExp(`^${c['at_least']![0]} ${c['na']![0]} \\{'`, 'm'));
  }, 120_000);
});
