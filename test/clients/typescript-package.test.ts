/**
 * The TypeScript client as a user installs it: `npm pack` makes the @spq/client tarball (compiled
 * ESM and .d.ts), a scratch project installs it, and plain Node (the machine's own, 20 or later,
 * no TypeScript loader) imports it and talks to a live server; a TypeScript file using its types
 * typechecks against the installed declarations.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../http/harness.ts';

const PACKAGE = join(import.meta.dirname, '..', '..', 'clients', 'typescript');
const work = mkdtempSync(join(tmpdir(), 'spq-ts-package-'));
let s: TestServer;
let key = '';

beforeAll(async () => {
  s = await startTestServer({ implicates: 5 });
  key = (await s.account({ grant: 10 })).key;
});
afterAll(async () => {
  await s.close();
  rmSync(work, { recursive: true, force: true });
});

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ status: number | null; output: string }> {
  // Asynchronously: the server answering the script runs in this very process.
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (status) => resolve({ status, output }));
  });
}

describe('@spq/client from its npm tarball', () => {
  it('installs into a scratch project and runs on plain Node with its types', async () => {
    const packed = await run('npm', ['pack', '--pack-destination', work, '--silent'], PACKAGE);
    expect(packed.status, packed.output).toBe(0);
    const tarball = readdirSync(work).find((f) => /^spq-client-.*\.tgz$/.test(f))!;
    const project = join(work, 'project');
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--offline', join(work, tarball)], project);
    expect(installed.status, installed.output).toBe(0);
    writeFileSync(
      join(project, 'main.js'),
      `import { SpqClient, NotFoundError } from '@spq/client';
const spq = new SpqClient({ baseUrl: process.env.SPQ_URL, apiKey: process.env.SPQ_API_KEY });
const credits = await spq.credits();
const missing = await spq.query('qry_nope').catch((e) => e);
const replicates = await spq.replicates(5, { geography_level: 'suburb', geography_selections: ['Fitzroy'], dataset_type: 'persons', n_observations: 5 });
console.log(JSON.stringify({ node: process.version, credits: credits.credits_remaining, notFound: missing instanceof NotFoundError, implicates: replicates.map((r) => r.metadata.implicate) }));
`,
    );
    // The machine's own node where it has one (not the project's Node 24): the package must need nothing newer than 20.
    const machinePath = (process.env['PATH'] ?? '').split(':').filter((p) => !p.includes('node_modules')).join(':');
    const machineNode = spawnSync('node', ['--version'], { env: { ...process.env, PATH: machinePath } }).status === 0 ? 'node' : process.execPath;
    const node = await run(machineNode, ['main.js'], project, { SPQ_URL: s.baseUrl, SPQ_API_KEY: key, PATH: machinePath });
    expect(node.status, node.output).toBe(0);
    const out = JSON.parse(node.output.trim().split('\n').at(-1)!) as { node: string; credits: number; notFound: boolean; implicates: number[] };
    expect(Number(out.node.slice(1).split('.')[0])).toBeGreaterThanOrEqual(20);
    const expected = (await (await s.call('/account/credits', { key })).json()).credits_remaining as number;
    // Five replicates, one credit each, from implicates 1..5.
    expect(out).toMatchObject({ credits: expected + 5, notFound: true, implicates: [1, 2, 3, 4, 5] });

    // Its declarations type a consumer's code (and refuse a wrong field).
    writeFileSync(
      join(project, 'typed.ts'),
      `import { SpqClient, type ExecuteResult } from '@spq/client';
const spq = new SpqClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'spq_test_x' });
export const run = async (): Promise<string> => { const r: ExecuteResult = await spq.execute({ geography_level: 'postcode', geography_selections: ['7000'], dataset_type: 'persons', n_observations: 5 }); return r.metadata.seed; };
`,
    );
    writeFileSync(join(project, 'wrong.ts'), `import { SpqClient } from '@spq/client';\nnew SpqClient({ baseUrl: 'x', apiKey: 'y' }).execute({ geography_level: 'planet' });\n`);
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const options = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--typeRoots', join(import.meta.dirname, '..', '..', 'node_modules', '@types')];
    const typed = await run(process.execPath, [tsc, ...options, 'typed.ts'], project);
    expect(typed.status, typed.output).toBe(0);
    const wrong = await run(process.execPath, [tsc, ...options, 'wrong.ts'], project);
    expect(wrong.status).not.toBe(0);
    expect(wrong.output).toMatch(/planet/);
  }, 120_000);
});
