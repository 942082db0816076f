import type { QueryDetail } from '../../../app/history.ts';
import { PLACE_SEPARATOR } from '../../../app/web/builder.ts';
import type { ApiKeyRecord } from '../../../ports/account-store.ts';
import { csrfField, html, testBadge, when, type Html } from '../html.ts';

/**
 * A query's page: what it asked for, its files, how it was drawn (seed, release version,
 * implicate), two ways to run it again, and the same request as curl, Python, R and TypeScript
 * with the official clients (clients/…), seed and implicate included so it returns the same records.
 */

/** The request fields of the API's execute, in its order, from the stored metadata echo. */
const REQUEST_FIELDS = ['geography_level', 'geography_selections', 'dataset_type', 'n_observations', 'output_format', 'include_geography', 'linked_records', 'seed', 'implicate'] as const;

const FIELD_LABELS: Readonly<Record<string, string>> = {
  geography_level: 'Geography level',
  geography_selections: 'Places',
  dataset_type: 'Dataset',
  n_observations: 'Records per place',
  output_format: 'File format',
  include_geography: 'Geography columns',
  linked_records: 'Linked records',
};

/** The execute request that reproduces the query: its parameters with its seed and implicate. */
export function reproducingRequest(metadata: QueryDetail['metadata']): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  for (const field of REQUEST_FIELDS) if (metadata[field] !== undefined) request[field] = metadata[field];
  return request;
}

