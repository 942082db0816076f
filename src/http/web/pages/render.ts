import type { PreviewOutcome } from '../../../app/preview.ts';
import type { ExecuteOutcome } from '../../../app/execute.ts';
import type { HistoryOutcome } from '../../../app/history.ts';
import type { CreditsOverview } from '../../../app/web/holder.ts';
import type { NewKey } from '../../../app/accounts.ts';
import { DATASET_TYPES, GEOGRAPHY_LEVELS, INCLUDE_GEOGRAPHY, LINKED_RECORDS, OUTPUT_FORMATS } from '../../../core/dataset.ts';
import type { ApiKeyRecord } from '../../../ports/account-store.ts';
import { csrfField, html, notice, tableBox, testBadge, when, type Html } from '../html.ts';
import { PLACE_EXAMPLES, PLACE_SEPARATOR } from '../../../app/web/builder.ts';
import { SANDBOX_MAX_OBSERVATIONS } from '../../../core/pricing.ts';
import { FREE_WEEKLY_CREDITS } from '../../../core/ledger/weekly-reset.ts';
import type { FormBody } from './forms.ts';
import type { Purchase } from '../../../ports/payment-ledger.ts';
import { purchasesSection } from './buy.ts';
import { randomUUID } from 'node:crypto';

const LEDGER_WORDS: Readonly<Record<string, string>> = {
  grant: 'Credits granted',
  bundle_purchase: 'Bundle bought',
  free_allowance: 'Weekly free allowance',
  charge: 'Query charged',
  refund: 'Query refunded',
};

/** A bundle_purchase entry that takes credits away is a refund's or a lost dispute's take-back (kysely-payment-ledger.ts). */
const ledgerWords = (e: { readonly kind: string; readonly purchasedCredits: number; readonly note: string | null }): string =>
  e.kind === 'bundle_purchase' && (e.purchasedCredits < 0 || (e.note ?? '').includes(' taken back')) ? 'Bundle taken back (refund or dispute)' : (LEDGER_WORDS[e.kind] ?? e.kind);

export function signInBody(error?: string, email = ''): Html {
  return html`${error ? notice('error', error) : ''}
<form method="post" action="/console/sign-in" class="stack">
  <div><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}"></div>
  <div><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
  <div><button type="submit">Sign in</button></div>
</form>
<p class="hint"><a href="/console/forgot">Forgot your password?</a> (No password yet? Use the invitation link you were sent.)</p>`;
}

export function setPasswordBody(email: string, error?: string): Html {
  return html`${error ? notice('error', error) : ''}
<p>Choose the password for <strong>${email}</strong>. At least 12 characters; a few unrelated words work well.</p>
<form method="post" class="stack">
  <div><label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="12" required></div>
  <div><label for="confirmation">The same password again</label><input id="confirmation" name="confirmation" type="password" autocomplete="new-password" minlength="12" required></div>
  <div class="check"><input id="revoke_keys" name="revoke_keys" type="checkbox" value="yes"> <label for="revoke_keys" class="inline">Also revoke every API key of this account (if a key may have been seen by someone else; programs using them stop working)</label></div>
  <div><button type="submit">Set password</button></div>
</form>`;
}

