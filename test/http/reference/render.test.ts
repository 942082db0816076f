/**
 * The reference renderer on its own: the Markdown subset the descriptions use, escaping of
 * everything the document says (a description is text, never markup), and the parts of OpenAPI
 * the served document does not use today (untagged operations, named examples, oneOf).
 */
import { describe, expect, it } from 'vitest';
import { markdown } from '../../../src/http/reference/markdown.ts';
import { operationsOf, renderReference, type OpenApiDocument } from '../../../src/http/reference/render.ts';
import { explain } from '../../../src/http/reference/schema-view.ts';

describe('markdown subset', () => {
  it('headings with anchors, paragraphs, lists, tables, code and links', () => {
    const { html, headings } = markdown('Intro `a<b>`.\n\n## Error codes\n\n- one [spec](https://example.org/x)\n- two\n\n| a | b |\n|---|---|\n| 1 | `x` |');
    expect(headings).toEqual([{ level: 2, id: 'error-codes', text: 'Error codes' }]);
    expect(html.text).toBe(
      '<p>Intro <code>a&lt;b&gt;</code>.</p>\n<h2 id="error-codes">Error codes</h2>\n<ul><li>one <a href="https://example.org/x">spec</a></li><li>two</li></ul>\n' +
        '<table><thead><tr><th scope="col">a</th><th scope="col">b</th></tr></thead><tbody><tr><td>1</td><td><code>x</code></td></tr></tbody></table>',
    );
  });

  it('escapes markup and refuses links other than http(s), paths and anchors; no emphasis (family_* stays as written)', () => {
    const { html } = markdown('<script>alert(1)</script> [x](javascript:alert(1)) [y](#errors) family_* and dwelling_* "q" \'s\'');
    expect(html.text).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt; [x](javascript:alert(1)) <a href="#errors">y</a> family_* and dwelling_* &quot;q&quot; &#39;s&#39;</p>');
  });

  it('shifts heading levels under the page’s own', () => {
    expect(markdown('# Note', 3).html.text).toBe('<h4 id="note">Note</h4>');
  });

  it('a description followed by constraints reads as sentences', () => {
    expect(explain({ type: 'string', maxLength: 1, description: 'The key' }).text).toBe('The key. At most 1 character.');
    expect(explain({ type: 'integer', minimum: 1, maximum: 5000, description: 'A number.' }).text).toBe('A number. At least 1. At most 5000.');
    expect(explain({ type: 'string', description: 'Only words' }).text).toBe('Only words');
  });
});

describe('renderReference', () => {
  const doc: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: 'T <x>', version: '9', description: 'About.\n\n## Errors\n\n| status | error |\n|---|---|\n| 400 | bad_request |' },
    tags: [{ name: 'things', description: 'Things' }],
    paths: {
      '/things/{id}': {
        get: {
          operationId: 'getThing',
          summary: 'Get a <thing>',
          tags: ['things'],
          description: 'Returns `it`.',
          parameters: [{ name: 'id', in: 'path', required: true, description: 'Its id', schema: { type: 'string', maxLength: 10 } }],
          responses: {
            '200': {
              description: 'The thing',
              content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/Thing' }, { type: 'null' }] }, examples: { small: { summary: 'A small one', value: { name: '<b>' } } } } },
            },
          },
        },
        delete: { summary: 'Remove', responses: { '204': { description: 'Gone' } } },
      },
    },
    components: { schemas: { Thing: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, parts: { type: 'array', items: { type: 'object', properties: { size: { type: 'integer' } } } } } } } },
    security: [{ bearerAuth: [] }],
  };
  const page = renderReference(doc, { json: '/openapi.json' });

  it('escapes the document’s text and renders every part', () => {
    expect(page).toContain('<h1>T &lt;x&gt;</h1>');
    expect(page).toContain('<h3 id="getThing-title"><a href="#getThing">Get a &lt;thing&gt;</a></h3>');
    expect(page).not.toContain('<thing>');
    expect(page).not.toContain('<b>');
    expect(page).toContain('Example “A small one” (application/json)');
    expect(page).toContain('&quot;name&quot;: &quot;&lt;b&gt;&quot;');
    expect(page).toContain('<a href="#schema-Thing">Thing</a> or null');
    expect(page).toContain('<code class="name">parts[].size</code>');
    // The contents may wrap a path after a "/", never inside a segment.
    expect(page).toContain('<a href="#getThing"><span class="method get">GET</span> <span>/<wbr>things/<wbr>{id}</span></a>');
    expect(page).toContain('<p class="meta">Authentication: bearerAuth');
    expect(page).toContain('<span class="status">204</span> Gone</a></h5>\n<p>No body.</p>');
  });

  it('groups untagged operations under "other" and gives operations without an id an anchor of their own', () => {
    const ops = operationsOf(doc);
    expect(ops.map((op) => [op.method, op.anchor])).toEqual([
      ['get', 'getThing'],
      ['delete', 'delete-things-id'],
    ]);
    expect(page).toContain('<section id="tag-other"');
    expect(page).toContain('<section class="op" id="delete-things-id"');
    expect(page).toContain('<a href="#errors">Errors</a>');
  });
});
