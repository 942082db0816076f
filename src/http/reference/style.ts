/**
 * The reference's one stylesheet (served from /docs/assets/reference.css, so the page's CSP
 * needs no inline styles). Colours meet WCAG AA contrast in both schemes; the dark scheme
 * follows the reader's system setting (prefers-color-scheme). Nothing is wider than the
 * screen: code wraps instead of scrolling sideways, so no scrolling region needs a keyboard stop.
 */
export const REFERENCE_CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#4a535e;--line:#d5dae0;--link:#0b57d0;--code-bg:#f2f4f7;--panel:#f7f8fa;--req:#9a3412;
--get:#0f6b38;--post:#1d4ed8;--put:#8a4b00;--patch:#6d28d9;--delete:#b42318;--other:#4b5563}
@media (prefers-color-scheme:dark){:root{--bg:#111418;--fg:#e6e8eb;--muted:#aeb6c0;--line:#343b45;--link:#8ab4f8;--code-bg:#1c2128;--panel:#171b21;--req:#fdba74}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;scroll-padding-top:1rem}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
a{color:var(--link)}
a:focus-visible{outline:3px solid var(--link);outline-offset:2px}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;font-size:.875em}
code{background:var(--code-bg);padding:.1em .3em;border-radius:3px;overflow-wrap:anywhere}
pre{background:var(--code-bg);border:1px solid var(--line);border-radius:6px;padding:.75rem;white-space:pre-wrap;overflow-wrap:anywhere;margin:.25rem 0 1rem}
pre code{background:none;padding:0}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem 1rem;z-index:2}
.skip:focus{left:.5rem}
header.site{border-bottom:1px solid var(--line);padding:.5rem 1rem;display:flex;flex-wrap:wrap;gap:.25rem 1.5rem;align-items:center;justify-content:space-between}
header.site .brand{font-weight:700;margin:0}
header.site ul{list-style:none;display:flex;flex-wrap:wrap;gap:0 1rem;margin:0;padding:0}
header.site a,.toc a{display:inline-block;min-height:24px;padding:.15rem 0}
.layout{display:grid;grid-template-columns:17rem minmax(0,1fr);gap:2.5rem;max-width:82rem;margin:0 auto;padding:0 1rem}
.toc{position:sticky;top:0;align-self:start;max-height:100vh;overflow-y:auto;padding:1rem 0;font-size:.9375rem}
.toc h2{font-size:1rem;margin:0 0 .5rem;border:0;padding:0}
.toc ul{list-style:none;margin:0;padding:0}
.toc ul ul{padding-left:.75rem;margin-bottom:.5rem}
.toc li{margin:.1rem 0}
.toc li li a{display:flex;gap:.4rem;align-items:baseline}
.toc li li a span{min-width:0;overflow-wrap:anywhere}
.toc .method{flex:none;width:3.6em;text-decoration:none}
main{min-width:0;padding:1rem 0 4rem}
h1{font-size:1.9rem;line-height:1.2;margin:.5rem 0 1rem}
h2{font-size:1.5rem;margin:2.5rem 0 .75rem;padding-top:.5rem;border-top:1px solid var(--line)}
h3{font-size:1.2rem;margin:0 0 .25rem}
h4{font-size:1rem;margin:1.25rem 0 .5rem}
h5{font-size:.9375rem;margin:1rem 0 .25rem}
h3 a,h5 a{color:inherit;text-decoration:none}
h3 a:hover,h5 a:hover{text-decoration:underline}
.meta,.note{color:var(--muted)}
.op{border:1px solid var(--line);border-radius:8px;padding:1rem 1.25rem;margin:1.25rem 0;background:var(--panel)}
.endpoint{margin:.25rem 0 .75rem;font-size:1.0625rem}
.endpoint code{background:none;padding:0;font-weight:600}
.method{display:inline-block;min-width:3.6em;text-align:center;border-radius:4px;padding:.05em .4em;color:#fff;font:700 .8125rem/1.6 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.02em;background:var(--other)}
.method.get{background:var(--get)}.method.post{background:var(--post)}.method.put{background:var(--put)}.method.patch{background:var(--patch)}.method.delete{background:var(--delete)}
.status{font-family:ui-monospace,Menlo,Consolas,monospace;font-weight:700}
.fields{margin:.25rem 0 1rem;padding:0}
.fields>div{border-top:1px solid var(--line);padding:.4rem 0}
.fields dt{font-weight:400}
.fields dt .name{font-weight:600}
.fields dd{margin:.15rem 0 0 1rem}
.type{color:var(--muted);font-size:.9375em}
.required{color:var(--req);font-size:.8125rem;font-weight:600;text-transform:uppercase;letter-spacing:.03em}
.in{color:var(--muted);font-size:.875em}
.label{font-weight:600;margin:.75rem 0 .1rem}
.response{border-top:1px solid var(--line);margin-top:.5rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem;font-size:.9375rem}
th,td{border:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:var(--code-bg)}
@media (max-width:52rem){.layout{grid-template-columns:minmax(0,1fr);gap:0}.toc{position:static;max-height:none;border-bottom:1px solid var(--line)}.op{padding:.75rem}h1{font-size:1.5rem}}
@media (max-width:30rem){th,td{padding:.3rem}.fields dd{margin-left:.5rem}}
`;
