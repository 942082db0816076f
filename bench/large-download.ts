/**
 * A large csv download on both file stores (issue 32: "a 785 MB csv download: Content-Length
 * present with and without Accept-Encoding; transfer ≤ 50 MB compressed — in both stacks").
 * Exports a 1 M-person csv from a synthetic release, stores it in the local store and in the S3
 * store (s3rver behind the SigV4 guard, test/support/s3-server.ts) composed with service links,
 * waits for the compressed copies, then asks each store's download path for each representation
 * the way the download route hands it out (S3: a HEAD and a GET of the presigned URL the route
 * redirects to; local: the sizes and bytes the route sends) and prints Content-Length and the
 * bytes that crossed the wire.
 * Usage: node bin/run-ts.js bench/large-download.ts [--persons 2000000] [--n 1000000]
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLocalFileStore } from '../src/adapters/filestore/local.ts';
import { createS3FileStore } from '../src/adapters/filestore/s3.ts';
import { openPoolRelease } from '../src/adapters/pools/release.ts';
import type { ContentCoding, FileStore } from '../src/ports/file-store.ts';
import { startS3Server } from '../test/support/s3-server.ts';
import { buildSyntheticRelease } from './pool-release-synthetic.ts';

const { values } = parseArgs({ options: { persons: { type: 'string', default: '2000000' }, n: { type: 'string', default: '1000000' } } });
const MB = (b: number) => `${(b / 1e6).toFixed(1)} MB`;

/** Status, Content-Length and Content-Encoding of a request, and the bytes that came. */
function fetchCounted(url: string, method: 'GET' | 'HEAD'): Promise<{ status: number; length: string | undefined; encoding: string | undefined; received: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method }, (res) => {
      let received = 0;
      res.on('data', (c: Buffer) => (received += c.length));
      res.on('end', () => resolve({ status: res.statusCode!, length: res.headers['content-length'], encoding: res.headers['content-encoding'], received }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function report(name: string, store: FileStore, key: string): Promise<void> {
  const t0 = performance.now();
  await store.settled(key);
  console.log(`${name}: copies written ${((performance.now() - t0) / 1000).toFixed(1)} s after put resolved`);
  for (const coding of ['zstd', 'gzip', undefined] as (ContentCoding | undefined)[]) {
    const size = await store.size(key, coding);
    const label = coding ?? 'identity';
    if (store.directUrl === undefined) {
      console.log(`| ${name} | ${label} | Content-Length ${size === undefined ? 'none' : MB(size)} (HEAD the same) | ${size === undefined ? '' : MB(size)} sent |`);
      continue;
    }
    const expiresAt = new Date(Date.now() + 300_000);
    const options = { ...(coding === undefined ? {} : { coding }) };
    const head = await fetchCounted(await store.directUrl(key, 'spq-bench-persons.csv', expiresAt, { method: 'HEAD', ...options }), 'HEAD');
    const get = await fetchCounted(await store.directUrl(key, 'spq-bench-persons.csv', expiresAt, { method: 'GET', ...options }), 'GET');
    console.log(`| ${name} | ${label} | HEAD ${head.status} Content-Length ${head.length === undefined ? 'none' : MB(Number(head.length))}, GET ${get.status} Content-Length ${get.length === undefined ? 'none' : MB(Number(get.length))} ${get.encoding ?? ''} | ${MB(get.received)} received |`);
  }
}

const tmp = await mkdtemp(join(tmpdir(), 'spq-bench-download-'));
const s3 = await startS3Server('spq-bench');
try {
  const built = await buildSyntheticRelease(tmp, Math.ceil(Number(values.persons) / 5000), 5000);
  const release = await openPoolRelease(built.dir);
  const australia = release.resolve('australia', 'Australia');
  if (!australia.ok) throw new Error('no Australia');
  const rows = release.sample(australia.value, 'persons', Number(values.n), 1n);
  const stores: [string, FileStore][] = [
    ['local', createLocalFileStore({ dir: join(tmp, 'data'), baseUrl: 'http://127.0.0.1:8080', secret: 'bench-secret-bench-secret-bench-secret' })],
    ['s3', createS3FileStore(s3.config, { serviceLinks: { baseUrl: 'http://127.0.0.1:8080', secret: 'bench-secret-bench-secret-bench-secret' } })],
  ];
  for (const [name, store] of stores) {
    const path = join(tmp, `${name}.csv`);
    await release.export({ dataset: 'persons', parts: [{ selection: australia.value, rows }], format: 'csv', includeGeography: 'none', metadata: { version: release.version, seed: '1' }, destPath: path });
    const bytes = (await stat(path)).size;
    const t0 = performance.now();
    await store.put('qry_bench.csv', path, 'text/csv; charset=utf-8');
    console.log(`${name}: ${MB(bytes)} csv of ${rows.length.toLocaleString()} persons stored in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await report(name, store, 'qry_bench.csv');
  }
  await release.close();
  for (const [, store] of stores) (store as { destroy?: () => void }).destroy?.();
} finally {
  await s3.stop();
  await rm(tmp, { recursive: true, force: true });
}
