import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SPQ = join(import.meta.dirname, '..', '..', 'bin', 'spq.js');

async function spq(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [SPQ, ...args], { env: { ...process.env, ...env }, maxBuffer: 64 << 20 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('spq demo-inputs and spq build', () => {
  let root: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'spq-cli-build-'));
    env = { SPQ_DATA_DIR: join(root, 'data') };
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes demo inputs, then builds them with a JSON summary on stdout and progress on stderr', async () => {
    const generated = await spq(['demo-inputs', '--out', join(root, 'inputs'), '--suburbs', '12', '--seed', '3'], env);
    expect(generated.code, generated.stderr).toBe(0);

    const built = await spq(['build', '--inputs', join(root, 'inputs'), '--json', '--version', 'cli-test'], env);
    expect(built.code, built.stderr).toBe(0);
    const summary = JSON.parse(built.stdout) as Record<string, unknown>;
    for (const field of ['version', 'suburbs', 'persons', 'families', 'dwellings', 'variables', 'srmse_median', 'srmse_p95', 'truth_srmse_median', 'structural_violations', 'seconds', 'peak_rss_mb']) {
      expect(summary, field).toHaveProperty(field);
    }
    expect(summary['version']).toBe('cli-test');
    expect(summary['suburbs']).toBe(12);
    expect(summary['structural_violations']).toBe(0);
    expect(typeof summary['truth_srmse_median']).toBe('number');
    expect(built.stderr).toMatch(/synthesizing areas/);
    const manifest = JSON.parse(await readFile(join(root, 'data', 'pools', 'cli-test', 'manifest.json'), 'utf8')) as { version: string };
    expect(manifest.version).toBe('cli-test');
  });

  it('stops on a malformed input file with an error naming file, row and column, and exit code 2', async () => {
    const generated = await spq(['demo-inputs', '--out', join(root, 'bad'), '--suburbs', '6', '--seed', '4'], env);
    expect(generated.code, generated.stderr).toBe(0);
    const { stdout: found } = await run('find', [join(root, 'bad'), '-name', '2021Census_G04A_AUST_SAL.csv']);
    const file = found.trim();
    const lines = (await readFile(file, 'utf8')).split('\n');
    const cells = lines[2]!.split(',');
    cells[3] = 'twelve';
    lines[2] = cells.join(',');
    await writeFile(file, lines.join('\n'));
    const header = lines[0]!.split(',')[3]!;

    const built = await spq(['build', '--inputs', join(root, 'bad'), '--version', 'bad-test'], env);
    expect(built.code).toBe(2);
    expect(built.stderr).toContain('2021Census_G04A_AUST_SAL.csv');
    expect(built.stderr).toContain('row 3');
    expect(built.stderr).toContain(header);
  });
});
