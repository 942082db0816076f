import { type Agent, request as httpRequest } from 'node:http';

/** A request sent as it is, bytes and headers unchecked by any client library (the fuzz tests' sender). */
export interface RawRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[]>;
  readonly body?: string;
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** Sends `r` to the server at `baseUrl` over `agent` and reads the whole answer as text. */
export function sendRaw(baseUrl: string, agent: Agent, r: RawRequest): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method: r.method, path: r.path, headers: r.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

/**
 * A form POST (or GET) from a chosen local address (127.0.0.x; default 127.0.0.1), as a browser
 * elsewhere would send it: the fields url-encoded (with Content-Length), then `headers` as given.
 */
export function sendForm(url: string, method: 'GET' | 'POST', options: { readonly from?: string; readonly fields?: Record<string, string>; readonly headers?: Record<string, string> } = {}): Promise<RawAnswer> {
  const body = options.fields ? new URLSearchParams(options.fields).toString() : undefined;
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: hostname,
        port,
        path: `${pathname}${search}`,
        method,
        localAddress: options.from ?? '127.0.0.1',
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** GET (or `method`) of a whole URL, the answer's bytes as sent: no redirect followed, no Content-Encoding undone. */
export function requestBytes(url: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
