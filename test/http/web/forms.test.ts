import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queryFromForm } from '../../../src/http/web/pages/forms.ts';

describe("the query builder's form", () => {
  it('reads n_observations as plain digits only: "1e2", "0x10", "7.0", "" are no number (the use case then refuses them)', () => {
    for (const text of ['1e2', '0x10', '7.0', '', '-5', '1,000', 'Infinity']) expect(queryFromForm({ n_observations: text }).n_observations, text).toBe(-1);
    expect(queryFromForm({ n_observations: ' 250 ' }).n_observations).toBe(250);
  });

  it('property: any whole number written in digits comes through as itself', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e12 }), (n) => queryFromForm({ n_observations: String(n) }).n_observations === n));
  });
});
