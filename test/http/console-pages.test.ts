/**
 * The account area's second round over real HTTP (both stacks): the overview's figures, a query's
 * page (and its re-run and copy-as-curl giving the same records), the ledger's running balance,
 * test mode, errors in the form's words, the one place separator, a balance that cannot pay, and
 * 404 pages. test/e2e/account-browser.test.ts drives the same pages in Chromium.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLACE_EXAMPLES } from '../../src/app/web/builder.ts';
import { issueOneTimeLink } from '../../src/app/web/sign-in.ts';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s.close());

const PASSWORD = 'amber cobalt lighthouse 9';
const DAY = 86_400_000;

interface Browser {
  cookie: string;
  csrf: string;
}

const post = (path: string, fields: Record<string, string>, cookie?: string) =>
  fetch(`${s.baseUrl}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: s.baseUrl, ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
  });
const get = (path: string, browser?: { cookie: string }) => fetch(`${s.baseUrl}${path}`, { redirect: 'manual', headers: browser ? { cookie: browser.cookie } : {} });
const text = async (path: string, browser: Browser) => {
  const res = await get(path, browser);
  expect(res.status, path).toBe(200);
  return res.text();
};
/** The page's visible words, tags dropped and entities of the templates undone. */
/** A code block's text as the browser shows it (and copies it). */
const unescapeHtml = (text: string) => text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&#x27;', "'").replaceAll('&amp;', '&');

const words = (page: string) =>
  page
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ');

/** A holder who accepted the invitation (and so is signed in), with credits granted (and a bundle, if asked). */
async function holder(options: { grant?: number; bundle?: { credits: number; days: number } } = {}): Promise<{ accountId: string; browser: Browser }> {
  const { accountId } = await s.store.createAccount({ email: `console-${Math.random().toString(36).slice(2, 10)}@example.org`, now: s.clock.now() });
  if (options.grant) await s.store.grantCredits({ accountId, credits: options.grant, now: s.clock.now() });
  if (options.bundle) await s.store.addBundle({ accountId, ...options.bundle, now: s.clock.now() });
  const link = await issueOneTimeLink({ ...s.deps, credentials: s.store }, { accountId, purpose: 'invitation' });
  if (!link.ok) throw new Error(link.error.detail);
  const set = await post(link.value.path, { password: PASSWORD, confirmation: PASSWORD });
  expect(set.status).toBe(303);
  const cookie = set.headers.get('set-cookie')!.split(';')[0]!;
  const page = await (await get('/console/query', { cookie })).text();
  return { accountId, browser: { cookie, csrf: /name="_csrf" value="([0-9a-f]{64})"/.exec(page)![1]! } };
}

const BUILDER = { geography_level: 'suburb', geography: 'Richmond (VIC)', dataset_type: 'persons', n_observations: '50', output_format: 'csv', include_geography: 'none', linked_records: 'none' };

