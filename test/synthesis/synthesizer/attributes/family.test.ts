import { describe, expect, it } from 'vitest';
import { deriveLfsf } from '../../../../src/synthesis/synthesizer/attributes/family.ts';
import { categoryIndex, variableByCode } from '../../../../src/synthesis/census/variables.ts';

const rl = (l: string) => categoryIndex('RLHP', l);
const lf = (l: string) => categoryIndex('LFSP', l);
const LFSF = variableByCode('LFSF').categories;

describe('deriveLfsf', () => {
  it('reads the partners or the lone parent', () => {
    const family = Int32Array.from([0, 0, 0, 1, 1, 2, 2, 3, -1]);
    const rlhp = Uint8Array.from([
      rl('Partner in a registered marriage'), rl('Partner in a de facto marriage'), rl('Child under 15'),
      rl('Lone parent'), rl('Non-dependent child'),
      rl('Partner in a registered marriage'), rl('Partner in a registered marriage'),
      rl('Other related individual'), rl('Lone person'),
    ]);
    const lfsp = Uint8Array.from([
      lf('Employed, worked full-time'), lf('Employed, worked part-time'), lf('Not applicable'),
      lf('Not in the labour force'), lf('Employed, worked full-time'),
      lf('Unemployed, looking for full-time work'), lf('Not stated'),
      lf('Employed, worked full-time'), lf('Employed, worked full-time'),
    ]);
    const out = Array.from(deriveLfsf(4, family, rlhp, lfsp), (k) => LFSF[k]);
    expect(out).toEqual([
      'Couple family: One employed full-time, other part-time',
      'One parent family: Parent not employed',
      'Couple family: Labour force status not stated (one or both)',
      'Not applicable',
    ]);
  });
});
