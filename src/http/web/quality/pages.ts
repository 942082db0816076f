/**
 * The quality pages' HTML: an area's page (its records beside the census tables it was fitted to)
 * and the release's page (also written by `spq build` as report.html, readable offline: the
 * stylesheet inline, no link it needs). Every figure escaped through html``; every chart with
 * its table beside it.
 */
import type { AreaQualityModel, ChartModel, ReleaseFacts, ReleaseQualityModel } from '../../../app/quality/pages.ts';
import { html, tableBox, type Html } from '../html.ts';
import { STYLESHEET } from '../assets.ts';
import { barChart, bandPanels, dotPlot, fmt, pyramid, score } from './charts.ts';

const LEVEL_WORDS: Readonly<Record<string, string>> = { suburb: 'Suburb', postcode: 'Postcode', sa2: 'SA2', lga: 'LGA', state: 'State or territory', australia: 'Australia', sal: 'Suburbs (SAL)', poa: 'Postal areas' };
const levelWord = (level: string): string => LEVEL_WORDS[level] ?? level;

/** A whole quality page: the console's stylesheet linked (served) or inline (report.html, offline). */
export function qualityDocument(title: string, body: Html, options: { readonly offline?: boolean; readonly home?: string } = {}): string {
  const style = options.offline ? html`<style>${STYLESHEET}</style>` : html`<link rel="stylesheet" href="/console/assets/spq.css">`;
  const home = options.home ?? '/quality';
  return `<!doctype html>${html`<html lang="en-AU"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · spq quality</title>${style}</head>
<body class="quality"><a class="skip" href="#main">Skip to content</a><header><a class="brand" href="${options.offline ? '#main' : home}">spq quality</a>${options.offline ? '' : html`<nav aria-label="Quality"><ul><li><a href="/quality">Release quality</a></li><li><a href="/console">Account</a></li></ul></nav>`}</header>
<main id="main"><h1>${title}</h1>${body}</main><footer>${options.offline ? 'Written by spq build beside report.txt.' : html`<a href="/docs">API reference</a>`}</footer></body></html>`.text}`;
}

function releaseFacts(r: ReleaseFacts): Html {
  return html`<dt>Release</dt><dd><code>${r.version}</code> <span class="hint">(checksum <code>${r.checksum.slice(0, 12)}…</code>)</span></dd>
<dt>Fitted to</dt><dd>${r.fittedTo === 'census' ? 'the ABS 2021 Census tables (fitted_to "census")' : 'the demo’s made-up tables (fitted_to "demo")'}</dd>
<dt>Built</dt><dd><time datetime="${r.builtAt.toISOString()}">${r.builtAt.toISOString().slice(0, 16).replace('T', ' ')} UTC</time></dd>`;
}

const LEGEND = html`<p class="legend"><span class="key records" aria-hidden="true"></span> the records (the synthetic population) · <span class="key published" aria-hidden="true"></span> the census’s published figure · <span class="key band" aria-hidden="true"></span> the census’s own noise about it (± one standard deviation, from the table’s subtotals against its cells): a bar inside the band matches the census as closely as the census matches itself.</p>`;

function areaFacts(m: AreaQualityModel): Html {
  const small = m.smallAreas > 0;
  return html`<dl class="figures">
<dt>Level</dt><dd>${levelWord(m.level)}${m.areas.length > 1 ? html` <span class="hint">made of ${m.areas.length} areas with pools; its figures are their sums</span>` : html` <span class="hint">(code <code>${m.areas[0]!.salCode}</code>)</span>`}</dd>
<dt>Records</dt><dd>${fmt(m.persons)} persons, ${fmt(m.families)} families, ${fmt(m.dwellings)} dwellings</dd>
<dt>Small area</dt><dd>${small ? html`<strong>yes</strong>${m.areas.length > 1 ? ` (${m.smallAreas} of ${m.areas.length} areas)` : ''}: few real residents, so the census’s own noise is large against its cells and ${m.coarsened.length} variables are served in coarser categories (${m.coarsened.map((c) => c.code).join(', ')}); the charts of those variables are drawn in the coarse categories` : 'no: every variable is served in its full categories'}</dd>
<dt>Tables</dt><dd>${m.derivedTables.length === 0 ? 'every table is the area’s own, as the ABS publishes it' : html`taken from the area’s SA2s and postcodes (not its own): ${m.derivedTables.join(', ')}; the rest are its own`}</dd>
${releaseFacts(m.release)}</dl>`;
}

