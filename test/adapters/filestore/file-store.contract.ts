import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLink } from '../../../src/core/links.ts';
import { gunzipSync, zstdDecompressSync } from 'node:zlib';
import { ENCODE_BEFORE_PUT_BYTES } from '../../../src/adapters/filestore/encodings.ts';
import type { ContentCoding, FileStore } from '../../../src/ports/file-store.ts';
import { requestBytes } from '../../support/raw-request.ts';

/**
 * The behaviour every FileStore must show (local and S3 run this same suite). How a download
 * URL is fetched differs: S3 URLs are fetched over HTTP from the bucket; local URLs go to the
 * service's own download route (the HTTP layer's), so the local harness does what that route
 * does with the store: verify the token, then read the key.
 */
export type Download =
  | { readonly outcome: 'ok'; readonly bytes: Buffer; readonly contentDisposition: string | undefined }
  | { readonly outcome: 'expired' }
  | { readonly outcome: 'refused' };

export interface FileStoreHarness {
  make(): Promise<FileStore>;
  download(url: string): Promise<Download>;
  /** Whether put streams large files in parts, and the part size the harness configured. */
  readonly multipartPartSize?: number;
  teardown?(): Promise<void>;
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/**
 * For stores whose links point at the service (`${base}/downloads/<token>/<fileName>`): what the
 * download route does with such a link, verify the token, then hand out the key: redirect to the
 * store's own URL for it (directUrl, S3) and fetch that, or read it from the store.
 */
export function serviceLinkDownload(base: string, secret: string, store: () => FileStore | undefined): (url: string) => Promise<Download> {
  return async (url) => {
    const match = new RegExp(`^${base}/downloads/([^/]+)/([^/]+)$`).exec(url);
    const current = store();
    if (match === null || current === undefined) return { outcome: 'refused' };
    const claims = verifyLink(secret, match[1] as string, Math.floor(Date.now() / 1000));
    if (!claims.ok) return { outcome: claims.error === 'expired' ? 'expired' : 'refused' };
    const fileName = decodeURIComponent(match[2] as string);
    if (current.directUrl !== undefined) {
      const response = await fetch(await current.directUrl(claims.value.key, fileName, new Date(Date.now() + 60_000), { method: 'GET' }));
      if (!response.ok) return { outcome: 'refused' };
      return { outcome: 'ok', bytes: Buffer.from(await response.arrayBuffer()), contentDisposition: response.headers.get('content-disposition') ?? '' };
    }
    const stream = await current.read(claims.value.key);
    if (stream === undefined) return { outcome: 'refused' };
    return { outcome: 'ok', bytes: await readAll(stream), contentDisposition: fileName };
  };
}

/** What a client gets for one representation of a key through the store's download path. */
interface Served {
  readonly status: number;
  readonly contentLength: string | null;
  readonly contentEncoding: string | null;
  readonly contentRange: string | null;
  readonly body: Buffer;
}

/**
 * A representation as the download route hands it out: from the store's own URL over HTTP where
 * it has one (S3: the response's real headers), else from size() and read() as the route sends them.
 */
async function served(store: FileStore, key: string, options: { coding?: ContentCoding; method: 'GET' | 'HEAD'; range?: { start: number; end: number } }): Promise<Served> {
  const { coding, method, range } = options;
  if (store.directUrl !== undefined) {
    const url = await store.directUrl(key, 'f.csv', new Date(Date.now() + 60_000), { method, ...(coding === undefined ? {} : { coding }) });
    const answer = await requestBytes(url, range === undefined ? {} : { range: `bytes=${range.start}-${range.end}` }, method);
    const h = (name: string) => (answer.headers[name] as string | undefined) ?? null;
    return { status: answer.status, contentLength: h('content-length'), contentEncoding: h('content-encoding'), contentRange: h('content-range'), body: answer.body };
  }
  const size = (await store.size(key, coding))!;
  const body = method === 'HEAD' ? Buffer.alloc(0) : await readAll((await store.read(key, range, coding))!);
  return {
    status: range === undefined ? 200 : 206,
    contentLength: String(range === undefined ? size : range.end - range.start + 1),
    contentEncoding: coding ?? null,
    contentRange: range === undefined ? null : `bytes ${range.start}-${range.end}/${size}`,
    body,
  };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export function fileStoreContract(name: string, harness: FileStoreHarness): void {
  describe(`FileStore contract: ${name}`, () => {
    let store: FileStore;
    let scratch: string;
    beforeAll(async () => {
      store = await harness.make();
      scratch = await mkdtemp(join(tmpdir(), 'spq-fs-contract-'));
    });
    afterAll(async () => {
      await harness.teardown?.();
      await rm(scratch, { recursive: true, force: true });
    });

    /** A finished local file as execute leaves it, ready to put. */
    async function localFile(bytes: Buffer): Promise<string> {
      const path = join(scratch, `${randomUUID()}.tmp`);
      await writeFile(path, bytes);
      return path;
    }
    const key = (ext = 'csv') => `qry_${randomUUID().replaceAll('-', '')}.${ext}`;

    it('puts a file, then reports its size and reads it back whole and by range', async () => {
      const bytes = Buffer.from('person_id,age\n1,34\n2,71\n3,5\n', 'utf8');
      const k = key();
      await store.put(k, await localFile(bytes), 'text/csv; charset=utf-8');
      expect(await store.size(k)).toBe(bytes.length);
      expect(await readAll((await store.read(k)) as Readable)).toEqual(bytes);
      expect(await readAll((await store.read(k, { start: 0, end: 1 })) as Readable)).toEqual(bytes.subarray(0, 2));
      expect(await readAll((await store.read(k, { start: 14, end: 18 })) as Readable)).toEqual(bytes.subarray(14, 19));
      const last = bytes.length - 1;
      expect(await readAll((await store.read(k, { start: last - 2, end: last })) as Readable)).toEqual(bytes.subarray(last - 2));
    });

    it('replaces the file under an existing key', async () => {
      const k = key();
      await store.put(k, await localFile(Buffer.from('first version')), 'text/plain');
      await store.put(k, await localFile(Buffer.from('second')), 'text/plain');
      expect(await readAll((await store.read(k)) as Readable)).toEqual(Buffer.from('second'));
    });

    it('reports a missing file as undefined, and deletes idempotently', async () => {
      const k = key();
      expect(await store.size(k)).toBeUndefined();
      expect(await store.read(k)).toBeUndefined();
      await store.put(k, await localFile(Buffer.from('x')), 'text/plain');
      await store.delete(k);
      await store.delete(k);
      expect(await store.size(k)).toBeUndefined();
      expect(await store.read(k, { start: 0, end: 1 })).toBeUndefined();
    });

    it('takes ownership of the local file', async () => {
      const path = await localFile(Buffer.from('moved'));
      await store.put(key(), path, 'text/plain');
      expect(existsSync(path)).toBe(false);
    });

    it('stores a file larger than one upload part byte for byte', async () => {
      const partSize = harness.multipartPartSize ?? 5 * 1024 * 1024;
      const bytes = randomBytes(partSize * 2 + 12_345);
      const k = key('parquet');
      await store.put(k, await localFile(bytes), 'application/vnd.apache.parquet');
      expect(await store.size(k)).toBe(bytes.length);
      expect(sha256(await readAll((await store.read(k)) as Readable))).toBe(sha256(bytes));
      const mid = { start: partSize - 10, end: partSize + 9 }; // across the part boundary
      expect(await readAll((await store.read(k, mid)) as Readable)).toEqual(bytes.subarray(mid.start, mid.end + 1));
      await store.delete(k);
    });

    const decode = (coding: ContentCoding, bytes: Buffer) => (coding === 'zstd' ? zstdDecompressSync(bytes) : gunzipSync(bytes));
    /** csv-like text: labels that repeat, as a result file's do. */
    const csvText = (rows: number) => Buffer.from(`person_id,age,sex\n${Array.from({ length: rows }, (_, i) => `P${String(i).padStart(9, '0')},${['0-4 years', '25-29 years', '85 years and over'][i % 3]},${i % 2 ? 'Male' : 'Female'}`).join('\n')}\n`);

    it('holds a csv or JSON file compressed too (zstd and gzip), each with its size, whole and by range', async () => {
      const bytes = csvText(2_000);
      const k = key();
      await store.put(k, await localFile(bytes), 'text/csv; charset=utf-8');
      await store.settled(k);
      for (const coding of ['zstd', 'gzip'] as const) {
        const size = await store.size(k, coding);
        expect(size).toBeGreaterThan(0);
        expect(size!).toBeLessThan(bytes.length / 4);
        const encoded = await readAll((await store.read(k, undefined, coding)) as Readable);
        expect(encoded.length).toBe(size);
        expect(decode(coding, encoded)).toEqual(bytes);
        expect(await readAll((await store.read(k, { start: 5, end: 24 }, coding)) as Readable)).toEqual(encoded.subarray(5, 25));
      }
      const json = Buffer.from(JSON.stringify({ variables: Array.from({ length: 50 }, (_, i) => ({ code: `V${i}`, categories: ['a', 'b'] })) }));
      const d = key('json');
      await store.put(d, await localFile(json), 'application/json');
      expect(gunzipSync(await readAll((await store.read(d, undefined, 'gzip')) as Readable))).toEqual(json);
    });

    it('hands each representation out with its Content-Length and Content-Encoding, for GET and HEAD, and the file by range', async () => {
      const bytes = csvText(3_000);
      const k = key();
      await store.put(k, await localFile(bytes), 'text/csv');
      await store.settled(k);
      for (const coding of ['zstd', 'gzip', undefined] as const) {
        const size = (await store.size(k, coding))!;
        const get = await served(store, k, { method: 'GET', ...(coding === undefined ? {} : { coding }) });
        expect(get.status).toBe(200);
        expect(get.contentLength).toBe(String(size));
        expect(get.contentEncoding).toBe(coding ?? null);
        expect(get.body.length).toBe(size);
        expect(coding === undefined ? get.body : decode(coding, get.body)).toEqual(bytes);
        const head = await served(store, k, { method: 'HEAD', ...(coding === undefined ? {} : { coding }) });
        expect([head.status, head.contentLength, head.contentEncoding, head.body.length]).toEqual([200, String(size), coding ?? null, 0]);
      }
      const part = await served(store, k, { method: 'GET', range: { start: 10, end: 29 } });
      expect([part.status, part.contentLength, part.contentRange]).toEqual([206, '20', `bytes 10-29/${bytes.length}`]);
      expect(part.body).toEqual(bytes.subarray(10, 30));
    });

    it('holds no compressed copy of a parquet file, and none survives a delete or a replacement', async () => {
      const p = key('parquet');
      await store.put(p, await localFile(Buffer.from('PAR1 not text PAR1')), 'application/vnd.apache.parquet');
      await store.settled(p);
      expect(await store.size(p, 'zstd')).toBeUndefined();
      expect(await store.read(p, undefined, 'gzip')).toBeUndefined();
      const k = key();
      await store.put(k, await localFile(csvText(100)), 'text/csv');
      const second = csvText(300);
      await store.put(k, await localFile(second), 'text/csv');
      await store.settled(k);
      expect(decode('zstd', await readAll((await store.read(k, undefined, 'zstd')) as Readable))).toEqual(second);
      await store.put(k, await localFile(Buffer.from('now binary')), 'application/zip');
      expect(await store.size(k, 'gzip')).toBeUndefined();
      await store.put(k, await localFile(csvText(10)), 'text/csv');
      await store.delete(k);
      for (const coding of ['zstd', 'gzip'] as const) expect(await store.size(k, coding)).toBeUndefined();
    });

    it('compresses a large file after put, and settled() waits for it', async () => {
      const bytes = csvText(Math.ceil(ENCODE_BEFORE_PUT_BYTES / 30) + 1_000);
      expect(bytes.length).toBeGreaterThan(ENCODE_BEFORE_PUT_BYTES);
      const k = key();
      await store.put(k, await localFile(bytes), 'text/csv');
      expect(await store.size(k)).toBe(bytes.length);
      await store.settled(k);
      const encoded = await readAll((await store.read(k, undefined, 'zstd')) as Readable);
      expect(encoded.length).toBe(await store.size(k, 'zstd'));
      expect(sha256(decode('zstd', encoded))).toBe(sha256(bytes));
      await store.delete(k);
      expect(await store.size(k, 'gzip')).toBeUndefined();
    }, 60_000);

    it('hands out a download URL that returns the bytes and names the file, and carries no API key', async () => {
      const bytes = Buffer.from('dwelling_id\n42\n');
      const k = key();
      await store.put(k, await localFile(bytes), 'text/csv');
      const url = await store.downloadUrl(k, `spq-${k}-persons.csv`, new Date(Date.now() + 7 * 24 * 3600 * 1000 - 1000));
      expect(url).not.toMatch(/spq_(live|test)_/);
      const got = await harness.download(url);
      expect(got.outcome).toBe('ok');
      if (got.outcome !== 'ok') return;
      expect(got.bytes).toEqual(bytes);
      if (got.contentDisposition !== undefined) expect(got.contentDisposition).toContain(`spq-${k}-persons.csv`);
    });

    it('refuses a download URL with an altered signature', async () => {
      const k = key();
      await store.put(k, await localFile(Buffer.from('secret rows')), 'text/csv');
      const url = await store.downloadUrl(k, 'f.csv', new Date(Date.now() + 3600_000));
      // Flip one character of the signature part (the local token's tail, S3's X-Amz-Signature).
      const sigAt = url.includes('X-Amz-Signature=') ? url.indexOf('X-Amz-Signature=') + 'X-Amz-Signature='.length : url.lastIndexOf('/') - 1;
      const flipped = url.slice(0, sigAt) + (url[sigAt] === 'a' ? 'b' : 'a') + url.slice(sigAt + 1);
      expect((await harness.download(flipped)).outcome).toBe('refused');
    });

    it('respects the expiry: a short-lived URL works before it and fails after it', async () => {
      const k = key();
      await store.put(k, await localFile(Buffer.from('short lived')), 'text/csv');
      // Whole seconds on both sides (token and SigV4 dates): 3 s ahead is at least 2 s of life.
      const url = await store.downloadUrl(k, 'f.csv', new Date(Math.floor(Date.now() / 1000) * 1000 + 3000));
      expect((await harness.download(url)).outcome).toBe('ok');
      await new Promise((r) => setTimeout(r, 3200));
      expect((await harness.download(url)).outcome).toBe('expired');
    });
  });
}
