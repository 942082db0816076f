/**
 * The quality pages' charts as inline SVG, drawn on the server (no script): the records as bars,
 * the published figure as a tick, the census's noise as a band about it; fit per table as dots
 * against the floor. Each SVG is an image named by its caption; the figures are in the table
 * beside it (for screen readers and for copying). Colours come from the stylesheet's variables,
 * so light and dark follow the reader's setting.
 */
import type { BarFigures } from '../../../app/quality/figures.ts';
import { html, type Html } from '../html.ts';

export const fmt = (v: number | null | undefined, digits = 0): string => (v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toLocaleString('en-AU', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
export const score = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : v < 0.001 && v > 0 ? v.toExponential(1) : v.toFixed(3));

const WIDTH = 560;
const ROW = 22;
const TOP = 8;
const LABEL = 190;

/** The published figure's tick and its noise band at one bar's row. */
function publishedMark(bar: BarFigures, x: (v: number) => number, y: number, h: number): Html {
  if (bar.published === null) return html``;
  const band = bar.noise === null ? html`` : html`<rect class="band" x="${x(Math.max(0, bar.published - bar.noise)).toFixed(1)}" y="${(y - 2).toFixed(1)}" width="${Math.max(1.5, x(bar.published + bar.noise) - x(Math.max(0, bar.published - bar.noise))).toFixed(1)}" height="${(h + 4).toFixed(1)}"/>`;
  return html`${band}<line class="published" x1="${x(bar.published).toFixed(1)}" x2="${x(bar.published).toFixed(1)}" y1="${(y - 3).toFixed(1)}" y2="${(y + h + 3).toFixed(1)}"/>`;
}

/** Bars of one chart, a row each: label, the records' bar, the published tick and band. */
export function barChart(id: string, labelledBy: string, bars: readonly BarFigures[]): Html {
  const max = Math.max(1, ...bars.map((b) => Math.max(b.records, (b.published ?? 0) + (b.noise ?? 0))));
  const plot = WIDTH - LABEL - 12;
  const x = (v: number) => LABEL + (v / max) * plot;
  const height = TOP * 2 + bars.length * ROW;
  return html`<svg id="${id}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${labelledBy}" focusable="false">
${bars.map((bar, i) => {
  const y = TOP + i * ROW + 4;
  return html`<text class="label" x="${LABEL - 6}" y="${y + 11}" text-anchor="end">${clip(bar.label, 26)}</text><rect class="records" x="${LABEL}" y="${y}" width="${(x(bar.records) - LABEL).toFixed(1)}" height="${ROW - 8}"/>${publishedMark(bar, x, y, ROW - 8)}`;
})}
<line class="axis" x1="${LABEL}" x2="${LABEL}" y1="${TOP}" y2="${height - TOP}"/>
</svg>`;
}

/** The age–sex pyramid: males to the left, females to the right, youngest at the bottom. */
export function pyramid(id: string, labelledBy: string, bars: readonly BarFigures[]): Html {
  const ages = [...new Set(bars.map((b) => b.label.replace(/^[^,]*, /, '')))];
  const at = (split: number, age: string) => bars.find((b) => b.split === split && b.label.endsWith(`, ${age}`));
  const max = Math.max(1, ...bars.map((b) => Math.max(b.records, (b.published ?? 0) + (b.noise ?? 0))));
  const mid = WIDTH / 2;
  const half = mid - 70;
  const row = Math.max(12, Math.min(ROW, Math.floor(460 / ages.length)));
  const height = TOP * 2 + ages.length * row + 18;
  const side = (split: number, dir: -1 | 1) => (v: number) => mid + dir * (36 + (v / max) * half);
  return html`<svg id="${id}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${labelledBy}" focusable="false">
<text class="label" x="8" y="${TOP + 10}">Males</text><text class="label" x="${WIDTH - 8}" y="${TOP + 10}" text-anchor="end">Females</text>
${ages.map((age, k) => {
  const y = TOP + 18 + (ages.length - 1 - k) * row;
  return html`<text class="label small" x="${mid}" y="${y + row * 0.7}" text-anchor="middle">${age.replace(' years', '').replace(' and over', '+')}</text>${[0, 1].map((split) => {
    const bar = at(split, age);
    if (!bar) return html``;
    const x = side(split, split === 0 ? -1 : 1);
    const x0 = x(0);
    const x1 = x(bar.records);
    return html`<rect class="records" x="${Math.min(x0, x1).toFixed(1)}" y="${y + 2}" width="${Math.abs(x1 - x0).toFixed(1)}" height="${row - 4}"/>${publishedMark(bar, x, y + 2, row - 4)}`;
  })}`;
})}
</svg>`;
}

const clip = (s: string, n: number): string => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/** One dot per row: the records' score (filled) and the floor (hollow), on one scale. */
export function dotPlot(id: string, labelledBy: string, rows: readonly { readonly label: string; readonly value: number | null; readonly floor: number | null }[]): Html {
  const max = Math.max(0.05, ...rows.flatMap((r) => [r.value ?? 0, r.floor ?? 0]));
  const left = 120;
  const plot = WIDTH - left - 16;
  const x = (v: number) => left + (Math.min(v, max) / max) * plot;
  const row = 18;
  const height = TOP * 2 + rows.length * row + 20;
  return html`<svg id="${id}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${labelledBy}" focusable="false">
${rows.map((r, i) => {
  const y = TOP + i * row + row / 2;
  return html`<text class="label small" x="${left - 6}" y="${y + 4}" text-anchor="end">${clip(r.label, 16)}</text><line class="grid" x1="${left}" x2="${WIDTH - 16}" y1="${y}" y2="${y}"/>${r.floor === null ? '' : html`<circle class="floor" cx="${x(r.floor).toFixed(1)}" cy="${y}" r="5"/>`}${r.value === null ? '' : html`<circle class="fit" cx="${x(r.value).toFixed(1)}" cy="${y}" r="3.5"/>`}`;
})}
<line class="axis" x1="${left}" x2="${WIDTH - 16}" y1="${height - 18}" y2="${height - 18}"/>
<text class="label small" x="${left}" y="${height - 4}">0</text><text class="label small" x="${WIDTH - 16}" y="${height - 4}" text-anchor="end">SRMSE ${max.toFixed(2)}</text>
</svg>`;
}

const BANDS = [
  ['<500', 'under 500'],
  ['500-5000', '500–4,999'],
  ['>=5000', '5,000+'],
] as const;

/** The release's fit in one plot: a panel per size band, a row per table (levels one after another), the records' median (filled) beside the floor's (ring). */
export function bandPanels(id: string, labelledBy: string, rows: readonly { readonly level: string; readonly tableId: string; readonly band: string; readonly srmse: number | null; readonly floor: number | null }[]): Html {
  const levels = [...new Set(rows.map((r) => r.level))];
  const lines = levels.flatMap((level) => [{ level, tableId: undefined as string | undefined }, ...[...new Set(rows.filter((r) => r.level === level).map((r) => r.tableId))].map((tableId) => ({ level, tableId }))]);
  // Each panel its own scale: small areas' scores are an order of magnitude above large ones'.
  const maxOf = BANDS.map(([band]) => Math.max(0.01, ...rows.filter((r) => r.band === band).flatMap((r) => [r.srmse ?? 0, r.floor ?? 0])));
  const left = 60;
  const gap = 10;
  const panel = (WIDTH - left - gap * 3) / 3;
  const row = 16;
  const top = 24;
  const height = top + lines.length * row + 22;
  const x = (band: number, v: number) => left + gap + band * (panel + gap) + (Math.min(v, maxOf[band]!) / maxOf[band]!) * panel;
  return html`<svg id="${id}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${labelledBy}" focusable="false">
${BANDS.map(([, words], b) => html`<text class="label small" x="${(x(b, 0) + panel / 2).toFixed(1)}" y="14" text-anchor="middle">${words}</text><line class="axis" x1="${x(b, 0).toFixed(1)}" x2="${x(b, 0).toFixed(1)}" y1="${top - 4}" y2="${height - 20}"/>`)}
${lines.map((line, i) => {
  const y = top + i * row + row / 2;
  if (line.tableId === undefined) return html`<text class="label small strong" x="4" y="${y + 4}">${line.level.toUpperCase()}</text>`;
  return html`<text class="label small" x="${left - 4}" y="${y + 4}" text-anchor="end">${line.tableId}</text>${BANDS.map(([band], b) => {
    const r = rows.find((v) => v.level === line.level && v.tableId === line.tableId && v.band === band);
    if (!r) return html``;
    return html`<line class="grid" x1="${x(b, 0).toFixed(1)}" x2="${x(b, maxOf[b]!).toFixed(1)}" y1="${y}" y2="${y}"/>${r.floor === null ? '' : html`<circle class="floor" cx="${x(b, r.floor).toFixed(1)}" cy="${y}" r="4.5"/>`}${r.srmse === null ? '' : html`<circle class="fit" cx="${x(b, r.srmse).toFixed(1)}" cy="${y}" r="3"/>`}`;
  })}`;
})}
${BANDS.map((_, b) => html`<text class="label small" x="${x(b, 0).toFixed(1)}" y="${height - 4}">0</text><text class="label small" x="${x(b, maxOf[b]!).toFixed(1)}" y="${height - 4}" text-anchor="end">${maxOf[b]!.toFixed(maxOf[b]! < 0.1 ? 3 : 2)}</text>`)}
</svg>`;
}