function chartSection(c: ChartModel, index: number): Html {
  const id = `chart-${c.chart.id}`;
  const anyPublished = c.bars.some((b) => b.published !== null);
  const records = c.bars.reduce((n, b) => n + b.records, 0);
  const published = c.bars.reduce((n, b) => n + (b.published ?? 0), 0);
  const summary = anyPublished ? `${fmt(records)} ${c.chart.unit} in the records, ${fmt(published)} in the census table.` : `${fmt(records)} ${c.chart.unit} in the records; no published figures to set beside them.`;
  const svg = c.chart.split ? pyramid(`${id}-svg`, `${id}-title`, c.bars) : barChart(`${id}-svg`, `${id}-title`, c.bars);
  return html`<section class="quality-chart" aria-labelledby="${id}-h"><h2 id="${id}-h">${index + 1}. ${c.chart.title}</h2>
<p class="hint">Census table ${c.chart.tableId}: ${c.tableDescription}${c.own ? '' : ' — taken from the area’s SA2s and postcodes, not its own'}${c.view === 'coarse' ? '. Shown in coarse categories (the records are served coarsened here)' : ''}.</p>
<div class="chart-pair"><figure class="chart"><figcaption id="${id}-title"><strong>${c.chart.title}</strong> <span class="hint">${summary}</span></figcaption>${svg}</figure>
${c.chart.split ? splitTable(c) : tableBox(`${c.chart.title}: figures`, html`<table class="figures-table"><caption class="hint">${c.chart.title}, ${c.chart.unit}</caption><thead><tr><th scope="col">Category</th><th scope="col" class="num">Records</th><th scope="col" class="num">Census</th><th scope="col" class="num">± noise</th></tr></thead><tbody>
${c.bars.map((b) => html`<tr><th scope="row">${b.label}</th><td class="num">${fmt(b.records)}</td><td class="num">${census(b.published)}</td><td class="num">${fmt(b.noise, 1)}</td></tr>`)}</tbody></table>`)}</div></section>`;
}

const census = (v: number | null): string => fmt(v, v !== null && !Number.isInteger(v) ? 1 : 0);

/** The pyramid's figures: a row per age, the two sexes side by side (each bar's label is "<sex>, <age>"). */
function splitTable(c: ChartModel): Html {
  const ages = [...new Set(c.bars.map((b) => b.label.replace(/^[^,]*, /, '')))];
  const sexes = [...new Set(c.bars.map((b) => b.label.replace(/, .*$/, '')))];
  const at = (sex: string, age: string) => c.bars.find((b) => b.label === `${sex}, ${age}`);
  return tableBox(`${c.chart.title}: figures`, html`<table class="figures-table"><caption class="hint">${c.chart.title}, ${c.chart.unit}; ± noise is each sex’s</caption><thead><tr><th scope="col">Age</th>${sexes.map((sex) => html`<th scope="col" class="num">${sex}: records</th><th scope="col" class="num">${sex}: census</th>`)}<th scope="col" class="num">± noise</th></tr></thead><tbody>
${ages.map((age) => html`<tr><th scope="row">${age}</th>${sexes.map((sex) => html`<td class="num">${fmt(at(sex, age)?.records)}</td><td class="num">${census(at(sex, age)?.published ?? null)}</td>`)}<td class="num">${fmt(at(sexes[0]!, age)?.noise, 1)}</td></tr>`)}</tbody></table>`);
}

function fitSection(m: AreaQualityModel): Html {
  if (m.fits.length === 0) return html`<h2>Fit per table</h2><p>This release holds no per-area fit figures (built before quality pages); <a href="/quality">the release’s page</a> has what its report holds.</p>`;
  const rows = m.fits.map((f) => ({ label: f.tableId, value: f.srmse, floor: f.floor }));
  const within = m.fits.filter((f) => f.srmse !== null && f.floor !== null && f.srmse <= f.floor).length;
  return html`<section aria-labelledby="fit-h"><h2 id="fit-h">Fit per table against the census’s noise floor</h2>
<p>SRMSE of the records against each census table the area was fitted to (0 is a perfect match), beside the floor: what a population matching the true counts would score against the published, perturbed cells.${m.areas.length > 1 ? ` Medians over the ${m.areas.length} areas.` : ''} ${within} of ${m.fits.length} tables at or below their floor.</p>
<div class="chart-pair"><figure class="chart"><figcaption id="fit-title"><strong>SRMSE per table</strong> <span class="hint">filled dot: the records; ring: the census’s floor</span></figcaption>${dotPlot('fit-svg', 'fit-title', rows)}</figure>
${tableBox('Fit per table: figures', html`<table class="figures-table"><thead><tr><th scope="col">Table</th><th scope="col" class="num">SRMSE</th><th scope="col" class="num">Floor</th><th scope="col">Source</th></tr></thead><tbody>
${m.fits.map((f) => html`<tr><th scope="row"><abbr title="${f.description}">${f.tableId}</abbr></th><td class="num">${score(f.srmse)}</td><td class="num">${score(f.floor)}</td><td>${f.own ? 'own' : 'borrowed'}</td></tr>`)}</tbody></table>`)}</div></section>`;
}