const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** A value as R source: strings quoted (seed too: 64 bits do not fit R's doubles), vectors with c(). */
function rValue(value: unknown): string {
  if (Array.isArray(value)) return value.length === 1 ? JSON.stringify(value[0]) : `c(${value.map((v) => JSON.stringify(v)).join(', ')})`;
  return JSON.stringify(value);
}

export interface Snippet {
  readonly id: string;
  readonly language: string;
  readonly code: string;
}

/**
 * The same request in each client's own words (see each client's README), each saying how to
 * install what it needs, and saving the file under the id of the query it runs (a new query: not
 * the one on the page). `extension` is the file's (csv, parquet, xlsx, or zip for households).
 */
export function snippets(baseUrl: string, request: Record<string, unknown>, extension: string): Snippet[] {
  const json = JSON.stringify(request);
  const pretty = JSON.stringify(request, null, 2);
  const indented = (text: string, by: string) => text.split('\n').join(`\n${by}`);
  return [
    {
      id: 'curl',
      language: 'curl',
      // One key for the request and its retries, from openssl (Linux, macOS, Git Bash on Windows):
      // run the same command again with the same key after a dropped connection and pay once.
      code: `# needs curl and openssl; the answer's download_url is the file
key=$(openssl rand -hex 16)
curl -sS --retry 5 -X POST ${shellQuote(`${baseUrl}/query/execute`)} \\
  -H "Authorization: Bearer $SPQ_API_KEY" \\
  -H 'Content-Type: application/json' \\
  -H "Idempotency-Key: $key" \\
  -d ${shellQuote(json)}`,
    },
    {
      id: 'python',
      language: 'Python',
      code: `# pip install "./clients/python[dataframe]"   (from a checkout of the spq repository)
from spq_client import SpqClient

spq = SpqClient(${JSON.stringify(baseUrl)})  # the key from $SPQ_API_KEY
result = spq.execute(${indented(pretty, '')})
spq.download(result, result["query_id"] + ${JSON.stringify(`.${extension}`)})`,
    },
    {
      id: 'r',
      language: 'R',
      code: `# R CMD build clients/r && R CMD INSTALL spqclient_1.0.0.tar.gz   (from a checkout of the spq repository)
library(spqclient)
spq <- spq_client(${JSON.stringify(baseUrl)})  # the key from SPQ_API_KEY
result <- spq_execute(spq, list(
${Object.entries(request)
  .map(([name, value]) => `  ${name} = ${rValue(value)}`)
  .join(',\n')}
))
spq_download(spq, result, paste0(result$query_id, ${JSON.stringify(`.${extension}`)}))`,
    },
    {
      id: 'typescript',
      language: 'TypeScript',
      code: `// npm pack ./clients/typescript && npm install ./spq-client-1.0.0.tgz   (from a checkout of the spq repository); save as run.mjs
import { SpqClient } from '@spq/client';

const spq = new SpqClient({ baseUrl: ${JSON.stringify(baseUrl)} }); // the key from SPQ_API_KEY
const result = await spq.execute(${pretty});
await spq.download(result, \`\${result.query_id}.${extension}\`);`,
    },
  ];
}

/** The builder's fields for this query: the re-run forms post them to the preview. */
function builderFields(request: Record<string, unknown>, test: boolean, sameRecords: boolean): Html[] {
  const fields: [string, string][] = [
    ['geography_level', String(request['geography_level'])],
    ['geography', (request['geography_selections'] as string[]).join(`${PLACE_SEPARATOR} `)],
    ['dataset_type', String(request['dataset_type'])],
    ['n_observations', String(request['n_observations'])],
    ['output_format', String(request['output_format'])],
    ['include_geography', String(request['include_geography'] ?? 'none')],
    ['linked_records', String(request['linked_records'] ?? 'none')],
    ...(test ? ([['test_mode', 'yes']] as [string, string][]) : []),
    ...(sameRecords ? ([['seed', String(request['seed'])], ['implicate', String(request['implicate'] ?? 1)]] as [string, string][]) : []),
  ];
  return fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
}

export function queryBody(csrf: string, detail: QueryDetail, timeZone: string, baseUrl: string, key?: ApiKeyRecord): Html {
  const q = detail.item;
  const m = detail.metadata;
  const test = q.test_data === true;
  const request = reproducingRequest(m);
  const format = String(m['output_format'] ?? 'csv');
  const extension = m['linked_records'] === 'household' ? 'zip' : format;
  return html`<p>Run ${when(new Date(q.executed_at), timeZone)}${testBadge(test)} · <code class="id">${q.query_id}</code></p>
${test ? html`<p class="notice info">A test-mode query (sandbox): test data, not for analysis; nothing was charged.</p>` : ''}
<h2>Files</h2>
${
  q.download_expired
    ? html`<p><span class="expired">The file has expired.</span> Run it again with the same seed (below) for the same records.</p>`
    : html`<p><a class="button" href="${q.download_url}">Download the ${format} file</a>${q.dictionary_url ? html` <a href="${q.dictionary_url}">Data dictionary</a>` : ''}</p>`
}
<h2>Parameters</h2>
<dl class="figures">
${Object.entries(FIELD_LABELS)
  .filter(([field]) => m[field] !== undefined)
  .map(([field, label]) => html`<dt>${label}</dt><dd>${Array.isArray(m[field]) ? (m[field] as string[]).join(`${PLACE_SEPARATOR} `) : String(m[field])}</dd>`)}
<dt>Credits</dt><dd>${q.credit_cost}</dd>
<dt>Seed</dt><dd><code class="id">${String(m['seed'] ?? '')}</code></dd>
<dt>Pool release</dt><dd>${String(m['version'] ?? '')}${m['fitted_to'] ? html` <span class="hint">(fitted to ${String(m['fitted_to'])}${sizedTo(m['population_estimate'])})</span>` : ''}</dd>
<dt>Implicate</dt><dd>${String(m['implicate'] ?? 1)}</dd>
<dt>Test data</dt><dd>${test ? 'yes (test mode)' : 'no'}</dd>
<dt>Run with</dt><dd>${detail.keyId === null ? 'the account area' : key ? html`API key ${key.name ?? '(made by the operator)'} <code>${key.prefix}…${key.last4}</code>${key.revokedAt ? ' (revoked)' : ''}` : 'an API key since deleted'}</dd>
</dl>
<h2>Run it again</h2>
<div class="actions">
<form method="post" action="/console/query/preview" class="inline">${csrfField(csrf)}${builderFields(request, test, false)}<button type="submit">Run again (new records)</button></form>
<form method="post" action="/console/query/preview" class="inline">${csrfField(csrf)}${builderFields(request, test, true)}<button type="submit" class="secondary">Run again (the same records)</button></form>
</div>
<p class="hint">Both show the price first. The same seed and implicate give the same records, as long as the pool release is ${String(m['version'] ?? 'the same')}.</p>
<h2>Copy as code</h2>
<p class="hint">The same request with the API${test ? ' (a spq_test_ key: this was a test-mode query)' : ''}, seed and implicate included. The key comes from <code>SPQ_API_KEY</code>.</p>
${snippets(baseUrl, request, extension).map(
  (s) => html`<details class="snippet"><summary>${s.language}</summary><pre tabindex="0"><code id="snippet-${s.id}">${s.code}</code></pre><button type="button" class="secondary" data-copy="snippet-${s.id}" hidden>Copy ${s.language}</button></details>`,
)}
<p><a href="/console/queries">All queries</a></p>`;
}

/** A query run on a release sized to an estimated resident population: ", sized to the ABS estimated resident population of 30 June 2023". */
function sizedTo(estimate: unknown): string {
  if (typeof estimate !== 'object' || estimate === null || !('year' in estimate)) return '';
  const e = estimate as { year: unknown; breakdown?: unknown };
  return `, sized to the ABS estimated resident population of 30 June ${String(e.year)}${e.breakdown === 'age_sex' ? ' by age and sex' : ''}`;
}
