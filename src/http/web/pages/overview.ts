import type { HistoryOutcome } from '../../../app/history.ts';
import { USAGE_DAYS, USAGE_QUERY_LIMIT, type AccountOverview, type DayUsage, type KeyUsage } from '../../../app/web/usage.ts';
import { html, tableBox, when, type Html } from '../html.ts';
import { GET_CREDITS, queriesTable } from './render.ts';

/**
 * The overview: balance and what renews when, usage over the last 30 days by day (inline SVG bar
 * charts: no script, no CDN, drawn on the server) and by key, and the latest queries.
 */

const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

const CHART = { width: 600, height: 150, top: 18, bottom: 22, left: 4, right: 4 } as const;

/** "2026-11-25" → "25 Nov" (the day is already the holder's; no time zone to apply). */
const shortDay = (day: string): string => new Date(`${day}T12:00:00Z`).toLocaleDateString('en-AU', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/**
 * A bar per day. The SVG is an image named by its heading and summary; the figures themselves
 * are in the table under it, for screen readers and for copying.
 */
function barChart(id: string, title: string, days: readonly DayUsage[], value: (d: DayUsage) => number, unit: string): Html {
  const values = days.map(value);
  const max = Math.max(1, ...values);
  const total = values.reduce((a, b) => a + b, 0);
  const plotHeight = CHART.height - CHART.top - CHART.bottom;
  const slot = (CHART.width - CHART.left - CHART.right) / days.length;
  const busiest = days[values.indexOf(Math.max(...values))];
  const summary = total === 0 ? `No ${unit} in the last ${days.length} days.` : `${total} ${unit} in the last ${days.length} days; the most, ${max}, on ${shortDay(busiest!.day)}.`;
  return html`<figure class="chart"><figcaption id="${id}-title"><strong>${title}</strong> <span class="hint" id="${id}-summary">${summary}</span></figcaption>
<svg viewBox="0 0 ${CHART.width} ${CHART.height}" role="img" aria-labelledby="${id}-title" focusable="false">
<line class="axis" x1="${CHART.left}" y1="${CHART.top + plotHeight}" x2="${CHART.width - CHART.right}" y2="${CHART.top + plotHeight}"/>
<text class="label" x="${CHART.width - CHART.right}" y="14" text-anchor="end">max ${max}</text>
${days.map((d, i) => {
  const h = (values[i]! / max) * plotHeight;
  const x = CHART.left + i * slot + slot * 0.15;
  return html`<rect class="bar${d.testQueries > 0 && d.testQueries === d.queries ? ' test' : ''}" x="${x.toFixed(1)}" y="${(CHART.top + plotHeight - h).toFixed(1)}" width="${(slot * 0.7).toFixed(1)}" height="${h.toFixed(1)}"><title>${shortDay(d.day)}: ${values[i]} ${unit}</title></rect>`;
})}
<text class="label" x="${CHART.left}" y="${CHART.height - 6}">${shortDay(days[0]!.day)}</text>
<text class="label" x="${CHART.width - CHART.right}" y="${CHART.height - 6}" text-anchor="end">${shortDay(days[days.length - 1]!.day)}</text>
</svg></figure>`;
}

const keyName = (k: KeyUsage): Html =>
  k.keyId === null
    ? html`Account area <span class="hint">(this site’s builder)</span>`
    : k.key
      ? html`${k.key.name ?? '(made by the operator)'} <code>${k.key.prefix}…${k.key.last4}</code>${k.key.revokedAt ? html` <span class="hint">(revoked)</span>` : ''}`
      : html`<code>${k.keyId}</code>`;

export function overviewBody(overview: AccountOverview, recent: HistoryOutcome, timeZone: string): Html {
  const s = overview.summary;
  const r = overview.renewal;
  const busyDays = overview.days.filter((d) => d.queries > 0);
  return html`<dl class="figures overview">
<dt>Credits available</dt><dd><strong class="big">${s.creditsRemaining}</strong>${s.creditsRemaining === 0 ? html` <span class="hint">${GET_CREDITS}</span>` : ''}</dd>
<dt>Tier</dt><dd>${s.tier}</dd>
${
  r.tier === 'free'
    ? html`<dt>Renews</dt><dd>${s.freeCreditsRemaining} of ${r.allowance} free credits left this week; back to ${r.allowance} on ${when(r.resetsAt, timeZone)}</dd>`
    : html`<dt>Renews</dt><dd>Paid tier${r.paidUntil ? html` until ${when(r.paidUntil, timeZone)}` : ''}; bought credits never expire. Paid weeks bring no free allowance${s.freeCreditsRemaining > 0 ? html` (${s.freeCreditsRemaining} free credits left from a free week, usable until ${when(r.freeLeftUntil, timeZone)})` : ''}.</dd>`
}
</dl>
<p><a class="button" href="/console/query">New query</a> <a href="/console/credits">Credits and ledger</a></p>
<h2 id="usage">Usage, last ${USAGE_DAYS} days</h2>
<p>${count(overview.totals.queries, 'query', 'queries')}, ${count(overview.totals.records, 'record')}, ${count(overview.totals.credits, 'credit')}${overview.totals.testQueries > 0 ? html` (${overview.totals.testQueries} of the queries in test mode, free)` : ''}.${overview.truncated ? html` <span class="hint">Counted from the newest ${USAGE_QUERY_LIMIT} queries.</span>` : ''}</p>
<div class="charts">
${barChart('chart-queries', 'Queries per day', overview.days, (d) => d.queries, 'queries')}
${barChart('chart-records', 'Records per day', overview.days, (d) => d.records, 'records')}
${barChart('chart-credits', 'Credits per day', overview.days, (d) => d.credits, 'credits')}
</div>
${
  busyDays.length === 0
    ? ''
    : html`<details><summary>The figures by day</summary>${tableBox('Usage by day', html`<table><thead><tr><th scope="col">Day</th><th scope="col" class="num">Queries</th><th scope="col" class="num">Records</th><th scope="col" class="num">Credits</th></tr></thead><tbody>
${busyDays.map((d) => html`<tr><td>${shortDay(d.day)}</td><td class="num">${d.queries}</td><td class="num">${d.records}</td><td class="num">${d.credits}</td></tr>`)}</tbody></table>`)}</details>`
}
<h3>By key</h3>
${
  overview.byKey.length === 0
    ? html`<p>No queries in the last ${USAGE_DAYS} days.</p>`
    : tableBox('Usage by key', html`<table class="cards"><thead><tr><th scope="col">Key</th><th scope="col" class="num">Queries</th><th scope="col" class="num">Records</th><th scope="col" class="num">Credits</th></tr></thead><tbody>
${overview.byKey.map((k) => html`<tr><td data-label="Key">${keyName(k)}</td><td class="num" data-label="Queries">${k.queries}</td><td class="num" data-label="Records">${k.records}</td><td class="num" data-label="Credits">${k.credits}</td></tr>`)}</tbody></table>`)
}
<h2>Recent queries</h2>
${recent.queries.length === 0 ? html`<p>No queries yet. <a href="/console/query">Build one</a>.</p>` : html`${queriesTable(recent.queries, timeZone, 'Recent queries')}<p><a href="/console/queries">All queries</a></p>`}`;
}