/** An area's page body. */
export function areaQualityBody(m: AreaQualityModel): Html {
  return html`${areaFacts(m)}
${m.release.hasQualityFile ? LEGEND : html`<p class="notice info">This release was built before quality pages: its records are shown alone. A release built by this version of <code>spq build</code> sets them beside the census tables.</p>`}
${m.charts.map(chartSection)}
${fitSection(m)}
<p><a href="/quality">The release’s quality page</a> (fit by level, table and size band; areas left out; family links).</p>`;
}

const BAND_WORDS: Readonly<Record<string, string>> = { '<500': 'under 500 persons', '500-5000': '500 to 4,999', '>=5000': '5,000 and over' };

function releaseFitSection(m: ReleaseQualityModel): Html {
  if (m.fitRows.length === 0) return html`<h2>Fit by level, table and size band</h2><p>This release was built before quality pages: its per-area fit is in report.txt and report.json only.</p>`;
  const levels = [...new Set(m.fitRows.map((r) => r.level))];
  return html`<section aria-labelledby="release-fit-h"><h2 id="release-fit-h">Fit by level, table and size band</h2>
<p>Median SRMSE over the areas of each level, table and size band (filled dot), beside the census’s own noise floor over the same areas (ring). A dot at or left of its ring: the records match the census as closely as the census’s own figures agree with each other.</p>
<figure class="chart wide"><figcaption id="release-fit-title"><strong>Fit by level, table and size band</strong> <span class="hint">one panel per size band (each its own SRMSE scale, 0 at its left edge), one row per table${levels.length > 1 ? ', levels one after another' : ''}</span></figcaption>${bandPanels('release-fit-svg', 'release-fit-title', m.fitRows)}</figure>
${tableBox('Fit by level, table and size band: figures', html`<table class="figures-table"><thead><tr><th scope="col">Level</th><th scope="col">Table</th><th scope="col">Size band</th><th scope="col" class="num">Areas</th><th scope="col" class="num">SRMSE</th><th scope="col" class="num">Floor</th></tr></thead><tbody>
${m.fitRows.map((r) => html`<tr><td>${levelWord(r.level)}</td><th scope="row"><abbr title="${m.tableDescriptions[r.tableId] ?? ''}">${r.tableId}</abbr></th><td>${BAND_WORDS[r.band]}</td><td class="num">${r.areas}</td><td class="num">${score(r.srmse)}</td><td class="num">${score(r.floor)}</td></tr>`)}</tbody></table>`)}</section>`;
}

function listTable(label: string, rows: readonly { readonly area: string; readonly reason: string }[], limit = 200): Html {
  if (rows.length === 0) return html`<p>None.</p>`;
  return html`${tableBox(label, html`<table class="figures-table"><thead><tr><th scope="col">Area</th><th scope="col">Reason</th></tr></thead><tbody>${rows.slice(0, limit).map((r) => html`<tr><td>${r.area}</td><td>${r.reason}</td></tr>`)}</tbody></table>`)}${rows.length > limit ? html`<p class="hint">The first ${limit} of ${rows.length}; report.json lists them all.</p>` : ''}`;
}

