import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pathToFileURL } from 'node:url';
import S3rver from 's3rver';
import type { S3Config } from '../../src/config.ts';

/**
 * An S3-compatible server for tests and CI, from npm packages only (so `npm ci` installs it):
 *
 *   client ──► SigV4 guard (this file) ──► s3rver (objects on disk, in a fresh temp dir)
 *
 * s3rver implements the S3 REST API (PUT/GET/HEAD/DELETE, multipart uploads, Range,
 * response-content-disposition, presigned-URL expiry) but does not verify SigV4 signatures
 * (its source says "Signature version 4 calculation is unimplemented"). The guard in front
 * does, for header-signed requests and presigned URLs, written from AWS's SigV4 specification
 * rather than with the SDK's signer, so a wrong, altered or expired signature is refused with
 * 403 as S3 refuses it, and a request without a signature is refused as for a private bucket.
 * The guard also stands in for S3 where s3rver falls short of it: byte ranges are resolved
 * against the object's size (suffix and open ranges, `bytes=0-0`, 416 with Content-Range), and
 * presigned URLs are judged against the guard's clock, which a test can set (an in-process
 * `now`, or per bucket a clock URL registered through `/-/clock/<bucket>`), so that links signed
 * with a test's injected clock expire when that clock says. What this pair does not cover is
 * listed in docs/storage-and-limits.md.
 */
export interface TestS3Server {
  readonly endpoint: string;
  /** Settings for createS3FileStore: path-style addressing against this server. */
  readonly config: S3Config;
  /** "METHOD path?query" of every request the guard let through, for tests that check how a client talks S3. */
  readonly requests: readonly string[];
  stop(): Promise<void>;
}

export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** The environment that points `spq serve` at this server's bucket (docs/deploy.md, S3 settings). */
export const s3EnvOf = (s3: TestS3Server): Record<string, string> => ({
  SPQ_S3_ENDPOINT: s3.endpoint,
  SPQ_S3_BUCKET: s3.config.bucket,
  SPQ_S3_REGION: s3.config.region,
  SPQ_S3_ACCESS_KEY_ID: s3.config.accessKeyId,
  SPQ_S3_SECRET_ACCESS_KEY: s3.config.secretAccessKey,
});
const REGION = 'us-east-1';
const MAX_SKEW_MS = 15 * 60 * 1000;

export interface StartOptions {
  readonly bucket?: string;
  /** Port of the guard (the endpoint); 0 picks a free one. */
  readonly port?: number;
  /** Where objects are kept; a fresh temp dir (removed on stop) when absent. */
  readonly directory?: string;
  /**
   * The time presigned URLs are judged by (ms since epoch; Date.now when absent). Header-signed
   * requests are always checked against real time: the SDK signs them with the real clock.
   */
  readonly now?: () => number;
}

/** Path of the guard's own control requests; no bucket name can start with "-". */
const CONTROL = '/-/clock/';

