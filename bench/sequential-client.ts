/**
 * The load generator of bench/preview.ts's latency figure, in a process of its own (pinned to
 * another core than the server's when taskset is there): N requests one after another over one
 * keep-alive connection, after a warm-up, each timed from send to the last byte of the answer.
 * Prints JSON: { p50, p99, max } in ms and the statuses seen.
 * Usage: node bin/run-ts.js bench/sequential-client.ts URL --requests 200 [--warm 20] [--body JSON] [--header name=value…]
 */
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { requests: { type: 'string', default: '200' }, warm: { type: 'string', default: '20' }, body: { type: 'string' }, header: { type: 'string', multiple: true, default: [] } },
});
const url = new URL(positionals[0]!);
const headers: Record<string, string> = Object.fromEntries(values.header!.map((h) => [h.slice(0, h.indexOf('=')), h.slice(h.indexOf('=') + 1)]));
const body = values.body;
if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One request, answered in full: its status. */
function once(): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(url, { method: body === undefined ? 'GET' : 'POST', headers, agent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => done(res.statusCode ?? 0));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

for (let i = 0; i < Number(values.warm); i++) await once();
const ms: number[] = [];
const statuses: Record<number, number> = {};
for (let i = 0; i < Number(values.requests); i++) {
  const t0 = performance.now();
  const status = await once();
  ms.push(performance.now() - t0);
  statuses[status] = (statuses[status] ?? 0) + 1;
}
ms.sort((a, b) => a - b);
const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!;
process.stdout.write(JSON.stringify({ p50: at(0.5), p99: at(0.99), max: ms[ms.length - 1], statuses }) + '\n');
agent.destroy();
