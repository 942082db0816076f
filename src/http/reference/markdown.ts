import { escapeHtml, Html } from '../web/html.ts';

/**
 * The few Markdown forms the OpenAPI document's descriptions use (CommonMark subset): ATX
 * headings, paragraphs, "- " lists, pipe tables, `code` and [links](url). Everything else is
 * text, escaped: emphasis is left out on purpose, because field names such as family_* would
 * turn into italics.
 */
export interface Heading {
  readonly level: number;
  readonly id: string;
  readonly text: string;
}

export interface Rendered {
  readonly html: Html;
  readonly headings: readonly Heading[];
}

/** A heading's anchor: lower case, words joined by "-" ("Error codes" → "error-codes"). */
export const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Headings are shifted by `headingOffset` so a description's "##" fits under the page's own levels. */
export function markdown(source: string, headingOffset = 0): Rendered {
  const headings: Heading[] = [];
  const out: string[] = [];
  for (const block of source.split(/\n\s*\n/)) {
    const lines = block.split('\n').filter((line) => line.trim() !== '');
    if (lines.length === 0) continue;
    const heading = /^(#{1,6})\s+(.*)$/.exec(lines[0]!);
    if (heading && lines.length === 1) {
      const level = Math.min(6, heading[1]!.length + headingOffset);
      const text = heading[2]!.trim();
      const id = slug(text);
      headings.push({ level, id, text });
      out.push(`<h${level} id="${id}">${inline(text)}</h${level}>`);
    } else if (lines.length >= 2 && lines.every((line) => line.trim().startsWith('|')) && /^\|?\s*:?-+/.test(lines[1]!.trim())) {
      out.push(table(lines));
    } else if (lines.every((line) => /^\s*- /.test(line))) {
      out.push(`<ul>${lines.map((line) => `<li>${inline(line.replace(/^\s*- /, ''))}</li>`).join('')}</ul>`);
    } else {
      out.push(`<p>${inline(lines.join(' '))}</p>`);
    }
  }
  return { html: new Html(out.join('\n')), headings };
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());
}

function table(lines: readonly string[]): string {
  const head = cells(lines[0]!).map((cell) => `<th scope="col">${inline(cell)}</th>`).join('');
  const rows = lines.slice(2).map((line) => `<tr>${cells(line).map((cell) => `<td>${inline(cell)}</td>`).join('')}</tr>`);
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** `code` and [text](url) in escaped text; a link goes only to http(s), a path or an anchor. */
export function inline(text: string): string {
  const parts: string[] = [];
  const pattern = /`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    parts.push(escapeHtml(text.slice(last, m.index)));
    if (m[1] !== undefined) parts.push(`<code>${escapeHtml(m[1])}</code>`);
    else if (/^(https?:\/\/|\/|#)/.test(m[3]!)) parts.push(`<a href="${escapeHtml(m[3]!)}">${escapeHtml(m[2]!)}</a>`);
    else parts.push(escapeHtml(m[0]));
    last = m.index + m[0].length;
  }
  parts.push(escapeHtml(text.slice(last)));
  return parts.join('');
}
