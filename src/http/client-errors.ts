import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { appError } from '../core/errors.ts';
import { randomBase62 } from '../core/keys.ts';
import { renderError } from './errors.ts';
import { HSTS_VALUE } from './web/session.ts';

/**
 * Requests that Node's HTTP parser refuses before Fastify sees them: a request line and headers
 * over 16 KB (a long URL), a request not received within the request or headers timeout, bytes
 * that are not HTTP. They get the contract's error body (never the URL: it may hold a download
 * signature) with an X-Request-Id (and HSTS when served over TLS, as every answer), one log line
 * and a metric, and the connection is closed.
 */
export function clientErrorHandler(observe: (status: number) => void, hsts: boolean) {
  return function (this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
    // A reset connection has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const requestId = `req_${randomBase62(16)}`;
    const detail =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? 'The request line and headers are longer than 16 KB. Use the download_url exactly as the API returned it, and send queries as a JSON body, not in the URL.'
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 'The request was not received completely in time. Send the whole request at once and retry.'
          : 'The request is not valid HTTP/1.1.';
    const rendered = renderError(appError('bad_request', detail), requestId);
    const body = JSON.stringify(rendered.body);
    this.log.info({ req: { method: '(not parsed)', url: '(not logged: malformed)' }, status: rendered.status, reqId: requestId, reason: error.code ?? 'client error' }, 'request');
    observe(rendered.status);
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${rendered.status} Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n${hsts ? `Strict-Transport-Security: ${HSTS_VALUE}\r\n` : ''}Connection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}
