import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

describe('the clients are versioned with the API', () => {
  it("carry the OpenAPI document's info.version: Python, TypeScript and R", () => {
    const api = (JSON.parse(read('docs/openapi.json')) as { info: { version: string } }).info.version;
    expect(/^version = "([^"]+)"$/m.exec(read('clients/python/pyproject.toml'))?.[1]).toBe(api);
    expect(/^__version__ = "([^"]+)"$/m.exec(read('clients/python/spq_client/__init__.py'))?.[1]).toBe(api);
    expect((JSON.parse(read('clients/typescript/package.json')) as { version: string }).version).toBe(api);
    expect(/^Version: (.+)$/m.exec(read('clients/r/DESCRIPTION'))?.[1]).toBe(api);
  });
});
