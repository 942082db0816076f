import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../../config.ts';
import { isCompressible, STORED_CODINGS, type ContentCoding, type FileStore } from '../../ports/file-store.ts';
import { ENCODE_BEFORE_PUT_BYTES, encodedKey, encodeFile, EncodingJobs } from './encodings.ts';
import { assertRange, assertSafeKey, attachmentDisposition } from './file-keys.ts';
import { serviceLink, type ServiceLinks } from './service-links.ts';

/**
 * Result files in an S3-compatible bucket (scale-out): any instance can hand out any file.
 * download_url is a SigV4 presigned GET, which the client fetches from the bucket directly.
 *
 * SigV4 presigned URLs live at most 7 days, and only as long as the credentials that signed
 * them: sign with long-lived keys (an IAM user's), not temporary STS/role credentials, or links
 * die when the session token does (see docs/storage-and-limits.md).
 * A csv or JSON file's compressed representations are objects of their own, <key>.zst and
 * <key>.gz, stored with their Content-Encoding (the local store's layout).
 *
 * With `serviceLinks` (what `spq serve` composes), download_url is the service's own signed link
 * instead: its route checks it (403/410 as JSON, HEAD, the per-address limit), picks the
 * representation the client accepts and redirects to a presigned URL of that object for the
 * request's method (directUrl), so the bytes still come from the bucket, compressed, with
 * their Content-Length, and a range from the file itself.
 */
export interface S3FileStoreOptions {
  /** Multipart part size in bytes (S3's minimum is 5 MiB). Files up to one part go in one PUT. */
  readonly partSize?: number;
  /** Clock for presigning (ms since epoch); tests move it. */
  readonly now?: () => number;
  /** Download links through the service's route (which redirects to directUrl); without, download_url is a presigned GET of the file itself. */
  readonly serviceLinks?: ServiceLinks;
}

export interface S3FileStore extends FileStore {
  /** Closes the client's sockets. */
  destroy(): void;
}

/** SigV4's ceiling for X-Amz-Expires. */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;
const DEFAULT_PART_SIZE = 16 * 1024 * 1024;

const isNotFound = (e: unknown) =>
  e instanceof S3ServiceException && (e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata.httpStatusCode === 404);

export function createS3Client(config: S3Config): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // Only send/check checksums where S3 requires them: many S3-compatible stores do not
    // understand the SDK's default trailing-checksum (aws-chunked) uploads.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export function createS3FileStore(config: S3Config, options: S3FileStoreOptions = {}): S3FileStore {
  const client = createS3Client(config);
  const Bucket = config.bucket;
  const partSize = options.partSize ?? DEFAULT_PART_SIZE;
  const now = options.now ?? Date.now;
  const jobs = new EncodingJobs();
  const objectKey = (key: string, coding: ContentCoding | undefined) => (coding === undefined ? key : encodedKey(key, coding));
  const removeEncoded = (key: string) => Promise.all(STORED_CODINGS.map((c) => client.send(new DeleteObjectCommand({ Bucket, Key: encodedKey(key, c) }))));

  /**
   * Streams a file into an object: lib-storage buffers one part at a time (two in flight) and
   * switches to a multipart upload when the file is larger than one part.
   */
  async function upload(Key: string, path: string, ContentType: string, ContentEncoding?: ContentCoding): Promise<void> {
    const params = { Bucket, Key, Body: createReadStream(path), ContentType, ...(ContentEncoding === undefined ? {} : { ContentEncoding }) };
    await new Upload({ client, params, partSize, queueSize: 2, leavePartsOnError: false }).done();
  }

  /** A presigned URL for the time left until expiresAt (at least 1 s, at most SigV4's 7 days), signed by the injected clock. */
  function presign(command: GetObjectCommand | HeadObjectCommand, expiresAt: Date): Promise<string> {
    const signedAt = now();
    const seconds = Math.min(MAX_PRESIGN_SECONDS, Math.max(1, Math.floor((expiresAt.getTime() - signedAt) / 1000)));
    return getSignedUrl(client, command, { expiresIn: seconds, signingDate: new Date(signedAt) });
  }

  /** Compresses the local file beside itself and uploads the result as the key's representation in `coding`. */
  async function putEncoded(key: string, localPath: string, contentType: string, coding: ContentCoding): Promise<void> {
    const path = encodedKey(localPath, coding);
    try {
      await encodeFile(localPath, path, coding);
      await upload(encodedKey(key, coding), path, contentType, coding);
    } finally {
      await rm(path, { force: true });
    }
  }

  return {
    async put(key, localPath, contentType) {
      assertSafeKey(key);
      // A replaced file's representations go first: they never stand for other bytes.
      await jobs.settled(key);
      await removeEncoded(key);
      await upload(key, localPath, contentType);
      if (!isCompressible(contentType)) {
        await rm(localPath, { force: true });
        return;
      }
      const size = (await stat(localPath)).size;
      const job = jobs.start(key, async () => {
        try {
          await Promise.allSettled(STORED_CODINGS.map((coding) => putEncoded(key, localPath, contentType, coding)));
        } finally {
          await rm(localPath, { force: true });
        }
      });
      if (size <= ENCODE_BEFORE_PUT_BYTES) await job;
    },

    async downloadUrl(key, fileName, expiresAt) {
      assertSafeKey(key);
      if (options.serviceLinks !== undefined) return serviceLink(options.serviceLinks, key, fileName, expiresAt);
      return presign(new GetObjectCommand({ Bucket, Key: key, ResponseContentDisposition: attachmentDisposition(fileName) }), expiresAt);
    },

    async directUrl(key, fileName, expiresAt, { coding, method }) {
      assertSafeKey(key);
      const object = { Bucket, Key: objectKey(key, coding), ResponseContentDisposition: attachmentDisposition(fileName) };
      // SigV4 signs the method: a HEAD needs a URL of its own.
      return presign(method === 'HEAD' ? new HeadObjectCommand(object) : new GetObjectCommand(object), expiresAt);
    },

    async size(key, coding) {
      assertSafeKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key, coding) }));
        return head.ContentLength;
      } catch (e) {
        if (isNotFound(e)) return undefined;
        throw e;
      }
    },

    async read(key, range, coding): Promise<Readable | undefined> {
      assertSafeKey(key);
      assertRange(range);
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket, Key: objectKey(key, coding), ...(range === undefined ? {} : { Range: `bytes=${range.start}-${range.end}` }) }),
        );
        // In Node the SDK's body is an http.IncomingMessage (a Readable) with helper mixins.
        return object.Body as Readable | undefined;
      } catch (e) {
        if (isNotFound(e)) return undefined;
        throw e;
      }
    },

    settled: (key) => jobs.settled(key),

    async delete(key) {
      assertSafeKey(key);
      // A job still uploading would put its representation back after the delete.
      await jobs.settled(key);
      await Promise.all([client.send(new DeleteObjectCommand({ Bucket, Key: key })), removeEncoded(key)]);
    },

    destroy: () => client.destroy(),
  };
}
