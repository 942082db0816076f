import { html, Html } from '../web/html.ts';
import { inline, markdown, type Heading } from './markdown.ts';
import { constraints, fieldList, refName, schemaAnchor, schemaBody, typeOf, type Schema } from './schema-view.ts';

/** The parts of an OpenAPI 3.1 document the reference shows. */
export interface OpenApiDocument {
  readonly info: { readonly title: string; readonly version: string; readonly description?: string };
  readonly openapi: string;
  readonly tags?: readonly { readonly name: string; readonly description?: string }[];
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>;
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  readonly components?: {
    readonly schemas?: Readonly<Record<string, Schema>>;
    readonly headers?: Readonly<Record<string, HeaderObject>>;
    readonly securitySchemes?: Readonly<Record<string, { readonly type: string; readonly scheme?: string; readonly description?: string }>>;
  };
}

export interface Operation {
  readonly operationId?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: { readonly description?: string; readonly required?: boolean; readonly content?: Readonly<Record<string, MediaType>> };
  readonly responses?: Readonly<Record<string, Response>>;
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
}

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
  readonly description?: string;
  readonly schema?: Schema;
}

interface MediaType {
  readonly schema?: Schema;
  readonly example?: unknown;
  readonly examples?: Readonly<Record<string, { readonly summary?: string; readonly value?: unknown }>>;
}

interface HeaderObject {
  readonly $ref?: string;
  readonly description?: string;
  readonly schema?: Schema;
}

interface Response {
  readonly description?: string;
  readonly content?: Readonly<Record<string, MediaType>>;
  readonly headers?: Readonly<Record<string, HeaderObject>>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OperationRef {
  readonly method: string;
  readonly path: string;
  readonly anchor: string;
  readonly operation: Operation;
}

/** Every operation of the document in path order, each with the anchor of its section. */
export function operationsOf(doc: OpenApiDocument): OperationRef[] {
  const out: OperationRef[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation === undefined) continue;
      const anchor = operation.operationId ?? `${method}${path}`.replace(/[^A-Za-z0-9]+/g, '-').replace(/-$/, '');
      out.push({ method, path, anchor, operation });
    }
  }
  return out;
}

/** Operations grouped under the document's tags, in the tags' order; untagged ones last. */
function byTag(doc: OpenApiDocument, operations: readonly OperationRef[]): { name: string; description?: string; anchor: string; operations: OperationRef[] }[] {
  const groups = (doc.tags ?? []).map((tag) => ({ ...tag, anchor: `tag-${tag.name}`, operations: operations.filter((op) => op.operation.tags?.[0] === tag.name) }));
  const known = new Set(groups.map((group) => group.name));
  const other = operations.filter((op) => op.operation.tags?.[0] === undefined || !known.has(op.operation.tags[0]));
  if (other.length > 0) groups.push({ name: 'other', description: 'Operations without a tag', anchor: 'tag-other', operations: other });
  return groups.filter((group) => group.operations.length > 0);
}

const method = (name: string): Html => html`<span class="method ${name}">${name.toUpperCase()}</span>`;

const example = (value: unknown, label: string): Html =>
  html`<p class="label">${label}</p><pre><code>${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}</code></pre>`;

function examplesOf(media: MediaType, type: string): Html[] {
  const out: Html[] = [];
  if (media.example !== undefined) out.push(example(media.example, `Example (${type})`));
  for (const [name, named] of Object.entries(media.examples ?? {})) {
    if (named.value !== undefined) out.push(example(named.value, `Example “${named.summary ?? name}” (${type})`));
  }
  return out;
}

function authentication(doc: OpenApiDocument, operation: Operation): Html {
  const requirements = operation.security ?? doc.security ?? [];
  if (requirements.length === 0 || requirements.every((r) => Object.keys(r).length === 0)) return html`<p class="meta">Authentication: none (no API key).</p>`;
  const schemes = requirements.flatMap((r) => Object.keys(r));
  const words = schemes.map((name) => {
    const scheme = doc.components?.securitySchemes?.[name];
    return scheme?.type === 'http' && scheme.scheme === 'bearer' ? html`an API key, <code>Authorization: Bearer &lt;API_KEY&gt;</code>` : html`${name}`;
  });
  return html`<p class="meta">Authentication: ${words.map((w, i) => html`${i > 0 ? ' or ' : ''}${w}`)} (<a href="#authentication">how</a>).</p>`;
}