export function keysBody(csrf: string, keys: readonly ApiKeyRecord[], timeZone: string, created?: NewKey, message?: Html): Html {
  const active = keys.filter((k) => k.revokedAt === null);
  const revoked = keys.filter((k) => k.revokedAt !== null);
  return html`${message ?? ''}${
    created
      ? html`<section class="notice ok" aria-labelledby="new-key"><h2 id="new-key">Your new key “${created.key.name ?? ''}”</h2>
<p>Copy it now: it is shown once and cannot be retrieved again. Send it as <code>Authorization: Bearer …</code>.</p>
<div class="secret"><code id="new-key-value">${created.apiKey}</code> <button type="button" class="secondary" data-copy="new-key-value" hidden>Copy</button></div></section>`
      : ''
  }
<h2>Create a key</h2>
<form method="post" action="/console/keys" class="stack">${csrfField(csrf)}<input type="hidden" name="form_id" value="${randomUUID()}">
  <div><label for="name">Name <span class="hint">(so you can tell keys apart)</span></label><input id="name" name="name" type="text" maxlength="60" required placeholder="e.g. laptop"></div>
  <div class="check"><input id="sandbox" name="sandbox" type="checkbox" value="yes"> <label for="sandbox" class="inline">Sandbox key (spq_test_): test data, nothing charged</label></div>
  <div><label for="current_password">Your password <span class="hint">(a key acts for your account: confirm it is you)</span></label><input id="current_password" name="current_password" type="password" autocomplete="current-password" required maxlength="1024"></div>
  <div><button type="submit">Create key</button></div>
</form>
<h2>Active keys</h2>
${active.length === 0 ? html`<p>No active keys.</p>` : tableBox('Active keys', html`<table class="cards"><caption class="hint">To rotate a key, create a new one, switch your code to it, then revoke the old one.</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="skip">Action</span></th></tr></thead><tbody>
${active.map((k) => html`<tr><td data-label="Name">${k.name ?? '(made by the operator)'}${testBadge(k.prefix.startsWith('spq_test_'))}</td><td data-label="Key"><code>${k.prefix}…${k.last4}</code></td><td data-label="Created">${when(k.createdAt, timeZone)}</td><td data-label="Last used">${k.lastUsedAt ? when(k.lastUsedAt, timeZone) : 'never'}</td>
<td class="action"><a href="/console/keys/${k.keyId}/revoke">Revoke<span class="skip"> ${k.name ?? k.last4}</span></a></td></tr>`)}</tbody></table>`)}
<p class="hint">Browsers signed in to this account, and "Sign out everywhere", are on <a href="/console/account">Your account</a>.</p>
${revoked.length === 0 ? '' : html`<h2>Revoked keys</h2>${tableBox('Revoked keys', html`<table class="cards"><thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Revoked</th></tr></thead><tbody>
${revoked.map((k) => html`<tr><td data-label="Name">${k.name ?? '(made by the operator)'}</td><td data-label="Key"><code>${k.prefix}…${k.last4}</code></td><td data-label="Revoked">${when(k.revokedAt, timeZone)}</td></tr>`)}</tbody></table>`)}`}`;
}

export function revokeBody(csrf: string, key: ApiKeyRecord): Html {
  return html`<p>Revoke <strong>${key.name ?? 'this key'}</strong> (<code>${key.prefix}…${key.last4}</code>)? Requests with it get 401 at once. This cannot be undone.</p>
<form method="post" action="/console/keys/${key.keyId}/revoke" class="stack">${csrfField(csrf)}
<div><button type="submit" class="danger">Revoke key</button> <a href="/console/keys">Cancel</a></div></form>`;
}

