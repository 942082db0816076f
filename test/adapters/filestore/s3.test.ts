import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3FileStore, MAX_PRESIGN_SECONDS, type S3FileStore } from '../../../src/adapters/filestore/s3.ts';
import { startS3Server, type TestS3Server } from '../../support/s3-server.ts';
import { fileStoreContract, serviceLinkDownload, type Download } from './file-store.contract.ts';

const PART = 5 * 1024 * 1024; // S3's minimum part size: the large-file test uploads 3 parts.
let server: TestS3Server | undefined;
const stores: S3FileStore[] = [];

async function download(url: string): Promise<Download> {
  const response = await fetch(url);
  const body = Buffer.from(await response.arrayBuffer());
  if (response.ok) return { outcome: 'ok', bytes: body, contentDisposition: response.headers.get('content-disposition') ?? '' };
  // S3 answers 403 to both; only the message tells an expired signature from a wrong one.
  if (response.status === 403 && /expired/i.test(body.toString('utf8'))) return { outcome: 'expired' };
  return { outcome: 'refused' };
}

const LINK_SECRET = 's3-store-test-link-secret';
const SERVICE = 'http://127.0.0.1:8080';
let linked: S3FileStore | undefined;

// The store alone: download_url is a presigned GET of the file itself.
fileStoreContract('s3 (s3rver)', {
  make: async () => {
    server = await startS3Server();
    const store = createS3FileStore(server.config, { partSize: PART });
    stores.push(store);
    return store;
  },
  download,
  multipartPartSize: PART,
  teardown: async () => {
    for (const store of stores) store.destroy();
    await server?.stop();
  },
});

// As `spq serve` composes it: links through the service, whose route redirects to the store's presigned URL.
let linkedServer: TestS3Server | undefined;
fileStoreContract('s3 (s3rver) with service links', {
  make: async () => {
    linkedServer = await startS3Server();
    linked = createS3FileStore(linkedServer.config, { partSize: PART, serviceLinks: { baseUrl: `${SERVICE}/`, secret: LINK_SECRET } });
    return linked;
  },
  download: serviceLinkDownload(SERVICE, LINK_SECRET, () => linked),
  multipartPartSize: PART,
  teardown: async () => {
    linked?.destroy();
    await linkedServer?.stop();
  },
});

describe('s3 file store', () => {
  let own: TestS3Server;
  let scratch: string;
  beforeAll(async () => {
    own = await startS3Server('spq-other');
    scratch = await mkdtemp(join(tmpdir(), 'spq-s3-test-'));
  });
  afterAll(async () => {
    await own.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('presigns for the time left until expiresAt, capped at SigV4’s 7 days, from the injected clock', async () => {
    const signedAt = Date.UTC(2030, 0, 1);
    const store = createS3FileStore(own.config, { now: () => signedAt });
    const url = new URL(await store.downloadUrl('qry_1.csv', 'a.csv', new Date(signedAt + 90_500)));
    expect(url.searchParams.get('X-Amz-Expires')).toBe('90');
    expect(url.searchParams.get('X-Amz-Date')).toBe('20300101T000000Z');
    expect(url.searchParams.get('response-content-disposition')).toBe(`attachment; filename="a.csv"; filename*=UTF-8''a.csv`);
    const far = new URL(await store.downloadUrl('qry_1.csv', 'a.csv', new Date(signedAt + 30 * 86_400_000)));
    expect(Number(far.searchParams.get('X-Amz-Expires'))).toBe(MAX_PRESIGN_SECONDS);
    store.destroy();
  });

  it('a link signed in the past with a lifetime already over is refused as expired', async () => {
    const store = createS3FileStore(own.config, { now: () => Date.now() - 60_000 });
    const path = join(scratch, `${randomUUID()}.csv`);
    await writeFile(path, 'a\n1\n');
    await store.put('qry_old.csv', path, 'text/csv');
    const url = await store.downloadUrl('qry_old.csv', 'old.csv', new Date(Date.now() - 30_000));
    expect((await download(url)).outcome).toBe('expired');
    store.destroy();
  });

  it('uploads a large file as a multipart upload, a small one as one PUT', async () => {
    const store = createS3FileStore(own.config, { partSize: PART });
    const big = join(scratch, `${randomUUID()}.bin`);
    await writeFile(big, Buffer.alloc(PART + 1, 7));
    const before = own.requests.length;
    await store.put('qry_big.bin', big, 'application/octet-stream');
    const seen = own.requests.slice(before);
    expect(seen.filter((r) => /^POST \/spq-other\/qry_big\.bin\?uploads/.test(r))).toHaveLength(1);
    expect(seen.filter((r) => /^PUT .*partNumber=/.test(r))).toHaveLength(2);
    expect(seen.filter((r) => /^POST .*uploadId=/.test(r))).toHaveLength(1); // complete
    const small = join(scratch, `${randomUUID()}.bin`);
    await writeFile(small, 'tiny');
    const mark = own.requests.length;
    await store.put('qry_small.bin', small, 'application/octet-stream');
    // One PUT (after clearing the compressed copies a replaced csv may have left).
    expect(own.requests.slice(mark).filter((r) => !r.startsWith('DELETE '))).toEqual(['PUT /spq-other/qry_small.bin?x-id=PutObject']);
    store.destroy();
  });

  it('is refused by the server when signed with the wrong secret, and objects are not public', async () => {
    const store = createS3FileStore({ ...own.config, secretAccessKey: 'wrong' });
    const path = join(scratch, `${randomUUID()}.csv`);
    await writeFile(path, 'x');
    await expect(store.put('qry_wrong.csv', path, 'text/csv')).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    store.destroy();
    const response = await fetch(`${own.endpoint}/spq-other/qry_small.bin`);
    expect(response.status).toBe(403);
  });

  it('fails loudly, not silently, when the bucket does not exist', async () => {
    const store = createS3FileStore({ ...own.config, bucket: 'no-such-bucket' });
    const path = join(scratch, `${randomUUID()}.csv`);
    await writeFile(path, 'x');
    await expect(store.put('qry_x.csv', path, 'text/csv')).rejects.toThrow();
    store.destroy();
  });
});
