/**
 * The quality pages over real HTTP (both stacks), on the fixture release (built before quality
 * pages: no quality.json, so its pages show the records alone): the release's page is public;
 * an area's page wants the API key (or, under /console, the account area's session), costs no
 * credit, and is what search results' and previews' quality_url point at.
 * test/app/quality/pages.test.ts recomputes the figures on the demo release;
 * test/e2e/quality-browser.test.ts opens the pages in Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueOneTimeLink } from '../../src/app/web/sign-in.ts';
import { query, startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
let key: string;
let accountId: string;
beforeAll(async () => {
  s = await startTestServer();
  ({ key, accountId } = await s.account({ grant: 20 }));
});
afterAll(async () => s.close());

const PASSWORD = 'saffron harbour quill 8';

async function signedInCookie(): Promise<string> {
  const link = await issueOneTimeLink({ ...s.deps, credentials: s.store }, { accountId, purpose: 'invitation' });
  if (!link.ok) throw new Error(link.error.detail);
  const set = await fetch(`${s.baseUrl}${link.value.path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: s.baseUrl },
    body: new URLSearchParams({ password: PASSWORD, confirmation: PASSWORD }).toString(),
  });
  expect(set.status).toBe(303);
  return set.headers.get('set-cookie')!.split(';')[0]!;
}

const credits = async (): Promise<number> => ((await (await s.call('/account/credits', { key })).json()) as { credits_remaining: number }).credits_remaining;

describe('quality pages', () => {
  it('the release page is public HTML (no key, no account), says the release and that it was built before quality pages', async () => {
    const res = await fetch(`${s.baseUrl}/quality`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    const page = await res.text();
    expect(page).toContain(`Release ${s.pools.version}: fit to the census`);
    expect(page).toContain('built before quality pages');
    expect(page).not.toContain('<script');
  });

  it("an area's page wants the API key like search; with it: HTML with inline SVG charts and tables, free of credits, unknown places 404", async () => {
    expect((await fetch(`${s.baseUrl}/quality/areas/suburb/Fitzroy`)).status).toBe(401);
    const before = await credits();
    const res = await s.call('/quality/areas/suburb/Fitzroy', { key });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, max-age=300');
    const page = await res.text();
    expect(page).toContain('Fitzroy: the records beside the census');
    expect(page).toMatch(/<svg id="chart-age-sex-svg"[^>]* role="img" aria-labelledby="chart-age-sex-title"/);
    expect(page).toContain('<table class="figures-table">');
    expect(page).toContain('This release was built before quality pages');
    expect(await credits()).toBe(before);
    for (const path of ['/quality/areas/suburb/Nowhere%20Special', '/quality/areas/planet/Fitzroy']) {
      const missing = await s.call(path, { key });
      expect(missing.status, path).toBe(404);
      expect(((await missing.json()) as { error: string }).error).toBe('not_found');
    }
    // A small suburb served coarsened, a postcode and a state: their charts in coarse categories where any area is coarsened.
    const small = await (await s.call('/quality/areas/suburb/Wandiligong', { key })).text();
    expect(small).toContain('Shown in coarse categories');
    expect(small).toMatch(/<dt>Small area<\/dt><dd><strong>yes<\/strong>/);
    expect((await s.call('/quality/areas/state/VIC', { key })).status).toBe(200);
  });

  it("search results and previews carry quality_url, which opens the area's page with the key", async () => {
    const search = (await (await s.call('/geography/search?query=Fitz', { key })).json()) as { results: { suburb_id: string; quality_url: string }[] };
    expect(search.results[0]!.quality_url).toBe('/quality/areas/suburb/Fitzroy');
    expect((await s.call(search.results[0]!.quality_url, { key })).status).toBe(200);
    const preview = (await (await s.call('/query/preview', { key, body: query({ geography_level: 'postcode', geography_selections: ['3121'], n_observations: 10 }) })).json()) as { geography_matches: { quality_url: string }[] };
    expect(preview.geography_matches[0]!.quality_url).toBe('/quality/areas/postcode/3121');
    const page = await (await s.call(preview.geography_matches[0]!.quality_url, { key })).text();
    expect(page).toContain('made of 2 areas with pools');
  });

  it('signed in to the account area, the same page is under /console (the session, not a key); signed out it sends to sign-in', async () => {
    const out = await fetch(`${s.baseUrl}/console/quality/areas/suburb/Fitzroy`, { redirect: 'manual' });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/console/sign-in');
    const cookie = await signedInCookie();
    const res = await fetch(`${s.baseUrl}/console/quality/areas/suburb/Fitzroy`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('Fitzroy: the records beside the census');
    expect(page).toContain('aria-label="Account"');
    // The API never takes the session.
    expect((await fetch(`${s.baseUrl}/quality/areas/suburb/Fitzroy`, { headers: { cookie } })).status).toBe(401);
    const missing = await fetch(`${s.baseUrl}/console/quality/areas/suburb/Atlantis`, { headers: { cookie } });
    expect(missing.status).toBe(404);
  });
});
