/**
 * Writes the OpenAPI 3.1 document the server serves at /openapi.json to docs/openapi.json
 * (committed; test/http/misc.test.ts fails when the two differ). Run: npx tsx scripts/export-openapi.ts
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Drain } from '../src/app/drain.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp, type AppDeps } from '../src/http/app.ts';
import { systemClock } from '../src/ports/clock.ts';

/**
 * The document comes from the route schemas alone: no port is called while it is generated. A
 * port's optional members (`optional`) read as absent, as a wrapper may ask whether they exist.
 */
const notUsed = (name: string, optional: readonly string[] = []) =>
  new Proxy({}, {
    get: (_t, prop) => {
      if (optional.includes(String(prop))) return undefined;
      throw new Error(`${name}.${String(prop)} is not available while exporting the OpenAPI document`);
    },
  });

export async function openApiDocument(): Promise<unknown> {
  const deps = {
    config: loadConfig({}),
    accounts: notUsed('accounts'),
    limiter: notUsed('limiter', ['hitNow']),
    files: notUsed('files'),
    passwords: notUsed('passwords'),
    pools: notUsed('pools'),
    clock: systemClock,
    serverSecret: 'unused',
    logger: { level: 'silent' },
    drain: new Drain(),
  } as unknown as AppDeps;
  const app = buildApp(deps);
  await app.ready();
  const document = app.swagger();
  await app.close();
  return document;
}

export const OPENAPI_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'openapi.json');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeFile(OPENAPI_PATH, `${JSON.stringify(await openApiDocument(), null, 2)}\n`);
  process.stdout.write(`wrote ${OPENAPI_PATH}\n`);
}
