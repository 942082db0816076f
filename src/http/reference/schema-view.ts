import { html, Html } from '../web/html.ts';
import { inline } from './markdown.ts';

/** The JSON Schema keywords the OpenAPI document uses (TypeBox output, as @fastify/swagger writes it). */
export interface Schema {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly Schema[];
  readonly oneOf?: readonly Schema[];
  readonly allOf?: readonly Schema[];
  readonly items?: Schema;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | Schema;
  readonly description?: string;
  readonly default?: unknown;
  readonly format?: string;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
}

const SCHEMA_PREFIX = '#/components/schemas/';

/** The anchor of a named schema's section on the page. */
export const schemaAnchor = (name: string): string => `schema-${name}`;

export const refName = (ref: string): string => (ref.startsWith(SCHEMA_PREFIX) ? ref.slice(SCHEMA_PREFIX.length) : ref);

/** A schema's type in words, named schemas as links to their section ("array of HistoryItem"). */
export function typeOf(schema: Schema): Html {
  if (schema.$ref !== undefined) {
    const name = refName(schema.$ref);
    return html`<a href="#${schemaAnchor(name)}">${name}</a>`;
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined) return join(alternatives.map(typeOf), ' or ');
  if (schema.allOf !== undefined) return join(schema.allOf.map(typeOf), ' and ');
  const types = schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : schema.type;
  const named = types.map((type) => {
    if (type === 'array') return html`array of ${schema.items ? typeOf(schema.items) : 'any'}`;
    if (schema.format !== undefined) return html`${type} (${schema.format})`;
    return html`${type}`;
  });
  return named.length > 0 ? join(named, ' or ') : html`any`;
}

function join(parts: readonly Html[], separator: string): Html {
  return html`${parts.map((part, i) => html`${i > 0 ? separator : ''}${part}`)}`;
}

const count = (n: number, noun: string): string => `${n.toLocaleString('en-AU')} ${noun}${n === 1 ? '' : 's'}`;

const literal = (value: unknown): Html => html`<code>${JSON.stringify(value)}</code>`;

/** What a schema allows beyond its type: values, default, bounds and pattern, in words. */
export function constraints(schema: Schema): Html[] {
  const out: Html[] = [];
  if (schema.enum !== undefined) {
    out.push(schema.enum.length === 1 ? html`Always ${literal(schema.enum[0])}.` : html`One of ${join(schema.enum.map(literal), ', ')}.`);
  }
  if (schema.const !== undefined) out.push(html`Always ${literal(schema.const)}.`);
  if (schema.default !== undefined) out.push(html`Default ${literal(schema.default)}.`);
  if (schema.minimum !== undefined) out.push(html`At least ${schema.minimum}.`);
  if (schema.maximum !== undefined) out.push(html`At most ${schema.maximum}.`);
  if (schema.minLength !== undefined) out.push(html`At least ${count(schema.minLength, 'character')}.`);
  if (schema.maxLength !== undefined) out.push(html`At most ${count(schema.maxLength, 'character')}.`);
  if (schema.minItems !== undefined) out.push(html`At least ${count(schema.minItems, 'item')}.`);
  if (schema.maxItems !== undefined) out.push(schema.maxItems === 0 ? html`Always empty.` : html`At most ${count(schema.maxItems, 'item')}.`);
  if (schema.pattern !== undefined) out.push(html`Matches <code>${schema.pattern}</code>.`);
  if (schema.items !== undefined && schema.items.$ref === undefined) out.push(...constraints(schema.items).map((c) => new Html(`Each item ${c.text.charAt(0).toLowerCase()}${c.text.slice(1)}`)));
  return out;
}

/** A description (Markdown inline forms) and the constraints, as one paragraph's content. */
export function explain(schema: Schema, description = schema.description): Html {
  const rules = constraints(schema);
  // The constraints follow as sentences, so the description ends as one.
  const text = description !== undefined && rules.length > 0 && !/[.!?]$/.test(description.trim()) ? `${description.trim()}.` : description;
  return html`${text !== undefined ? inlineHtml(text) : ''}${rules.map((c, i) => html`${i > 0 || text !== undefined ? ' ' : ''}${c}`)}`;
}

/** Descriptions may use Markdown's `code` and links; inline() escapes everything else. */
const inlineHtml = (text: string): Html => new Html(inline(text));

export interface Field {
  readonly name: string;
  readonly schema: Schema;
  readonly required: boolean;
}

/**
 * The fields of an object schema, nested inline objects flattened into dotted names
 * ("pagination.page", "queries[].query_id"); named schemas are linked, not expanded, so each is
 * described once (in the Schemas section).
 */
export function fieldsOf(schema: Schema, prefix = ''): Field[] {
  const fields: Field[] = [];
  const required = new Set(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = `${prefix}${name}`;
    fields.push({ name: path, schema: property, required: required.has(name) });
    if (property.properties !== undefined) fields.push(...fieldsOf(property, `${path}.`));
    else if (property.items?.properties !== undefined) fields.push(...fieldsOf(property.items, `${path}[].`));
  }
  return fields;
}

/** A definition list of fields: name, type, required, description and constraints. */
export function fieldList(fields: readonly Field[], extra?: (field: Field) => Html | string): Html {
  if (fields.length === 0) return html``;
  return html`<dl class="fields">${fields.map(
    (field) =>
      html`<div><dt><code class="name">${field.name}</code> <span class="type">${typeOf(field.schema)}</span>${extra ? html` ${extra(field)}` : ''}${field.required ? html` <span class="required">required</span>` : ''}</dt><dd>${explain(field.schema)}</dd></div>`,
  )}</dl>`;
}

/** A schema's whole description: what it is, its fields, and whether it may carry more. */
export function schemaBody(schema: Schema): Html {
  const fields = fieldsOf(schema);
  const open = schema.additionalProperties === true ? html`<p class="note">The object may carry further fields in later versions; ignore those you do not know.</p>` : '';
  if (fields.length === 0) return html`<p>Type: <span class="type">${typeOf(schema)}</span>. ${explain(schema, undefined)}</p>`;
  return html`${fieldList(fields)}${open}`;
}
