/** The account area's only static files, served from memory (no build step, no CDN). */
export const STYLESHEET = `
:root { color-scheme: light dark; --ink: #1a1a1a; --muted: #555; --line: #c8c8c8; --accent: #0b57a4; --bad: #a4000f; --good: #136b2f; --page: #fff; --field: #fff; --code: #f3f3f3; --info: #eef4fb; --bad-bg: #fdeced; --good-bg: #ecf7ef; --badge: #6b3d00; --badge-bg: #fff1d6; --on-accent: #fff; }
@media (prefers-color-scheme: dark) {
  :root { --ink: #e8e8e8; --muted: #b4b4b4; --line: #555; --accent: #8cc4ff; --bad: #ff9b9b; --good: #7fdc9a; --page: #15171a; --field: #1f2226; --code: #262a2f; --info: #17283b; --bad-bg: #3a1719; --good-bg: #16301f; --badge: #ffd899; --badge-bg: #3d2a08; --on-accent: #0b1a2b; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--page); }
header { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between; padding: .75rem 1.25rem; border-bottom: 1px solid var(--line); }
header nav { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; }
header ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
header ul a, .brand, footer a, button.link, td.action a { display: inline-block; min-height: 1.75rem; padding: .2rem .1rem; }
.brand { font-weight: 700; font-size: 1.25rem; text-decoration: none; color: var(--ink); }
a { color: var(--accent); }
a[aria-current="page"] { font-weight: 700; text-decoration: none; border-bottom: 3px solid var(--accent); }
main { max-width: 64rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
footer { max-width: 64rem; margin: 0 auto; padding: 1rem 1.25rem; color: var(--muted); }
h1 { font-size: 1.6rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.table-wrap { overflow-x: auto; }
code.id, .secret code { overflow-wrap: anywhere; word-break: break-all; }
main { overflow-wrap: break-word; }
.badge { display: inline-block; font-size: .8rem; font-weight: 700; padding: 0 .4rem; border-radius: 3px; color: var(--badge); background: var(--badge-bg); border: 1px solid currentColor; white-space: nowrap; }
.check { display: flex; gap: .5rem; align-items: flex-start; }
.check input[type=checkbox] { width: 1.5rem; height: 1.5rem; margin: 0; flex: none; accent-color: var(--accent); }
.big { font-size: 1.6rem; }
.charts { display: grid; gap: 1.25rem; }
figure.chart { margin: 0; }
figure.chart svg { width: 100%; max-width: 40rem; height: auto; display: block; }
.chart .bar { fill: var(--accent); } .chart .bar.test { fill: var(--muted); }
.chart .axis { stroke: var(--line); } .chart .label { fill: var(--muted); font-size: 16px; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; }
details { margin: .5rem 0; } summary { cursor: pointer; min-height: 1.75rem; padding: .2rem 0; }
pre { background: var(--code); border: 1px solid var(--line); border-radius: 4px; padding: .6rem; overflow-x: auto; font-size: .85rem; }
form.stack { display: grid; gap: .9rem; max-width: 34rem; }
label { font-weight: 600; display: block; }
.hint { color: var(--muted); font-size: .9rem; font-weight: 400; }
input[type=text], input[type=email], input[type=password], input[type=number], select { font: inherit; color: var(--ink); background: var(--field); padding: .45rem .5rem; border: 1px solid #767676; border-radius: 4px; width: 100%; }
fieldset { border: 1px solid var(--line); border-radius: 4px; }
button, .button { font: inherit; padding: .5rem 1rem; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: var(--on-accent); cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary { background: var(--page); color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); color: var(--page); }
button.link { background: none; border: none; color: var(--accent); text-decoration: underline; padding: 0; }
:focus-visible { outline: 3px solid #f2a900; outline-offset: 2px; }
.inline { display: inline; }
.who { color: var(--muted); }
.notice { padding: .6rem .8rem; border-radius: 4px; border-left: 5px solid var(--accent); background: var(--info); }
.notice.error { border-color: var(--bad); background: var(--bad-bg); }
.notice.ok { border-color: var(--good); background: var(--good-bg); }
.secret { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
.secret code { font-size: 1.05rem; padding: .4rem .5rem; background: var(--code); border: 1px solid var(--line); border-radius: 4px; }
dl.figures { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; }
dl.figures dt { font-weight: 600; } dl.figures dd { margin: 0; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: var(--page); padding: .5rem; z-index: 1; }
.expired { color: var(--muted); }
/* Quality pages: the records as bars, the census's figure as a tick, its noise as a band; fit as dots against the floor's rings. */
.chart .records { fill: var(--accent); } .chart .published { stroke: var(--ink); stroke-width: 2.5; } .chart .band { fill: var(--ink); fill-opacity: .2; }
.chart .fit { fill: var(--accent); } .chart .floor { fill: none; stroke: var(--ink); stroke-width: 1.5; } .chart .grid { stroke: var(--line); stroke-dasharray: 2 3; }
.quality-chart .chart .label { font-size: 13px; } .chart .label.small { font-size: 12px; } .chart .label.strong { font-weight: 700; fill: var(--ink); }
.chart-pair { display: grid; gap: 1rem; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); align-items: start; }
figure.chart.wide svg { max-width: 48rem; }
.legend .key { display: inline-block; width: 1rem; height: .8rem; vertical-align: middle; border: 1px solid var(--ink); }
.legend .key.records { background: var(--accent); border-color: var(--accent); } .legend .key.published { width: 3px; background: var(--ink); } .legend .key.band { background: var(--line); }
table.figures-table th[scope=row] { font-weight: 400; } table.figures-table td, table.figures-table th { padding: .25rem .4rem; }
@media (max-width: 50rem) { .chart-pair { grid-template-columns: minmax(0, 1fr); } }
@media (max-width: 40rem) { header { flex-direction: column; align-items: flex-start; } th, td { padding: .3rem; font-size: .92rem; } dl.figures { grid-template-columns: 1fr; } dl.figures dd { margin-bottom: .4rem; } }
/* Phones: a table of cards becomes one card per row, each cell labelled, its action (Download, Revoke) in view. */
@media (max-width: 30rem) {
  table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; width: 100%; }
  table.cards tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 .75rem; padding: .3rem .5rem; }
  table.cards td { border: none; padding: .2rem 0 .2rem 7.5rem; text-align: left; position: relative; min-height: 1.9rem; }
  table.cards td[data-label]::before { content: attr(data-label); position: absolute; left: 0; width: 7rem; font-weight: 600; color: var(--muted); }
  table.cards td:not([data-label]) { padding-left: 0; }
  /* A block table's caption keeps the table's full width (not a 48 px column, one word a line). */
  table.cards caption { display: block; width: 100%; text-align: left; }
}
`;

