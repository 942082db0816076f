import type { FastifyRequest } from 'fastify';
import { destination } from 'pino';
import type { LoggerOptions } from './types.ts';

const KEY_IN_TEXT = /spq_(live|test)_[0-9A-Za-z]*/gi;
const SECRET_PARAMS = /([?&](?:api[_-]?key|access_token|token|key|authorization|x-amz-signature|x-amz-credential|x-amz-security-token|signature)=)[^&#]*/gi;
// A download link is a bearer capability for days: its signature stays out of logs (the payload, expiry and file key, may stay).
const LINK_SIGNATURE = /(\/downloads\/[^/?#]*\.)[^/?#]*/gi;
// A link's token wherever it appears (a mistyped /downloads//<token>/…, a token pasted under /query/
// or /console/): base64url payload "." 43-character base64url HMAC-SHA256 (core/links.ts).
const TOKEN_SIGNATURE = /([A-Za-z0-9_-]{8,}\.)[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
// An account-area one-time link (invitation, password reset) signs its holder in once: its token stays out of logs.
const ONE_TIME_LINK = /(\/console\/welcome\/)[^/?#]*/gi;

/** Removes anything that looks like an API key or a link signature from text bound for a log line. */
export const redactSecrets = (text: string): string =>
  text.replace(KEY_IN_TEXT, 'spq_[redacted]').replace(SECRET_PARAMS, '$1[redacted]').replace(LINK_SIGNATURE, '$1[redacted]').replace(TOKEN_SIGNATURE, '$1[redacted]').replace(ONE_TIME_LINK, '$1[redacted]');

/** Lines are written once this many bytes are queued (about 16 access lines)… */
const LOG_BATCH_BYTES = 4096;
/** …or after this long, so a quiet server's lines still show at once to whoever tails the log. */
const LOG_FLUSH_MS = 100;

/**
 * The JSON log (standard output by default), written off the request path: lines are queued in
 * memory and written by asynchronous writes of up to LOG_BATCH_BYTES, at most LOG_FLUSH_MS
 * after they were logged, instead of one blocking write per line (a write costs more than the
 * line). Nothing is lost when the process ends by itself, by process.exit or by an uncaught
 * exception: pino writes what is queued synchronously on 'exit' (and `spq serve` ends on
 * SIGTERM/SIGINT by closing and exiting). Only SIGKILL or a power cut can lose the last
 * LOG_FLUSH_MS of lines, as with any buffer.
 */
export const asyncLog = (dest: number | string = 1) => destination({ dest, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS });

/**
 * JSON logs with request ids; the request serializer writes method, redacted URL and address
 * only (never headers, so Authorization cannot appear), and redaction covers any header or
 * body object a handler might log by mistake. Without a stream they go to standard output
 * through asyncLog.
 */
export function loggerOptions(options: LoggerOptions): Record<string, unknown> {
  return {
    level: options.level,
    stream: options.stream ?? asyncLog(),
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'req.headers.cookie', 'body.api_key', 'api_key', 'apiKey'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: Pick<FastifyRequest, 'method' | 'url' | 'ip'>) => ({ method: req.method, url: redactSecrets(req.url), remoteAddress: req.ip }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
}
