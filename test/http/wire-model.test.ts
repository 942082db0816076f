/**
 * Issue 14, item 1 (part): the published document names the closed error catalogue as an enum,
 * and the link lifetime it states is the deployment's, not a number written into a text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/core/errors.ts';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ config: { downloadTtlDays: 3 } });
});
afterAll(async () => s?.close());

describe('the wire model in the OpenAPI document', () => {
  it('ErrorBody.error is an enum of exactly the error catalogue', async () => {
    const doc = (await (await fetch(`${s.baseUrl}/openapi.json`)).json()) as { components: { schemas: { ErrorBody: { properties: { error: { enum: string[] } } } } } };
    expect(doc.components.schemas.ErrorBody.properties.error.enum.sort()).toEqual(Object.keys(ERROR_CATALOGUE).sort());
  });

  it('says links are valid for the configured number of days, and an expired link says the same', async () => {
    const doc = (await (await fetch(`${s.baseUrl}/openapi.json`)).json()) as { paths: Record<string, { post?: { description: string } }> };
    expect(doc.paths['/query/execute']!.post!.description).toContain('valid 3 days');
    const { key } = await s.account({ grant: 5 });
    const executed = await s.call('/query/execute', { key, body: { geography_level: 'suburb', geography_selections: ['Burnley'], dataset_type: 'persons', n_observations: 5, output_format: 'csv' } });
    expect(executed.status).toBe(200);
    const { download_url } = (await executed.json()) as { download_url: string };
    if (!download_url.startsWith(s.baseUrl)) return; // scale-out: the link is the object store's own
    s.clock.advance(4 * 86_400_000);
    const expired = await fetch(download_url);
    expect(expired.status).toBe(410);
    expect((await expired.json()).detail).toContain('links are valid 3 days');
  });
});