function reportSections(m: ReleaseQualityModel): Html {
  const r = m.report;
  if (!r) return html`<p>This release holds no build report.</p>`;
  const rules = Object.entries(r.violationsByRule ?? {}).filter(([, n]) => n > 0).sort(([, a], [, b]) => b - a);
  const resemblance = r.realism?.all?.synthetic?.resemblance;
  const links = Object.entries(resemblance?.links ?? {});
  return html`<section aria-labelledby="violations-h"><h2 id="violations-h">Structural rules</h2>
<p>${fmt(r.structuralViolations ?? 0)} records break a structural rule (a child older than a parent, a lone person in a family household …).</p>
${rules.length === 0 ? html`<p>Every rule the build checks (${Object.keys(r.violationsByRule ?? {}).length}) holds for every record.</p>` : tableBox('Structural violations by rule', html`<table class="figures-table"><thead><tr><th scope="col">Rule</th><th scope="col" class="num">Records</th></tr></thead><tbody>${rules.map(([rule, n]) => html`<tr><th scope="row">${rule}</th><td class="num">${fmt(n)}</td></tr>`)}</tbody></table>`)}</section>
<section aria-labelledby="left-out-h"><h2 id="left-out-h">Areas left out</h2>
<h3>Not built because of the inputs</h3>${listTable('Areas left out', r.areasLeftOut ?? [])}
<h3>Could not be fitted</h3>${listTable('Areas that could not be fitted', r.areasFailed ?? [])}
${r.cellsNotPublished ? html`<p>Unpublished census cells: ${fmt(r.cellsNotPublished.estimated)} estimated from a parent area, ${fmt(r.cellsNotPublished.structural)} structural zeros.</p>` : ''}</section>
<section aria-labelledby="links-h"><h2 id="links-h">Family and household links against their published sources</h2>
<p>How alike the members of a family or home are in the records, against what independence would give at the same margins, the synthesizer’s target, and the published figure the strength comes from.</p>
${links.length === 0 ? html`<p>This release’s report has no link figures.</p>` : tableBox('Family links', html`<table class="figures-table"><thead><tr><th scope="col">Link</th><th scope="col" class="num">Pairs</th><th scope="col" class="num">Alike</th><th scope="col" class="num">Independence</th><th scope="col" class="num">Target</th><th scope="col" class="num">Published</th><th scope="col">Source</th></tr></thead><tbody>
${links.map(([name, l]) => html`<tr><th scope="row">${name}</th><td class="num">${fmt(l.pairs)}</td><td class="num">${share(l.alike)}</td><td class="num">${share(l.independence)}</td><td class="num">${share(l.target)}</td><td class="num">${share(l.published)}</td><td>${l.source}</td></tr>`)}
${resemblance?.parentsOfDependentChildren ? html`<tr><th scope="row">parents of dependent children both born in Australia or both overseas</th><td class="num">${fmt(resemblance.parentsOfDependentChildren.children)}</td><td class="num">${share(resemblance.parentsOfDependentChildren.alike)}</td><td class="num">${share(resemblance.parentsOfDependentChildren.independence)}</td><td class="num">—</td><td class="num">${share(resemblance.parentsOfDependentChildren.published.alike)}</td><td>G30 (Australia, 2021)</td></tr>` : ''}
</tbody></table>`)}
${resemblance?.homeLanguage || resemblance?.degreeOverChance ? html`<ul>${resemblance.homeLanguage ? html`<li>Homes where another language is used, over the persons in them who use one: ${fmt(resemblance.homeLanguage.householdsOverPersons, 3)} in the records against ${fmt(resemblance.homeLanguage.published, 3)} published (1 when every home agrees).</li>` : ''}${resemblance.degreeOverChance ? html`<li>Couples both holding a degree, over what chance gives: ${fmt(resemblance.degreeOverChance.records, 2)} in the records, target ${fmt(resemblance.degreeOverChance.target, 2)}, published ${fmt(resemblance.degreeOverChance.published, 2)}.</li>` : ''}</ul>` : ''}</section>
${(r.inputNotes ?? []).length === 0 ? '' : html`<section aria-labelledby="notes-h"><h2 id="notes-h">Notes on the inputs</h2><ul>${r.inputNotes!.map((n) => html`<li>${n}</li>`)}</ul></section>`}`;
}

const share = (v: number | undefined | null): string => (v === undefined || v === null ? '—' : `${(v * 100).toFixed(1)}%`);

/** The release's page body (served at /quality, and report.html). */
export function releaseQualityBody(m: ReleaseQualityModel, options: { readonly offline?: boolean } = {}): Html {
  const r = m.report;
  return html`<dl class="figures">${releaseFacts(m.release)}
<dt>Areas</dt><dd>${m.areasByLevel.map((l, i) => html`${i > 0 ? '; ' : ''}${levelWord(l.level)}: ${fmt(l.areas)} (${fmt(l.small)} small)`)}</dd>
${r ? html`<dt>Records</dt><dd>${fmt(r.persons)} persons, ${fmt(r.families)} families, ${fmt(r.dwellings)} dwellings</dd>` : ''}</dl>
${options.offline ? '' : html`<p>Each area’s own page (its ages, households and incomes beside the census’s) is linked from search results and previews as <code>quality_url</code>, and from the account area’s query builder.</p>`}
${releaseFitSection(m)}
${reportSections(m)}`;
}