/** A curl command for the operation, with the request body's example when it has one. */
function curl(doc: OpenApiDocument, op: OperationRef): string {
  const requirements = op.operation.security ?? doc.security ?? [];
  const lines = [`curl${op.method === 'get' ? '' : ` -X ${op.method.toUpperCase()}`} "$SPQ_URL${op.path}"`];
  if (requirements.some((r) => Object.keys(r).length > 0)) lines.push(`  -H "Authorization: Bearer $SPQ_API_KEY"`);
  const json = op.operation.requestBody?.content?.['application/json'];
  if (json?.example !== undefined) {
    lines.push(`  -H "Content-Type: application/json"`);
    lines.push(`  -d '${JSON.stringify(json.example).replace(/'/g, "'\\''")}'`);
  }
  return lines.join(' \\\n');
}

function parameters(operation: Operation): Html {
  const list = operation.parameters ?? [];
  if (list.length === 0) return html``;
  const fields = list.map((p) => ({ name: p.name, schema: { ...(p.schema ?? {}), description: p.description ?? p.schema?.description }, required: p.required === true, where: p.in }));
  return html`<h4>Parameters</h4>${fieldList(fields, (field) => html`<span class="in">in ${(field as (typeof fields)[number]).where}</span>`)}`;
}

function requestBody(doc: OpenApiDocument, op: OperationRef): Html {
  const body = op.operation.requestBody;
  if (body === undefined) return html``;
  const media = Object.entries(body.content ?? {});
  return html`<h4>Request body</h4>
<p>${body.required ? 'Required. ' : 'Optional. '}${body.description ?? ''}</p>
${media.map(([type, m]) => {
  const named = m.schema?.$ref !== undefined ? refName(m.schema.$ref) : undefined;
  const schema = named !== undefined ? doc.components?.schemas?.[named] : m.schema;
  return html`<p class="label"><code>${type}</code>${named !== undefined ? html`: <a href="#${schemaAnchor(named)}">${named}</a>` : ''}</p>${schema !== undefined ? schemaBody(schema) : ''}${examplesOf(m, type)}`;
})}`;
}

function responses(op: OperationRef): Html {
  const entries = Object.entries(op.operation.responses ?? {});
  if (entries.length === 0) return html``;
  return html`<h4>Responses</h4>${entries.map(([status, response]) => {
    const anchor = `${op.anchor}-${status}`;
    const media = Object.entries(response.content ?? {});
    const headers = Object.entries(response.headers ?? {});
    return html`<div class="response"><h5 id="${anchor}"><a href="#${anchor}"><span class="status">${status}</span> ${response.description ?? ''}</a></h5>
${media.length > 0 ? html`<p>Body: ${media.map(([type, m], i) => html`${i > 0 ? '; ' : ''}<code>${type}</code> ${m.schema ? typeOf(m.schema) : ''}`)}</p>` : html`<p>No body.</p>`}
${headers.length > 0 ? html`<p>Headers: ${headers.map(([name], i) => html`${i > 0 ? ', ' : ''}<a href="#header-${name}"><code>${name}</code></a>`)}</p>` : ''}
${media.flatMap(([type, m]) => examplesOf(m, type))}</div>`;
  })}`;
}

function operationSection(doc: OpenApiDocument, op: OperationRef): Html {
  const title = op.operation.summary ?? `${op.method.toUpperCase()} ${op.path}`;
  return html`<section class="op" id="${op.anchor}" aria-labelledby="${op.anchor}-title">
<h3 id="${op.anchor}-title"><a href="#${op.anchor}">${title}</a></h3>
<p class="endpoint">${method(op.method)} <code>${op.path}</code></p>
${op.operation.description !== undefined ? markdown(op.operation.description, 3).html : ''}
${authentication(doc, op.operation)}
${parameters(op.operation)}
${requestBody(doc, op)}
${responses(op)}
<p class="label">Example request</p><pre><code>${curl(doc, op)}</code></pre>
</section>`;
}