export async function startS3Server(options: StartOptions | string = {}): Promise<TestS3Server> {
  const { bucket = 'spq-test', port = 0, directory: given, now = Date.now } = typeof options === 'string' ? { bucket: options } : options;
  const directory = given ?? (await mkdtemp(join(tmpdir(), 'spq-s3-')));
  const backend = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  const backendPort = (await backend.run()).port;
  const requests: string[] = [];
  // Per-bucket clocks of tests running in other processes: bucket → URL answering with the time in ms.
  const clockUrls = new Map<string, string>();
  const presignNow = async (bucket: string): Promise<number> => {
    const url = clockUrls.get(bucket);
    if (url === undefined) return now();
    const answer = await fetch(url);
    const ms = Number(await answer.text());
    if (!answer.ok || !Number.isFinite(ms)) throw new Error(`clock ${url} answered ${answer.status}`);
    return ms;
  };
  const guard = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    if (url.startsWith(CONTROL)) return control(req, res, decodeURIComponent(url.slice(CONTROL.length)));
    const bucketOfPath = decodeURIComponent(url.split('?')[0]!.split('/')[1] ?? '');
    const presigned = req.headers.authorization === undefined;
    const refusal = verifySigV4(req, S3_TEST_CREDENTIALS, presigned ? await presignNow(bucketOfPath) : Date.now());
    if (refusal !== undefined) return refuse(req, res, refusal);
    requests.push(`${req.method} ${url}`);
    // The guard has judged the expiry by its clock; s3rver would judge it again by real time.
    const forwardUrl = presigned ? url.replace(/([?&]X-Amz-Date=)\d{8}T\d{6}Z/, `$1${amzDate(Date.now())}`) : url;
    const headers = { ...req.headers };
    let window: { start: number; end: number; size: number } | undefined;
    const isObject = /^\/[^/?]+\/[^?]+/.test(url);
    if (isObject && (req.method === 'GET' || req.method === 'HEAD') && headers.range !== undefined) {
      const size = await objectSize(backendPort, forwardUrl, headers);
      if (size !== undefined) {
        const range = resolveRange(headers.range, size);
        if (range === 'unsatisfiable') return refuseRange(req, res, size);
        if (range === undefined) delete headers.range;
        else {
          headers.range = `bytes=${range.start}-${range.end}`;
          window = { ...range, size };
        }
      }
    }
    const upstream = request({ host: '127.0.0.1', port: backendPort, method: req.method, path: forwardUrl, headers }, (answer) => {
      const answerHeaders = { ...answer.headers };
      if (window !== undefined && answer.statusCode === 206) {
        // s3rver takes an end of 0 for no end (bytes=0-0 gets the whole object): answer what was asked.
        answerHeaders['content-range'] = `bytes ${window.start}-${window.end}/${window.size}`;
        answerHeaders['content-length'] = String(window.end - window.start + 1);
        res.writeHead(206, answerHeaders);
        return void answer.pipe(limitBytes(window.end - window.start + 1)).pipe(res);
      }
      res.writeHead(answer.statusCode ?? 502, answerHeaders);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  }
  /** PUT /-/clock/<bucket> with a URL as body: presigned URLs of that bucket follow that clock; DELETE forgets it. */
  async function control(req: IncomingMessage, res: ServerResponse, bucket: string): Promise<void> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    if (req.method === 'PUT' && /^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(body.trim())) clockUrls.set(bucket, body.trim());
    else if (req.method === 'DELETE') clockUrls.delete(bucket);
    else return void res.writeHead(400).end('PUT a loopback http URL, or DELETE\n');
    res.writeHead(204).end();
  }
  await new Promise<void>((resolve) => guard.listen(port, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(guard.address() as AddressInfo).port}`;
  return {
    endpoint,
    config: { endpoint, region: REGION, bucket, ...S3_TEST_CREDENTIALS, forcePathStyle: true },
    requests,
    async stop() {
      await closeServer(guard);
      await backend.close();
      if (given === undefined) await rm(directory, { recursive: true, force: true });
    },
  };
}

const amzDate = (ms: number) => new Date(ms).toISOString().replace(/[-:]|\.\d{3}/g, '');

/** The object's size from s3rver (HEAD with the request's own credentials), or undefined if it has none. */
function objectSize(port: number, path: string, headers: IncomingMessage['headers']): Promise<number | undefined> {
  const { range: _range, ...rest } = headers;
  return new Promise((resolve) => {
    const head = request({ host: '127.0.0.1', port, method: 'HEAD', path, headers: rest }, (answer) => {
      answer.resume();
      const length = Number(answer.headers['content-length']);
      resolve(answer.statusCode === 200 && Number.isSafeInteger(length) ? length : undefined);
    });
    head.on('error', () => resolve(undefined));
    head.end();
  });
}

/**
 * A Range header as S3 reads it (RFC 9110 §14): one range, start-end, start- or -suffix, clamped
 * to the object; undefined (the whole object) when malformed or several; 'unsatisfiable' when it
 * starts past the end.
 */
export function resolveRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (m === null || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (m[2] !== '' && Number(m[2]) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1) };
}

function refuseRange(req: IncomingMessage, res: ServerResponse, size: number): void {
  req.resume();
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InvalidRange</Code><Message>The requested range is not satisfiable</Message><ActualObjectSize>${size}</ActualObjectSize></Error>`;
  res.writeHead(416, { 'content-type': 'application/xml', 'content-range': `bytes */${size}`, 'content-length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Passes on the first n bytes of a stream and drops the rest. */
function limitBytes(n: number): Transform {
  let left = n;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const part = chunk.subarray(0, Math.max(0, left));
      left -= part.length;
      done(null, part.length > 0 ? part : undefined);
    },
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

interface Refusal {
  readonly code: 'AccessDenied' | 'SignatureDoesNotMatch' | 'InvalidAccessKeyId' | 'RequestTimeTooSkewed' | 'AuthorizationQueryParametersError';
  readonly message: string;
}

function refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  req.resume();
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${refusal.message}</Message></Error>`;
  res.writeHead(403, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** RFC 3986 encoding as SigV4 requires (encodeURIComponent leaves !'()* alone). */
const uriEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256Hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** SigV4 verification of one request: undefined when the signature is valid and current. */
export function verifySigV4(req: IncomingMessage, credentials: { accessKeyId: string; secretAccessKey: string }, nowMs: number): Refusal | undefined {
  const rawUrl = req.url ?? '/';
  const q = rawUrl.indexOf('?');
  const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const query = (q < 0 ? '' : rawUrl.slice(q + 1))
    .split('&')
    .filter((p) => p !== '')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const decode = (s: string) => decodeURIComponent(s);
      return eq < 0 ? [decode(pair), ''] : [decode(pair.slice(0, eq)), decode(pair.slice(eq + 1))];
    }) as [string, string][];
  const param = (name: string) => query.find(([k]) => k === name)?.[1];

  let credential: string;
  let signedHeaders: string;
  let signature: string;
  let amzDate: string;
  let payloadHash: string;
  const authorization = req.headers.authorization;
  if (authorization !== undefined) {
    const m = /^AWS4-HMAC-SHA256 Credential=([^,]+),\s*SignedHeaders=([^,]+),\s*Signature=([0-9a-f]{64})$/.exec(authorization);
    if (m === null) return { code: 'AccessDenied', message: 'Unsupported Authorization header' };
    [credential, signedHeaders, signature] = [m[1] as string, m[2] as string, m[3] as string];
    amzDate = String(req.headers['x-amz-date'] ?? '');
    payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
    if (payloadHash === '') return { code: 'AccessDenied', message: 'Missing x-amz-content-sha256' };
  } else if (param('X-Amz-Algorithm') === 'AWS4-HMAC-SHA256') {
    credential = param('X-Amz-Credential') ?? '';
    signedHeaders = param('X-Amz-SignedHeaders') ?? '';
    signature = param('X-Amz-Signature') ?? '';
    amzDate = param('X-Amz-Date') ?? '';
    payloadHash = param('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
  } else {
    return { code: 'AccessDenied', message: 'Access Denied' };
  }

  const [accessKeyId, date, region, service, terminator] = credential.split('/');
  if (accessKeyId !== credentials.accessKeyId) return { code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' };
  const dm = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (dm === null || date !== amzDate.slice(0, 8) || service !== 's3' || terminator !== 'aws4_request' || region === undefined) {
    return { code: 'AuthorizationQueryParametersError', message: 'Malformed credential scope or date' };
  }
  const signedAt = Date.UTC(Number(dm[1]), Number(dm[2]) - 1, Number(dm[3]), Number(dm[4]), Number(dm[5]), Number(dm[6]));

  const canonicalPath = rawPath.split('/').map((seg) => uriEncode(decodeURIComponent(seg))).join('/');
  const canonicalQuery = query
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headerNames = signedHeaders.split(';');
  if (!headerNames.includes('host')) return { code: 'AccessDenied', message: 'host must be a signed header' };
  const canonicalHeaders = headerNames
    .map((name) => {
      const value = req.headers[name];
      const text = Array.isArray(value) ? value.join(',') : (value ?? '');
      return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalRequest = [req.method, canonicalPath, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, date), region), 's3'), 'aws4_request');
  const expected = Buffer.from(createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' };
  }

  if (authorization !== undefined) {
    if (Math.abs(nowMs - signedAt) > MAX_SKEW_MS) return { code: 'RequestTimeTooSkewed', message: 'The difference between the request time and the current time is too large.' };
  } else {
    const expires = Number(param('X-Amz-Expires'));
    if (!Number.isSafeInteger(expires) || expires < 1 || expires > 604_800) {
      return { code: 'AuthorizationQueryParametersError', message: 'X-Amz-Expires must be between 1 and 604800 seconds' };
    }
    if (nowMs > signedAt + expires * 1000) return { code: 'AccessDenied', message: 'Request has expired' };
    if (signedAt > nowMs + MAX_SKEW_MS) return { code: 'AccessDenied', message: 'Request is not valid yet' };
  }
  return undefined;
}

// Run as a process for CI and multi-instance tests (.ci/s3-server.sh):
//   tsx test/support/s3-server.ts --port 4569 --bucket spq --dir /tmp/spq-s3
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i < 0 ? undefined : process.argv[i + 1];
  };
  const server = await startS3Server({ port: Number(arg('port') ?? 0), bucket: arg('bucket') ?? 'spq', ...(arg('dir') ? { directory: arg('dir') as string } : {}) });
  console.log(JSON.stringify({ endpoint: server.endpoint, bucket: server.config.bucket }));
  const stop = () => void server.stop().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