export function creditsBody(csrf: string, overview: CreditsOverview, timeZone: string, timeZones: readonly string[], page: number, perPage: number, message?: Html, purchases: readonly Purchase[] = []): Html {
  const s = overview.summary;
  const totalPages = Math.max(1, Math.ceil(overview.ledger.total / perPage));
  return html`${message ?? ''}<dl class="figures">
<dt>Credits available</dt><dd>${s.creditsRemaining}</dd>
<dt>Tier</dt><dd>${s.tier}</dd>
${renewalFigures(s, overview.bundles, timeZone)}
<dt>Credits bought or granted</dt><dd>${s.creditsPurchased}</dd>
<dt>Credits used</dt><dd>${s.creditsUsed}</dd></dl>
<h2>Bundles</h2>
${overview.bundles.length === 0 ? html`<p>No bundles. ${GET_CREDITS}</p>` : tableBox('Bundles', html`<table><thead><tr><th scope="col" class="num">Credits</th><th scope="col">From</th><th scope="col">Paid tier until</th></tr></thead><tbody>
${overview.bundles.map((b) => html`<tr><td class="num">${b.credits}</td><td>${when(b.startsAt, timeZone)}</td><td>${when(b.expiresAt, timeZone)}</td></tr>`)}</tbody></table>`)}
${purchasesSection(purchases, timeZone)}
<h2 id="ledger">Ledger</h2>
${tableBox('Ledger', html`<table class="cards"><thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col" class="num">Free</th><th scope="col" class="num">Bought</th><th scope="col" class="num">Balance</th><th scope="col">Query</th></tr></thead><tbody>
${overview.ledger.items.map((e, i) => html`<tr><td data-label="When">${when(e.createdAt, timeZone)}</td><td data-label="What">${e.kind === 'charge' && e.freeCredits === 0 && e.purchasedCredits === 0 ? html`Test-mode query <span class="hint">(free)</span>` : ledgerWords(e)}${e.note && (e.kind === 'grant' || e.kind === 'bundle_purchase') ? html` <span class="hint">(${e.note})</span>` : ''}</td><td class="num" data-label="Free">${signed(e.freeCredits)}</td><td class="num" data-label="Bought">${signed(e.purchasedCredits)}</td><td class="num" data-label="Balance">${overview.balanceAfter[i]}</td><td data-label="Query">${e.queryId ? html`<a href="/console/queries/${e.queryId}"><code class="id">${e.queryId}</code></a>` : ''}</td></tr>`)}
</tbody></table>`)}
${pager('/console/credits', page, totalPages, '#ledger')}
<h2>Time zone</h2>
<form method="post" action="/console/settings/time-zone" class="stack">${csrfField(csrf)}
<div><label for="time_zone">Show times in</label><select id="time_zone" name="time_zone">${timeZones.map((z) => html`<option${z === timeZone ? html` selected` : ''}>${z}</option>`)}</select></div>
<div><button type="submit" class="secondary">Save</button></div></form>`;
}

/** How a holder gets credits: a bundle from the Buy credits page (or the operator, when payments are off), or the operator's grant (docs/ledger.md). */
export const GET_CREDITS = 'To get credits, buy a bundle (Buy credits, in the menu) or ask the service operator for a grant to this account.';

/** The free allowance and the tier, said as they apply: a free account's allowance renews weekly; a paid one gets none until its bundle ends. */
export function renewalFigures(s: CreditsOverview['summary'], bundles: CreditsOverview['bundles'], timeZone: string, now = new Date()): Html {
  if (s.tier === 'free') {
    return html`<dt>Free credits this week</dt><dd>${s.freeCreditsRemaining} of ${FREE_WEEKLY_CREDITS}${s.freeCreditsReset ? html` <span class="hint">(back to ${FREE_WEEKLY_CREDITS} on ${when(s.freeCreditsReset, timeZone)})</span>` : ''}</dd>`;
  }
  const paidUntil = bundles.filter((b) => b.startsAt <= now && now < b.expiresAt).reduce<Date | null>((latest, b) => (latest === null || b.expiresAt > latest ? b.expiresAt : latest), null);
  return html`<dt>Paid tier</dt><dd>${paidUntil ? html`until ${when(paidUntil, timeZone)}` : 'active'} <span class="hint">(paid weeks bring no free allowance; it comes back, ${FREE_WEEKLY_CREDITS} a week, from the Monday after the paid tier ends)</span></dd>
${s.freeCreditsRemaining > 0 ? html`<dt>Free credits left</dt><dd>${s.freeCreditsRemaining} <span class="hint">(left from a free week; spent before bought credits, until Monday)</span></dd>` : ''}`;
}

const creditWord = (n: number): string => `${n} credit${n === 1 ? '' : 's'}`;

const signed = (n: number): string => (n > 0 ? `+${n}` : n === 0 ? '0' : String(n));

function pager(path: string, page: number, totalPages: number, anchor = ''): Html {
  if (totalPages <= 1) return html``;
  return html`<nav aria-label="Pages"><p>${page > 1 ? html`<a href="${path}?page=${page - 1}${anchor}">Newer</a>` : ''} Page ${page} of ${totalPages} ${page < totalPages ? html`<a href="${path}?page=${page + 1}${anchor}">Older</a>` : ''}</p></nav>`;
}

export function queriesBody(history: HistoryOutcome, timeZone: string): Html {
  const p = history.pagination;
  if (p.total_queries === 0) return html`<p>No queries yet. <a href="/console/query">Build one</a>.</p>`;
  return html`${queriesTable(history.queries, timeZone)}${pager('/console/queries', p.page, p.total_pages)}`;
}

