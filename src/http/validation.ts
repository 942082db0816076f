import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import type { FastifySchemaCompiler } from 'fastify';

interface SchemaError {
  readonly instancePath: string;
  readonly message: string;
}

function describe(schema: TSchema, message: string): string {
  if (message === 'Expected required property') return 'is required';
  if (message === 'Unexpected property') {
    const known = Object.keys((schema as { properties?: Record<string, unknown> }).properties ?? {});
    return `is not a field of this request (check its spelling); the fields are: ${known.join(', ')}`;
  }
  // A schema that says in words what its values may be (`x-invalid`, an OpenAPI extension keyword:
  // a seed is a union, whose own message names no rule).
  const rule = (schema as { 'x-invalid'?: unknown })['x-invalid'];
  if (typeof rule === 'string') return rule;
  const enumValues = (schema as { enum?: unknown }).enum;
  if (Array.isArray(enumValues)) return `must be one of: ${enumValues.join(', ')}`;
  return message.charAt(0).toLowerCase() + message.slice(1);
}

/**
 * TypeBox's compiler as Fastify's validator. A JSON body is never coerced (a string where an
 * integer belongs is a 400, as docs/spec/decisions.md says); querystring and path values, which are
 * always text, are converted to the declared types. Defaults fill what the client left out.
 */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = TypeCompiler.Compile(schema);
  return (value: unknown) => {
    // Value.Default fills in place: the value is this request's own (parsed for it), so no copy first.
    const withDefaults = value === undefined || value === null ? value : Value.Default(schema, value);
    const candidate = httpPart === 'body' ? withDefaults : Value.Convert(schema, withDefaults);
    if (check.Check(candidate)) return { value: candidate };
    const errors: SchemaError[] = [];
    const seenPaths = new Set<string>();
    for (const e of check.Errors(candidate)) {
      if (seenPaths.has(e.path)) continue; // the first complaint about a field is the useful one
      seenPaths.add(e.path);
      errors.push({ instancePath: e.path, message: describe(e.schema, e.message) });
      if (errors.length === 5) break;
    }
    return { error: errors as never };
  };
};

/** "body.n_observations must be integer; body.dataset_type is required" */
export function schemaErrorFormatter(errors: readonly { instancePath: string; message?: string | undefined }[], dataVar: string): Error {
  const text = errors
    .map((e) => {
      const field = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
      return `${field ? `${dataVar}.${field}` : dataVar} ${e.message ?? 'is invalid'}`;
    })
    .join('; ');
  return new Error(text || `invalid ${dataVar}`);
}