function schemasSection(doc: OpenApiDocument): Html {
  const schemas = Object.entries(doc.components?.schemas ?? {});
  if (schemas.length === 0) return html``;
  return html`<h2 id="schemas">Schemas</h2>
<p>The named objects the operations send and receive. A field marked required is always present in a response (and must be sent in a request).</p>
${schemas.map(([name, schema]) => html`<section id="${schemaAnchor(name)}" aria-labelledby="${schemaAnchor(name)}-title"><h3 id="${schemaAnchor(name)}-title"><a href="#${schemaAnchor(name)}">${name}</a></h3>${schema.description !== undefined ? html`<p>${htmlOf(inline(schema.description))}</p>` : ''}${schemaBody(schema)}</section>`)}`;
}

function headersSection(doc: OpenApiDocument): Html {
  const headers = Object.entries(doc.components?.headers ?? {});
  if (headers.length === 0) return html``;
  return html`<h2 id="response-headers">Response headers</h2>
<dl class="fields">${headers.map(([name, header]) => html`<div id="header-${name}"><dt><code class="name">${name}</code> <span class="type">${header.schema ? typeOf(header.schema) : 'string'}</span></dt><dd>${htmlOf(inline(header.description ?? ''))}${header.schema ? constraints(header.schema).map((c) => html` ${c}`) : ''}</dd></div>`)}</dl>`;
}

/** Text inline() has already escaped. */
const htmlOf = (text: string): Html => new Html(text);

/** A path that may wrap after each "/" (the contents column is narrow), not inside a segment. */
const breakable = (path: string): Html => html`${path.split('/').map((segment, i) => html`${i > 0 ? html`/<wbr>` : ''}${segment}`)}`;

function contents(headings: readonly Heading[], groups: ReturnType<typeof byTag>, doc: OpenApiDocument): Html {
  const top = headings.filter((h) => h.level === 2);
  return html`<nav class="toc" aria-label="Contents"><h2>Contents</h2><ul>
${top.map((h) => html`<li><a href="#${h.id}">${h.text}</a></li>`)}
${groups.map((group) => html`<li><a href="#${group.anchor}">${group.name}</a><ul>${group.operations.map((op) => html`<li><a href="#${op.anchor}">${method(op.method)} <span>${breakable(op.path)}</span></a></li>`)}</ul></li>`)}
${Object.keys(doc.components?.schemas ?? {}).length > 0 ? html`<li><a href="#schemas">Schemas</a></li>` : ''}
${Object.keys(doc.components?.headers ?? {}).length > 0 ? html`<li><a href="#response-headers">Response headers</a></li>` : ''}
</ul></nav>`;
}

/**
 * The API reference as one HTML page, from the OpenAPI document alone: the document's
 * description (authentication, the error codes table), then every operation under its tag with
 * method, path, description, authentication, parameters, request body, responses (with their
 * headers and examples) and a curl example, then the named schemas and the response headers.
 * Every operation, response and schema has an anchor.
 */
export function renderReference(doc: OpenApiDocument, links: { readonly json: string; readonly console?: string }): string {
  const intro = markdown(doc.info.description ?? '', 0);
  const operations = operationsOf(doc);
  const groups = byTag(doc, operations);
  const body = html`<html lang="en-AU"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><title>API reference · ${doc.info.title}</title><link rel="stylesheet" href="/docs/assets/reference.css"></head>
<body><a class="skip" href="#main">Skip to content</a>
<header class="site"><p class="brand">spq API reference</p><nav aria-label="Site"><ul><li><a href="${links.json}">OpenAPI document (JSON)</a></li>${links.console !== undefined ? html`<li><a href="${links.console}">Account</a></li>` : ''}</ul></nav></header>
<div class="layout">${contents(intro.headings, groups, doc)}
<main id="main"><h1>${doc.info.title}</h1>
<p class="meta">API version ${doc.info.version} · OpenAPI ${doc.openapi}</p>
${intro.html}
${groups.map((group) => html`<section id="${group.anchor}" aria-labelledby="${group.anchor}-title"><h2 id="${group.anchor}-title">${group.name}</h2>${group.description !== undefined ? html`<p>${htmlOf(inline(group.description))}</p>` : ''}${group.operations.map((op) => operationSection(doc, op))}</section>`)}
${schemasSection(doc)}
${headersSection(doc)}
</main></div></body></html>`;
  return `<!doctype html>${body.text}`;
}