/** Queries as a table (cards on a phone, the Download link kept in view), each linked to its page. */
export function queriesTable(queries: HistoryOutcome['queries'], timeZone: string, label = 'Queries'): Html {
  return tableBox(label, html`<table class="cards"><thead><tr><th scope="col">Run</th><th scope="col">Places</th><th scope="col">Dataset</th><th scope="col" class="num">Records</th><th scope="col" class="num">Credits</th><th scope="col">File</th></tr></thead><tbody>
${queries.map((q) => html`<tr><td data-label="Run"><a href="/console/queries/${q.query_id}">${when(new Date(q.executed_at), timeZone)}</a>${testBadge(q.test_data)}<br><code class="hint id">${q.query_id}</code></td><td data-label="Places">${q.geography_selections.join(`${PLACE_SEPARATOR} `)}</td><td data-label="Dataset">${q.dataset_type}</td><td class="num" data-label="Records">${q.n_observations}</td><td class="num" data-label="Credits">${q.credit_cost}</td>
<td class="action" data-label="File">${q.download_expired ? html`<span class="expired">expired</span>` : html`<a href="${q.download_url}">Download<span class="skip"> ${q.query_id}</span></a>${q.dictionary_url ? html` · <a href="${q.dictionary_url}">dictionary<span class="skip"> of ${q.query_id}</span></a>` : ''}`}</td></tr>`)}
</tbody></table>`);
}

const options = (values: readonly string[], selected: string | undefined): Html[] => values.map((v) => html`<option${v === selected ? html` selected` : ''}>${v}</option>`);

export function builderForm(csrf: string, form: FormBody, error?: string): Html {
  const level = (GEOGRAPHY_LEVELS as readonly string[]).includes(form.geography_level ?? '') ? (form.geography_level as keyof typeof PLACE_EXAMPLES) : 'suburb';
  return html`${error ? notice('error', error) : ''}
<form method="post" action="/console/query/preview" class="stack">${csrfField(csrf)}
<div><label for="geography_level">Geography level</label><select id="geography_level" name="geography_level">${options(GEOGRAPHY_LEVELS, form.geography_level ?? 'suburb')}</select></div>
<div><label for="geography">Places <span class="hint" id="geography-hint" data-examples="${JSON.stringify(PLACE_EXAMPLES)}">(one or more, separated by “${PLACE_SEPARATOR}”, e.g. ${PLACE_EXAMPLES[level]})</span></label>
<input id="geography" name="geography" type="text" list="geography-suggestions" data-suggest autocomplete="off" value="${form.geography ?? ''}"><datalist id="geography-suggestions"></datalist></div>
<div><label for="dataset_type">Dataset</label><select id="dataset_type" name="dataset_type">${options(DATASET_TYPES, form.dataset_type ?? 'persons')}</select></div>
<div><label for="n_observations">Records per place</label><input id="n_observations" name="n_observations" type="number" min="1" step="1" required value="${form.n_observations ?? String(SANDBOX_MAX_OBSERVATIONS)}"></div>
<div><label for="output_format">File format</label><select id="output_format" name="output_format">${options(OUTPUT_FORMATS, form.output_format ?? 'csv')}</select></div>
<div><label for="include_geography">Geography columns</label><select id="include_geography" name="include_geography">${options(INCLUDE_GEOGRAPHY, form.include_geography ?? 'none')}</select></div>
<div><label for="linked_records">Linked records</label><select id="linked_records" name="linked_records">${options(LINKED_RECORDS, form.linked_records ?? 'none')}</select></div>
<div class="check"><input id="test_mode" name="test_mode" type="checkbox" value="yes"${form.test_mode === 'yes' ? html` checked` : ''}> <label for="test_mode" class="inline">Test mode <span class="hint">(test data, as a spq_test_ key gets: at most ${SANDBOX_MAX_OBSERVATIONS} records per place, nothing charged)</span></label></div>
<div><button type="submit">See the price</button></div></form>`;
}