/**
 * Progressive enhancement only: a copy button next to a secret shown once, and geography
 * suggestions from /console/suggest for the query builder (the form works without either).
 */
export const SCRIPT = `
document.addEventListener('DOMContentLoaded', () => {
  for (const button of document.querySelectorAll('[data-copy]')) {
    button.hidden = false;
    button.addEventListener('click', async () => {
      const text = document.getElementById(button.dataset.copy).textContent;
      try { await navigator.clipboard.writeText(text); button.textContent = 'Copied'; } catch { button.textContent = 'Select and copy it'; }
    });
  }
  const input = document.querySelector('input[data-suggest]');
  if (input) {
    const list = document.getElementById(input.getAttribute('list'));
    const level = document.querySelector('select[name=geography_level]');
    let timer;
    const hint = document.getElementById('geography-hint');
    level.addEventListener('change', () => {
      const examples = JSON.parse(hint.dataset.examples);
      hint.textContent = '(one or more, separated by “;”, e.g. ' + examples[level.value] + ')';
    });
    input.addEventListener('input', () => {
      clearTimeout(timer);
      const q = input.value.split(';').pop().trim();
      if (q.length < 2) return;
      timer = setTimeout(async () => {
        const res = await fetch('/console/suggest?level=' + encodeURIComponent(level.value) + '&q=' + encodeURIComponent(q), { credentials: 'same-origin' });
        if (!res.ok) return;
        const { suggestions } = await res.json();
        // The same separator as the hint and the parser: suggestions complete the place after the last ";".
        const head = input.value.includes(';') ? input.value.slice(0, input.value.lastIndexOf(';') + 1) + ' ' : '';
        list.replaceChildren(...suggestions.map((s) => Object.assign(document.createElement('option'), { value: head + s })));
      }, 150);
    });
  }
});
`;
