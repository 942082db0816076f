import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalFileStore } from '../../../src/adapters/filestore/local.ts';
import { verifyLink } from '../../../src/core/links.ts';
import type { FileStore } from '../../../src/ports/file-store.ts';
import { fileStoreContract, serviceLinkDownload } from './file-store.contract.ts';

const SECRET = 'local-store-test-secret';
const BASE = 'http://127.0.0.1:8080';
const dirs: string[] = [];
let current: FileStore | undefined;

fileStoreContract('local', {
  make: async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spq-local-store-'));
    dirs.push(dir);
    current = createLocalFileStore({ dir, baseUrl: `${BASE}/`, secret: SECRET });
    return current;
  },
  download: serviceLinkDownload(BASE, SECRET, () => current),
});

/** A store in a directory of its own (removed after the file's tests). */
async function freshStore(): Promise<{ dir: string; store: FileStore }> {
  const dir = await mkdtemp(join(tmpdir(), 'spq-local-store-'));
  dirs.push(dir);
  return { dir, store: createLocalFileStore({ dir, baseUrl: BASE, secret: SECRET }) };
}

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('local file store', () => {
  it('stores result files readable by the service\'s user only (0600 in a 0700 directory)', async () => {
    const { dir, store } = await freshStore();
    const source = join(dir, 'upload.csv');
    await writeFile(source, 'a,b\n', { mode: 0o644 });
    await store.put('qry_mode.csv', source, 'text/csv');
    const files = join(dir, 'files');
    expect((await stat(join(files, 'qry_mode.csv'))).mode & 0o777).toBe(0o600);
    expect((await stat(files)).mode & 0o777).toBe(0o700);
  });

  it('removes with a file the partial copies a killed process left beside it, and no other file\'s', async () => {
    const { dir, store } = await freshStore();
    const source = join(dir, 'upload.csv');
    await writeFile(source, 'a,b\n');
    await store.put('qry_killed.csv', source, 'text/csv');
    const files = join(dir, 'files');
    // What a kill -9 during the compression or a cross-filesystem copy leaves behind.
    for (const name of ['qry_killed.csv.zst.partial-0a1b2c3d4e5f', 'qry_killed.csv.partial-0a1b2c3d4e5f', 'qry_other.csv.gz.partial-0a1b2c3d4e5f']) await writeFile(join(files, name), 'x');
    await store.delete('qry_killed.csv');
    expect((await readdir(files)).sort()).toEqual(['qry_other.csv.gz.partial-0a1b2c3d4e5f']);
  });

  it('sweeps the partial copies a kill left idle before the cut-off, under any key, and nothing else', async () => {
    const { dir, store } = await freshStore();
    const source = join(dir, 'upload.csv');
    await writeFile(source, 'a,b\n1,2\n');
    await store.put('qry_kept.csv', source, 'text/csv');
    const files = join(dir, 'files');
    await mkdir(join(files, 'nested'), { recursive: true });
    // A kill -9 during the background compression of a kept file (its key is not deleted for days),
    // during a cross-filesystem copy, and one under a nested key; then a copy still being written.
    const stale = ['qry_kept.csv.zst.partial-0a1b2c3d4e5f', 'qry_gone.csv.partial-aaaaaaaaaaaa', 'nested/qry_n.csv.gz.partial-0123456789ab'];
    const longAgo = new Date(Date.now() - 3_600_000);
    for (const name of stale) {
      await writeFile(join(files, name), 'half a frame');
      await utimes(join(files, name), longAgo, longAgo);
    }
    await writeFile(join(files, 'qry_kept.csv.gz.partial-ffffffffffff'), 'being written');
    // Complete files older than the cut-off are no partials, whatever their age.
    await utimes(join(files, 'qry_kept.csv.zst'), longAgo, longAgo);
    const cutOff = new Date(Date.now() - 600_000);
    expect(await store.removeStalePartials?.(cutOff)).toBe(3);
    expect((await readdir(files, { recursive: true })).sort()).toEqual(['nested', 'qry_kept.csv', 'qry_kept.csv.gz', 'qry_kept.csv.gz.partial-ffffffffffff', 'qry_kept.csv.zst']);
    expect(await store.size('qry_kept.csv', 'zstd')).toBeGreaterThan(0);
    expect(await store.removeStalePartials?.(cutOff)).toBe(0);
    // Before any file was stored there is nothing to sweep, and no error.
    expect(await createLocalFileStore({ dir: join(dir, 'empty'), baseUrl: BASE, secret: SECRET }).removeStalePartials?.(new Date())).toBe(0);
  });

  it('keeps files under <dir>/files and refuses keys that would leave it', async () => {
    const { dir, store } = await freshStore();
    for (const bad of ['../escape.csv', '/etc/passwd', 'a/../../b', 'a\\b', '', 'a//b']) {
      await expect(store.size(bad)).rejects.toThrow(/unsafe file key/);
      await expect(store.delete(bad)).rejects.toThrow(/unsafe file key/);
    }
    expect(await store.read('missing.csv')).toBeUndefined();
  });

  it('signs the key, expiry and file name into the link path', async () => {
    const store = createLocalFileStore({ dir: tmpdir(), baseUrl: BASE, secret: SECRET });
    const url = await store.downloadUrl('qry_1.csv', 'spq qry_1 persons.csv', new Date(2_000_000_000_500));
    const [, token, name] = /\/downloads\/([^/]+)\/([^/]+)$/.exec(url) as RegExpExecArray;
    expect(decodeURIComponent(name as string)).toBe('spq qry_1 persons.csv');
    expect(verifyLink(SECRET, token as string, 1_900_000_000)).toEqual({ ok: true, value: { key: 'qry_1.csv', expiresAt: 2_000_000_000, fileName: 'spq qry_1 persons.csv' } });
  });

  it('streams only the requested range', async () => {
    expect(current).toBeDefined();
    const stream = (await (current as FileStore).read('nope.csv', { start: 0, end: 1 })) as Readable | undefined;
    expect(stream).toBeUndefined();
    await expect((current as FileStore).read('x.csv', { start: 5, end: 2 })).rejects.toThrow(RangeError);
  });
});