/** A release sized to an estimated resident population: each place's 2021 Census count and its estimate (what its pool is sized to). */
function populationRows(matches: PreviewOutcome['geography_matches']): Html | string {
  const sized = matches.filter((m) => m.census_count !== undefined && m.estimated_population !== undefined);
  if (sized.length === 0) return '';
  const figure = (n: number) => n.toLocaleString('en-AU');
  return html`
<dt>Population</dt><dd>${sized.map((m, i) => html`${i > 0 ? '; ' : ''}${m.suburb_id}: ${figure(m.estimated_population!)} estimated <span class="hint">(2021 Census count ${figure(m.census_count!)})</span>`)}</dd>`;
}

export function previewBody(csrf: string, form: FormBody, preview: PreviewOutcome, idempotencyKey: string, available: number, test: boolean): Html {
  const hidden = Object.entries(form)
    .filter(([name]) => name !== '_csrf' && name !== 'idempotency_key')
    .map(([name, value]) => html`<input type="hidden" name="${name}" value="${value ?? ''}">`);
  const affordable = test || preview.credit_cost <= available;
  const change = html`<a href="/console/query?${new URLSearchParams(Object.entries(form).filter(([name, value]) => value !== undefined && name !== '_csrf' && name !== 'idempotency_key') as [string, string][]).toString()}">Change the query</a>`;
  return html`${test ? html`<p class="notice info"><span class="badge">test data</span> Test mode: nothing is charged and the file is marked as test data, not for analysis.</p>` : ''}<dl class="figures"><dt>Price</dt><dd><strong>${test ? 'free (test mode)' : creditWord(preview.credit_cost)}</strong> <span class="hint">(you have ${available})</span></dd>
<dt>Records</dt><dd>${preview.n_observations} per place</dd>
<dt>Places</dt><dd>${preview.geography_matches.map((m, i) => html`${i > 0 ? '; ' : ''}${m.suburb_id} <a href="/console${m.quality_url}">fit to the census<span class="skip"> of ${m.suburb_id}</span></a>`)}</dd>${populationRows(preview.geography_matches)}
<dt>Records available</dt><dd>${preview.pool_available}</dd>${form.seed ? html`
<dt>Seed</dt><dd><code class="id">${form.seed}</code>, implicate ${form.implicate ?? '1'} <span class="hint">(the same records as the query it came from)</span></dd>` : ''}</dl>
${preview.warnings.map((w) => notice('info', w))}
<form method="post" action="/console/query/execute" class="stack">${csrfField(csrf)}${hidden}<input type="hidden" name="idempotency_key" value="${idempotencyKey}">
${affordable ? html`<div><button type="submit">${test ? 'Run in test mode' : html`Run for ${creditWord(preview.credit_cost)}`}</button> ${change}</div></form>` : html`</form>${notice('error', html`This query costs ${creditWord(preview.credit_cost)} and the account has ${available}. ${GET_CREDITS} Meanwhile, ask for fewer records or places, or try it in test mode (free, at most ${SANDBOX_MAX_OBSERVATIONS} records per place).`)}
<p><a href="/console/credits">Your credits</a> · ${change}</p>`}`;
}

export function executedBody(outcome: ExecuteOutcome, timeZone: string): Html {
  const test = outcome.metadata.test_data === true;
  return html`${notice('ok', test ? html`Done in test mode: nothing charged, ${outcome.credits_remaining} credits left. The file is test data.` : html`Done: ${creditWord(outcome.credit_cost)} charged, ${outcome.credits_remaining} left.`)}
<p><a class="button" href="${outcome.download_url}">Download the ${outcome.metadata.output_format} file</a>${outcome.dictionary_url ? html` <a href="${outcome.dictionary_url}">Data dictionary</a>` : ''}</p>
<dl class="figures"><dt>Query</dt><dd><a href="/console/queries/${outcome.query_id}"><code class="id">${outcome.query_id}</code></a>${testBadge(test)}</dd><dt>Link valid until</dt><dd>${when(new Date(outcome.download_expires), timeZone)}</dd>
<dt>Seed</dt><dd><code class="id">${outcome.metadata.seed}</code></dd><dt>Pool release</dt><dd>${outcome.metadata.version}</dd></dl>
<p><a href="/console/queries">All queries</a> · <a href="/console/query">Another query</a></p>`;
}
