/**
 * fast-check arbitraries from the JSON Schemas of the OpenAPI document (the TypeBox schemas the
 * routes validate with, as the server publishes them): values that follow a schema, and mutations
 * of them that break it in the ways clients and attackers do (wrong types, missing and extra
 * fields, prototype keys, extreme numbers, long and odd strings).
 */
import fc from 'fast-check';

export type JsonSchema = {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly default?: unknown;
};

/** Strings that break parsers, validators, loggers and look-ups. */
export const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '%ZZ',
    '%00',
    '\u0000',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '${jndi:ldap://x}',
    '__proto__',
    'constructor',
    '0x10',
    '1e2',
    '100.5',
    'true',
    '-1',
    '9007199254740993',
    'NaN',
    'Infinity',
    '\uD800',
    '🦘'.repeat(50),
    'spq_live_',
    'x'.repeat(5000),
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

const hostileNumber = fc.constantFrom(0, -0, -1, 0.5, 1e308, -1e308, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, 1e21, 123456789012);

/** Any JSON value, nested a little. */
const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    hostileNumber,
    fc.integer(),
    hostileString,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 3 }),
  ),
})).value;

export interface SchemaContext {
  /** Resolves a "#/components/…" reference. */
  resolve(ref: string): JsonSchema;
  /** Realistic values for string fields by name (known suburbs, …), mixed with random ones. */
  readonly samples: Readonly<Record<string, readonly string[]>>;
}

/** Values that follow `schema` (for a string field, `name` picks realistic samples). */
export function arbitraryOf(schema: JsonSchema, ctx: SchemaContext, name = '', depth = 0): fc.Arbitrary<unknown> {
  if (schema.$ref !== undefined) return arbitraryOf(ctx.resolve(schema.$ref), ctx, name, depth);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  const options = schema.anyOf ?? schema.oneOf;
  if (options !== undefined) return fc.oneof(...options.map((s) => arbitraryOf(s, ctx, name, depth)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      const samples = ctx.samples[name];
      const free = fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 30, 30) });
      return samples !== undefined && samples.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...samples), weight: 4 }, { arbitrary: free, weight: 1 }) : free;
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: Math.min(schema.maximum ?? 1000, 1000) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryOf(schema.items ?? {}, ctx, name, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 4, 4)),
      });
    case 'object': {
      if (depth > 4) return fc.constant({});
      const required = new Set(schema.required ?? []);
      const entries = Object.entries(schema.properties ?? {});
      const parts = Object.fromEntries(entries.map(([key, s]) => [key, arbitraryOf(s, ctx, key, depth + 1)]));
      return fc.record(parts, { requiredKeys: entries.map(([key]) => key).filter((key) => required.has(key)) });
    }
    default:
      return anyJson;
  }
}

/** A value of `schema` broken in one of the ways requests get broken. */
export function mutatedOf(schema: JsonSchema, ctx: SchemaContext): fc.Arbitrary<unknown> {
  const valid = arbitraryOf(schema, ctx);
  return fc.oneof(
    anyJson,
    fc.tuple(valid, fc.nat(), anyJson).map(([value, pick, wrong]) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return wrong;
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      const keys = Object.keys(copy);
      if (keys.length === 0) return wrong;
      const key = keys[pick % keys.length]!;
      switch (pick % 4) {
        case 0:
          delete copy[key]; // a required field missing, or an optional one
          return copy;
        case 1:
          copy[key] = wrong; // the wrong type
          return copy;
        case 2:
          copy[key] = Array.isArray(copy[key]) ? Array.from({ length: 6000 }, () => 'Burnley') : 'x'.repeat(300); // over the limits
          return copy;
        default:
          return { ...copy, [`extra_${pick}`]: wrong }; // unknown fields
      }
    }),
    fc.tuple(valid, fc.constantFrom('__proto__', 'constructor', 'prototype')).map(([value, key]) =>
      // Written into the JSON text itself, where JSON.parse would make an own "__proto__" key.
      ({ raw: `${JSON.stringify(value).slice(0, -1)}${JSON.stringify(value) === '{}' ? '' : ','}"${key}":{"polluted":true,"isAdmin":true}}` }),
    ),
    fc.tuple(valid, hostileNumber).map(([value, n]) =>
      value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...(value as object), n_observations: n } : value,
    ),
  );
}
