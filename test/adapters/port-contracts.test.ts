/**
 * The ports say where their contract suites are ("Contract: test/adapters/ledger.contract.ts"):
 * every test file a port names exists, and the database ports name one each, so a reader sent
 * from a port to its suite finds it (three of them once named files that did not exist).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '..', '..');
const PORTS = join(REPO, 'src', 'ports');

const named = readdirSync(PORTS)
  .filter((f) => f.endsWith('.ts'))
  .flatMap((port) => [...readFileSync(join(PORTS, port), 'utf8').matchAll(/\btest\/[\w./-]+\.ts\b/g)].map((m) => ({ port, file: m[0] })));

describe('the contract suites the ports name', () => {
  it('exist', () => {
    expect(named.filter(({ file }) => !existsSync(join(REPO, file))).map(({ port, file }) => `${port} → ${file}`)).toEqual([]);
  });

  it('include one per database port and the mailer', () => {
    const ports = new Set(named.map(({ port }) => port));
    for (const port of ['credential-store.ts', 'ledger.ts', 'query-log.ts', 'mailer.ts']) expect(ports.has(port), port).toBe(true);
  });
});
