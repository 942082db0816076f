/**
 * The per-request parts of an authenticated request measured alone, in a loop in this process
 * (CPU µs per call): the pino child logger Fastify makes per request, the access line through the
 * service's logger options (serializers, redaction), the labelled request metrics, and the API
 * key's hash as stored (HMAC-SHA256). What the preview costs beyond a
 * bare route but none of these explains is per-request framework work and garbage collection
 * (docs/performance.md, "Preview throughput").
 * Usage: node bin/run-ts.js bench/preview-parts.ts [--calls 200000]
 */
import { parseArgs } from 'node:util';
import pino from 'pino';
import { Registry } from 'prom-client';
import { generateApiKey, hashApiKey } from '../src/core/keys.ts';
import { loggerOptions } from '../src/http/logging.ts';
import { createHttpMetrics } from '../src/http/metrics.ts';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '200000' } } });
const N = Number(values.calls);
const lines = { write: (_line: string) => undefined };
const { stream, ...options } = loggerOptions({ level: 'info', stream: lines });
const logger = pino(options, stream as typeof lines);
const metrics = createHttpMetrics(new Registry(), { executesInFlight: () => 0 });
const secret = 'bench-secret-0123456789abcdef0123456789';
const key = generateApiKey('live');

function measure(name: string, call: (i: number) => void): void {
  for (let i = 0; i < N / 10; i++) call(i); // warm-up
  const before = process.cpuUsage();
  for (let i = 0; i < N; i++) call(i);
  const used = process.cpuUsage(before);
  process.stdout.write(`${name}: ${((used.user + used.system) / N).toFixed(2)} µs\n`);
}

const accessLine = { req: { method: 'POST', url: '/query/preview', ip: '127.0.0.1' }, status: 200, ms: 1.2 };
measure('child logger (one per request)', (i) => logger.child({ reqId: `req_${i}` }));
const child = logger.child({ reqId: 'req_abcdefabcdefabcd' });
measure('access line', () => child.info(accessLine, 'request'));
measure('request metrics (counter + histogram)', () => metrics.observeRequest('POST', '/query/preview', 200, 0.0012));
measure('key hash (hashApiKey)', () => hashApiKey(key, secret));