/** Preview then run from the builder, as the pages do; the new query's id. */
async function runFromBuilder(browser: Browser, fields: Record<string, string> = {}): Promise<string> {
  const preview = await post('/console/query/preview', { _csrf: browser.csrf, ...BUILDER, ...fields }, browser.cookie);
  const page = await preview.text();
  expect(preview.status, words(page)).toBe(200);
  const hidden = Object.fromEntries([...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'")]));
  const run = await post('/console/query/execute', hidden, browser.cookie);
  const ran = await run.text();
  expect(run.status, words(ran)).toBe(200);
  return /href="\/console\/queries\/(qry_[0-9A-Za-z]+)"/.exec(ran)![1]!;
}

describe('the overview', () => {
  it('is where sign-in lands; shows the balance, the weekly renewal, usage by day and by key, and the recent queries (test ones marked)', async () => {
    const { accountId, browser } = await holder({ grant: 20 });
    const live = await s.addKey(accountId);
    const sandbox = await s.addKey(accountId, 'test');
    const body = { geography_level: 'suburb', geography_selections: ['Richmond (VIC)', 'Fitzroy'], dataset_type: 'persons', n_observations: 10, output_format: 'csv' };
    // Two days ago: one query with the live key; today: another with it, one with the sandbox key, one from the builder.
    s.clock.advance(-2 * DAY);
    try {
      expect((await s.call('/query/execute', { key: live.key, body })).status).toBe(200);
    } finally {
      s.clock.advance(2 * DAY);
    }
    const liveRun = await s.call('/query/execute', { key: live.key, body });
    expect(liveRun.status).toBe(200);
    expect((await s.call('/query/execute', { key: sandbox.key, body })).status).toBe(200);
    // A query's page names the key that ran it.
    const livePage = words(await text(`/console/queries/${((await liveRun.json()) as { query_id: string }).query_id}`, browser));
    expect(livePage).toContain(`Run with API key (made by the operator) spq_live_…${live.key.slice(-4)}`);
    const fromBuilder = await runFromBuilder(browser);

    const summary = await s.store.credits(accountId, s.clock.now());
    const page = await text('/console/overview', browser);
    const seen = words(page);
    expect(seen).toContain(`Credits available ${summary.creditsRemaining}`);
    expect(seen).toMatch(new RegExp(`${summary.freeCreditsRemaining} of 5 free credits left this week; back to 5 on `));
    // 4 queries, 2 × 10 records for each API query and 50 for the builder's, credits as charged.
    const charged = (await s.store.usageSince({ accountId, since: new Date(0), limit: 10 })).reduce((sum, q) => sum + q.creditCost, 0);
    expect(seen).toContain(`4 queries, ${3 * 20 + 50} records, ${charged} credits (1 of the queries in test mode, free).`);
    // Three charts of 30 days, each an image with a name; the busiest days are in the table.
    expect(page.match(/<svg [^>]*role="img" aria-labelledby="chart-[a-z]+-title"/g)).toHaveLength(3);
    expect(page.match(/<rect class="bar/g)).toHaveLength(90);
    expect(seen).toContain('4 queries in the last 30 days; the most, 3, on');
    // By key: the live key ran 2, the sandbox key 1, the builder 1.
    const row = (label: RegExp) => words(page.split('</tr>').map((r) => r.slice(r.lastIndexOf('<tr>'))).find((r) => label.test(words(r))) ?? '');
    expect(row(new RegExp(`spq_live_…${live.key.slice(-4)}`))).toMatch(/ 2 40 \d+ $/);
    expect(row(new RegExp(`spq_test_…${sandbox.key.slice(-4)}`))).toMatch(/ 1 20 0 $/);
    expect(row(/Account area/)).toMatch(/ 1 50 \d+ $/);
    // Recent queries link to their pages; the sandbox one carries the badge.
    expect(page).toContain(`href="/console/queries/${fromBuilder}"`);
    expect(page.match(/<span class="badge">test data<\/span>/g)).toHaveLength(1);
  });

  it('says how a paid account renews, not "no weekly allowance while paid"; an empty account points to credits', async () => {
    const paid = await holder({ bundle: { credits: 100, days: 30 } });
    for (const path of ['/console/overview', '/console/credits']) {
      const seen = words(await text(path, paid.browser));
      expect(seen).not.toContain('no weekly allowance while paid');
      expect(seen).toMatch(/Paid tier (until )?\d{1,2} \w{3} 2026/);
      expect(seen).toMatch(/no free allowance/);
    }
    const free = await holder();
    const seen = words(await text('/console/overview', free.browser));
    expect(seen).toContain('No queries in the last 30 days.');
    expect(seen).toContain('5 of 5 free credits left this week');
  });
});

describe('a query page', () => {
  it('shows parameters, files, seed, version, implicate and test mode; its re-run and its copy-as-curl give the same records', async () => {
    const { accountId: holderId, browser } = await holder({ grant: 20 });
    const id = await runFromBuilder(browser, { geography: 'Richmond (VIC); Fitzroy', n_observations: '30', test_mode: 'yes' });
    const page = await text(`/console/queries/${id}`, browser);
    const seen = words(page);
    const meta = (await s.store.getQuery(holderId, id))?.metadata;
    expect(meta).toBeDefined();
    for (const expected of [`Places Richmond (VIC); Fitzroy`, 'Records per place 30', `Seed ${String(meta!['seed'])}`, `Pool release ${String(meta!['version'])}`, 'Implicate 1', 'Test data yes (test mode)', 'Run with the account area', 'Credits 0']) {
      expect(seen).toContain(expected);
    }
    expect(page).toContain('<span class="badge">test data</span>');
    const download = /<a class="button" href="([^"]+)">Download the csv file/.exec(page)![1]!.replaceAll('&amp;', '&');
    const original = await (await fetch(download)).text();
    expect(original.trim().split('\n')).toHaveLength(61);

    // "Run again (the same records)" posts the builder's fields with the seed and implicate.
    const sameForm = page.split('<form').find((f) => f.includes('the same records'))!;
    const fields = Object.fromEntries([...sameForm.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replaceAll('&amp;', '&')]));
    expect(fields).toMatchObject({ seed: String(meta!['seed']), implicate: '1', test_mode: 'yes', geography: 'Richmond (VIC); Fitzroy' });
    const samePreview = words(await (await post('/console/query/preview', { ...fields, _csrf: browser.csrf }, browser.cookie)).text());
    expect(samePreview).toMatch(new RegExp(`Seed ${String(meta!['seed'])} ?, implicate 1 \\(the same records as the query it came from\\)`));
    const again = await runFromBuilder(browser, fields);
    expect(again).not.toBe(id);
    const againPage = await text(`/console/queries/${again}`, browser);
    const againFile = await (await fetch(/<a class="button" href="([^"]+)">Download/.exec(againPage)![1]!.replaceAll('&amp;', '&'))).text();
    expect(againFile).toBe(original);

    // Copy as curl, run as written with a sandbox key: the same records again, under a portable Idempotency-Key.
    const code = (id: string) => unescapeHtml(new RegExp(`<code id="snippet-${id}">([\\s\\S]*?)</code>`).exec(page)![1]!);
    const curl = code('curl');
    expect(curl).toContain(`${s.baseUrl}/query/execute`);
    expect(curl).not.toContain('/proc/');
    expect(curl).toMatch(/key=\$\(openssl rand -hex 16\)[\s\S]*-H "Idempotency-Key: \$key"/);
    const { accountId } = await s.account();
    const sandbox = await s.addKey(accountId, 'test');
    const { stdout } = await promisify(execFile)('bash', ['-c', curl], { env: { ...process.env, SPQ_API_KEY: sandbox.key } });
    const result = JSON.parse(stdout) as { download_url: string; metadata: { seed: string; test_data?: boolean } };
    expect(result.metadata).toMatchObject({ seed: String(meta!['seed']), test_data: true });
    expect(await (await fetch(result.download_url)).text()).toBe(original);

    // Copy as Python, run as written (the client from this repository): the new query's file under its own id.
    const python = code('python');
    expect(python).toMatch(/^# pip install "\.\/clients\/python\[dataframe\]"/);
    const ran = await mkdtemp(join(tmpdir(), 'spq-snippet-'));
    try {
      await promisify(execFile)('/usr/bin/python3', ['-c', python], { cwd: ran, env: { ...process.env, SPQ_API_KEY: sandbox.key, PYTHONPATH: join(import.meta.dirname, '..', '..', 'clients', 'python') } });
      const [saved] = await readdir(ran);
      expect(saved).toMatch(/^qry_\w+\.csv$/);
      expect(saved).not.toBe(`${id}.csv`);
      expect(await readFile(join(ran, saved!), 'utf8')).toBe(original);
    } finally {
      await rm(ran, { recursive: true, force: true });
    }

    // R and TypeScript say it with their clients' calls, how to install them, and the new query's id as the file name.
    expect(words(code('r'))).toMatch(/^# R CMD build clients\/r && R CMD INSTALL spqclient_1\.0\.0\.tar\.gz .*library\(spqclient\) spq <- spq_client\(".*"\).*spq_execute\(spq, list\(.*geography_selections = c\("Richmond \(VIC\)", "Fitzroy"\).*spq_download\(spq, result, paste0\(result\$query_id, "\.csv"\)\)/);
    expect(words(code('typescript'))).toMatch(/^\/\/ npm pack \.\/clients\/typescript && npm install .*import \{ SpqClient \} from '@spq\/client'; const spq = new SpqClient\(\{ baseUrl: ".*" \}\);.*await spq\.execute\(.*await spq\.download\(result, `\$\{result\.query_id\}\.csv`\);/);

    // The history marks it too; another holder gets a 404 page for it.
    expect(await text('/console/queries', browser)).toContain('<span class="badge">test data</span>');
    const other = await holder();
    const foreign = await get(`/console/queries/${id}`, other.browser);
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await get('/console/queries/qry_nonsense', other.browser)).status).toBe(404);
  });
});

describe('the ledger', () => {
  it('has a running balance that matches the movements, across pages, and links each query to its page', async () => {
    const { accountId, browser } = await holder({ grant: 30 });
    for (let i = 0; i < 22; i++) await s.store.grantCredits({ accountId, credits: i + 1, now: s.clock.now(), note: `grant ${i}` });
    const id = await runFromBuilder(browser);
    const rows = async (page: number) => {
      const html = await text(`/console/credits?page=${page}`, browser);
      return [...html.matchAll(/<tr><td data-label="When">[\s\S]*?<\/tr>/g)].map((m) => {
        const cell = (label: string) => words(new RegExp(`data-label="${label}">([\\s\\S]*?)</td>`).exec(m[0])![1]!).trim();
        return { free: Number(cell('Free')), bought: Number(cell('Bought')), balance: Number(cell('Balance')), link: /href="(\/console\/queries\/qry_\w+)"/.exec(m[0])?.[1] };
      });
    };
    const first = await rows(1);
    const second = await rows(2);
    expect(first).toHaveLength(20);
    expect(second.length).toBeGreaterThan(0);
    const all = [...first, ...second];
    expect(all[0]!.balance).toBe((await s.store.credits(accountId, s.clock.now())).creditsRemaining);
    for (let i = 0; i + 1 < all.length; i++) expect(all[i]!.balance - all[i]!.free - all[i]!.bought, `row ${i}`).toBe(all[i + 1]!.balance);
    const last = all[all.length - 1]!;
    expect(last.balance).toBe(last.free + last.bought); // the first entry starts from nothing
    // The charge has the same time as the grants (the test clock stands still): found by its link.
    expect(all.filter((r) => r.link !== undefined)).toEqual([expect.objectContaining({ link: `/console/queries/${id}` })]);
    const charge = all.find((r) => r.link !== undefined)!;
    expect(charge.free + charge.bought).toBe(-1);
  });
});

describe('the builder', () => {
  it('speaks the form: labels, not API field names; "did you mean" for a misspelt suburb; a postcode at the suburb level names its suburbs', async () => {
    const { browser } = await holder({ grant: 20 });
    const refused = async (fields: Record<string, string>) => {
      const res = await post('/console/query/preview', { _csrf: browser.csrf, ...BUILDER, ...fields }, browser.cookie);
      expect(res.status).toBe(422);
      const seen = words(await res.text());
      for (const apiWord of ['n_observations', 'geography_selections', 'geography_level', 'GET /geography', 'dataset_type', 'output_format']) expect(seen).not.toContain(apiWord);
      return seen;
    };
    expect(await refused({ n_observations: '10000000' })).toMatch(/“Records per place” \(10000000\) exceeds the persons pool of Richmond \(VIC\)/);
    expect(await refused({ geography: 'Richmnd' })).toMatch(/This release has no suburb “Richmnd”\. Did you mean “Richmond \((VIC|NSW)\)” or “Richmond \((VIC|NSW)\)”\?/);
    expect(await refused({ geography: 'Fitzroi' })).toContain('Did you mean “Fitzroy”?');
    // At the postcode level the API's closest postcodes are kept.
    expect(await refused({ geography_level: 'postcode', geography: '3122' })).toMatch(/This release has no postcode “3122”\. Did you mean “3121”/);
    expect(await refused({ geography: 'Nowhere At All' })).toContain('Start typing in “Places” to see the names this release knows.');
    expect(await refused({ geography: '3121' })).toMatch(/“3121” is a postcode, not a suburb: choose “postcode” as the geography level, or name its suburbs: (Richmond \(VIC\); Burnley|Burnley; Richmond \(VIC\))\./);
    expect(await refused({ dataset_type: 'persons', linked_records: 'household' })).toContain('choose “dwellings” under “Dataset” (“Records per place” then counts dwellings)');
    expect(await refused({ n_observations: '1e2' })).toContain('“Records per place” must be at least 1');
    expect(await refused({ n_observations: '200', test_mode: 'yes' })).toContain('Test mode draws at most 100 records per place; this query would draw 200. Ask for fewer, or switch test mode off.');
  });

  it('separates places with ";" only: the hint shows it, each level’s example previews, and "," gets told', async () => {
    const { browser } = await holder({ grant: 20 });
    const builder = await text('/console/query', browser);
    expect(words(builder)).toContain(`(one or more, separated by “;”, e.g. ${PLACE_EXAMPLES.suburb})`);
    // Every level the fixture release holds (it has no SA2 pools: the "sa2" example is a real census release's).
    for (const [level, example] of Object.entries(PLACE_EXAMPLES).filter(([level]) => (s.pools.levels as readonly string[]).includes(level))) {
      const res = await post('/console/query/preview', { _csrf: browser.csrf, ...BUILDER, geography_level: level, geography: example, n_observations: '5' }, browser.cookie);
      const seen = words(await res.text());
      expect(res.status, `${level}: ${seen}`).toBe(200);
      if (level !== 'australia') expect(seen).toMatch(new RegExp(`Places ${example.split('; ').map((p) => `[^;]*${p.replace(/[()]/g, '\\$&').split(' ')[0]}[^;]*`).join('; ')} Records available`));
    }
    const comma = await post('/console/query/preview', { _csrf: browser.csrf, ...BUILDER, geography: 'Richmond (VIC), Fitzroy' }, browser.cookie);
    expect(comma.status).toBe(422);
    expect(words(await comma.text())).toContain('Separate places with “;”, not “,”.');
  });

  it('offers no run button for a query the balance cannot pay, and says how to get credits; test mode runs it free', async () => {
    const { accountId, browser } = await holder();
    // The week's 5 free credits spent through the API: nothing left to pay with.
    const { key } = await s.addKey(accountId);
    for (let i = 0; i < 5; i++) expect((await s.call('/query/execute', { key, body: { geography_level: 'suburb', geography_selections: ['Burnley'], dataset_type: 'persons', n_observations: 5, output_format: 'csv' } })).status).toBe(200);
    const before = await s.store.credits(accountId, s.clock.now());
    expect(before.creditsRemaining).toBe(0);
    const big = { geography: 'Richmond (VIC); Fitzroy', n_observations: '100' };
    const preview = await post('/console/query/preview', { _csrf: browser.csrf, ...BUILDER, ...big }, browser.cookie);
    const page = await preview.text();
    expect(preview.status).toBe(200);
    const price = Number(/<strong>(\d+) credits?<\/strong>/.exec(page)![1]);
    expect(price).toBeGreaterThan(before.creditsRemaining);
    expect(page).not.toMatch(/Run for/);
    expect(page).not.toContain('action="/console/query/execute"><input type="hidden" name="_csrf" value="');
    expect(words(page)).toContain(`This query costs ${price} credit${price === 1 ? '' : 's'} and the account has ${before.creditsRemaining}. To get credits, buy a bundle (Buy credits, in the menu) or ask the service operator for a grant to this account.`);
    expect(words(page)).not.toContain('402');

    const test = await post('/console/query/preview', { _csrf: browser.csrf, ...BUILDER, ...big, test_mode: 'yes' }, browser.cookie);
    const testPage = await test.text();
    expect(words(testPage)).toContain('Price free (test mode)');
    expect(words(testPage)).not.toContain('spq_test_) key: nothing is charged');
    expect(testPage).toContain('>Run in test mode</button>');
    await runFromBuilder(browser, { ...big, test_mode: 'yes' });
    expect((await s.store.credits(accountId, s.clock.now())).creditsRemaining).toBe(before.creditsRemaining);
  });
});

describe('addresses', () => {
  it('every /console address answers a page: an unknown one is a 404 page, signed in or not, GET or POST', async () => {
    const { browser } = await holder();
    for (const [res, signedIn] of [
      [await get('/console/nope'), false],
      [await get('/console/nope/deeper?x=1', browser), true],
      [await post('/console/nope', { _csrf: browser.csrf }, browser.cookie), true],
      [await fetch(`${s.baseUrl}/console/keys`, { method: 'DELETE', headers: { cookie: browser.cookie } }), true],
    ] as const) {
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const page = await res.text();
      const seen = words(page);
      expect(seen).toContain('Page not found');
      expect(seen).toContain(signedIn ? 'Go to the overview' : 'Sign in');
      // No navigation entry claims to be the current page.
      if (signedIn) expect(page).toContain('Sign out');
      expect(page).not.toContain('aria-current');
    }
    // The API's own 404 stays JSON.
    expect((await get('/nope')).headers.get('content-type')).toMatch(/^application\/json/);
  });
});
