/**
 * Server-rendered HTML for the account area: a tagged template that escapes every interpolated
 * value unless it is already Html, and the page layout. No client framework, no CDN: each page
 * works without JavaScript; spq.js only adds the copy button and geography suggestions.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => (out += render(value) + strings[i + 1]!));
  return new Html(out);
}

/** The page's place in the navigation ('other': none of its entries, e.g. a 404 page). */
export type Section = 'overview' | 'keys' | 'credits' | 'buy' | 'queries' | 'query' | 'account' | 'other';

const NAV: readonly [Section, string, string][] = [
  ['overview', '/console/overview', 'Overview'],
  ['query', '/console/query', 'New query'],
  ['queries', '/console/queries', 'Queries'],
  ['credits', '/console/credits', 'Credits'],
  ['buy', '/console/buy', 'Buy credits'],
  ['keys', '/console/keys', 'API keys'],
  ['account', '/console/account', 'Account'],
];

export interface SignedIn {
  readonly email: string;
  readonly csrf: string;
  readonly section: Section;
}

export function page(title: string, body: Html, signedIn?: SignedIn): string {
  const nav = signedIn
    ? html`<nav aria-label="Account"><ul>${NAV.map(([id, href, label]) => html`<li><a href="${href}"${signedIn.section === id ? html` aria-current="page"` : ''}>${label}</a></li>`)}</ul>
      <form method="post" action="/console/sign-out" class="inline"><input type="hidden" name="_csrf" value="${signedIn.csrf}"><span class="who">${signedIn.email}</span> <button type="submit" class="link">Sign out</button></form></nav>`
    : '';
  return `<!doctype html>${html`<html lang="en-AU"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · spq account</title><link rel="stylesheet" href="/console/assets/spq.css"><script src="/console/assets/spq.js" defer></script></head>
<body><a class="skip" href="#main">Skip to content</a><header><a class="brand" href="/console">spq</a>${nav}</header>
<main id="main"><h1>${title}</h1>${body}</main><footer><a href="/docs">API reference</a></footer></body></html>`.text}`;
}

/** The "test data" mark of a sandbox query, wherever one is listed or shown. */
export const testBadge = (testData: boolean | undefined): Html => (testData ? html` <span class="badge">test data</span>` : html``);

/** A table in a box that scrolls sideways on a narrow screen: focusable and named, so a keyboard can scroll it too. */
export const tableBox = (label: string, table: Html): Html => html`<div class="table-wrap" role="region" aria-label="${label}" tabindex="0">${table}</div>`;

/** A message box: role=alert for errors so screen readers announce them. */
export const notice = (kind: 'error' | 'ok' | 'info', text: string | Html): Html =>
  html`<p class="notice ${kind}"${kind === 'error' ? html` role="alert"` : ''}>${text}</p>`;

/** The hidden CSRF field every state-changing form carries. */
export const csrfField = (csrf: string): Html => html`<input type="hidden" name="_csrf" value="${csrf}">`;

/** A date-time in the holder's time zone, with the zone named. */
export function when(date: Date | null, timeZone: string): string {
  if (date === null) return '—';
  let format = FORMATS.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-AU', { timeZone, year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
    FORMATS.set(timeZone, format);
  }
  return format.format(date);
}

const FORMATS = new Map<string, Intl.DateTimeFormat>();
