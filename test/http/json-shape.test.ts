import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonShapeProblem, MAX_JSON_DEPTH } from '../../src/http/json-shape.ts';

describe('jsonShapeProblem', () => {
  it('counts structure, not the brackets, colons and escaped quotes inside strings', () => {
    expect(jsonShapeProblem(JSON.stringify({ a: '[[[{{{:::\\"]]]', b: ['x"y', { c: '\\\\' }] }))).toBeUndefined();
    expect(jsonShapeProblem(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).toBeUndefined();
    expect(jsonShapeProblem(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`)).toMatch(/nests deeper/);
  });

  it('accepts any JSON value within the limits (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (value) => {
        expect(jsonShapeProblem(JSON.stringify(value))).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});
