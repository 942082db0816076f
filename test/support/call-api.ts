/** One API request as the black-box tests make it: the key as a bearer token, a body as JSON (a string is sent as it is). */
export interface ApiCall {
  readonly method?: string;
  readonly key?: string | undefined;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Abort after this long (default: no limit of its own). */
  readonly timeoutMs?: number;
}

export function callApi(baseUrl: string, path: string, init: ApiCall = {}): Promise<Response> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${baseUrl}${path}`, {
    method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
    headers,
    ...(init.body !== undefined ? { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) } : {}),
    ...(init.timeoutMs !== undefined ? { signal: AbortSignal.timeout(init.timeoutMs) } : {}),
  });
}
