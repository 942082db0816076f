/** The account area's only static files, served from memory (no build step, no CDN). */
export const STYLESHEET = `
:root { color-scheme: light; --ink: #1a1a1a; --muted: #555; --line: #c8c8c8; --accent: #0b57a4; --bad: #a4000f; --good: #136b2f; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
header { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between; padding: .75rem 1.25rem; border-bottom: 1px solid var(--line); }
header nav { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; }
header ul { display: flex; flex-wrap: wrap; gap: 1rem; list-style: none; margin: 0; padding: 0; }
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
form.stack { display: grid; gap: .9rem; max-width: 34rem; }
label { font-weight: 600; display: block; }
.hint { color: var(--muted); font-size: .9rem; font-weight: 400; }
input[type=text], input[type=email], input[type=password], input[type=number], select { font: inherit; padding: .45rem .5rem; border: 1px solid #767676; border-radius: 4px; width: 100%; }
fieldset { border: 1px solid var(--line); border-radius: 4px; }
button, .button { font: inherit; padding: .5rem 1rem; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); }
button.link { background: none; border: none; color: var(--accent); text-decoration: underline; padding: 0; }
:focus-visible { outline: 3px solid #f2a900; outline-offset: 2px; }
.inline { display: inline; }
.who { color: var(--muted); }
.notice { padding: .6rem .8rem; border-radius: 4px; border-left: 5px solid var(--accent); background: #eef4fb; }
.notice.error { border-color: var(--bad); background: #fdeced; }
.notice.ok { border-color: var(--good); background: #ecf7ef; }
.secret { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
.secret code { font-size: 1.05rem; padding: .4rem .5rem; background: #f3f3f3; border: 1px solid var(--line); border-radius: 4px; word-break: break-all; }
dl.figures { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; }
dl.figures dt { font-weight: 600; } dl.figures dd { margin: 0; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; z-index: 1; }
.expired { color: var(--muted); }
@media (max-width: 40rem) { header { flex-direction: column; align-items: flex-start; } th, td { padding: .3rem; font-size: .92rem; } }
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
    input.addEventListener('input', () => {
      clearTimeout(timer);
      const q = input.value.split(',').pop().trim();
      if (q.length < 2) return;
      timer = setTimeout(async () => {
        const res = await fetch('/console/suggest?level=' + encodeURIComponent(level.value) + '&q=' + encodeURIComponent(q), { credentials: 'same-origin' });
        if (!res.ok) return;
        const { suggestions } = await res.json();
        const head = input.value.includes(',') ? input.value.slice(0, input.value.lastIndexOf(',') + 1) + ' ' : '';
        list.replaceChildren(...suggestions.map((s) => Object.assign(document.createElement('option'), { value: head + s })));
      }, 150);
    });
  }
});
`;
