/**
 * `npm start`'s prestart (`scripts/build.mjs --if-stale`): it compiles only when something the
 * build reads is newer than the last complete build, so a first start right after `npm ci`
 * (whose `prepare` built dist/) does not pay for tsc again. Run on a copy of the script in a
 * small project of its own (one source file), so the real dist/ is not touched.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..', '..');
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'spq-build-stale-'));
  await mkdir(join(root, 'scripts'));
  await cp(join(repo, 'scripts', 'build.mjs'), join(root, 'scripts', 'build.mjs'));
  await symlink(join(repo, 'node_modules'), join(root, 'node_modules'));
  await mkdir(join(root, 'src', 'census-input', 'reference'), { recursive: true });
  await writeFile(join(root, 'src', 'census-input', 'reference', 'x.csv'), 'x\n');
  await mkdir(join(root, 'src', 'demo'), { recursive: true });
  await writeFile(join(root, 'src', 'demo', 'inputs.pack.gz'), '');
  await mkdir(join(root, 'src', 'core'), { recursive: true });
  await writeFile(join(root, 'src', 'core', 'common-passwords.json'), '{"passwords":[]}\n');
  await writeFile(join(root, 'src', 'a.ts'), 'export const a: number = 1;\n');
  await writeFile(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', noEmit: true } }));
  await writeFile(join(root, 'tsconfig.build.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: false, outDir: 'dist', rootDir: '.' }, include: ['src'] }));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Runs the copied build script and returns what it wrote to stderr (its messages). */
function run(args: readonly string[]): string {
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: '' } });
  if (result.status !== 0) throw new Error(`build.mjs ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return result.stderr;
}

describe('scripts/build.mjs --if-stale', () => {
  it('compiles when dist/ was never built, skips when nothing changed, compiles again after a source changes', async () => {
    expect(run(['--if-stale'])).toMatch(/compiled to dist\//);
    expect(existsSync(join(root, 'dist', 'src', 'a.js'))).toBe(true);
    // The data files the code reads at run time are copied beside it, as committed.
    for (const data of [['census-input', 'reference', 'x.csv'], ['demo', 'inputs.pack.gz'], ['core', 'common-passwords.json']]) {
      expect(readFileSync(join(root, 'dist', 'src', ...data), 'utf8'), data.join('/')).toBe(readFileSync(join(root, 'src', ...data), 'utf8'));
    }
    expect(run(['--if-stale'])).toMatch(/dist\/ is up to date/);
    const later = new Date(Date.now() + 5000);
    await utimes(join(root, 'src', 'a.ts'), later, later);
    expect(run(['--if-stale'])).toMatch(/compiled to dist\//);
    // Without the flag it always compiles (npm run build, npm ci's prepare).
    expect(run([])).toMatch(/compiled to dist\//);
  }, 120_000);
});

describe('scripts/build.mjs after a move', () => {
  it('drops what a moved or removed source left in dist/: its compiled JavaScript and its copied data', async () => {
    await mkdir(join(root, 'dist', 'src', 'old', 'reference'), { recursive: true });
    for (const stale of ['old/gone.js', 'old/gone.js.map', 'old/reference/x.csv']) await writeFile(join(root, 'dist', 'src', stale), '');
    run([]);
    expect(existsSync(join(root, 'dist', 'src', 'old'))).toBe(false);
    // What still has its source stays.
    expect(existsSync(join(root, 'dist', 'src', 'a.js')) && existsSync(join(root, 'dist', 'src', 'census-input', 'reference', 'x.csv'))).toBe(true);
  }, 120_000);
});
