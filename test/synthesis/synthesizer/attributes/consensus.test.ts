import { describe, expect, it } from 'vitest';
import { tableById } from '../../../../src/synthesis/census/tables.ts';
import type { SuburbTargets } from '../../../../src/synthesis/census/targets.ts';
import { stratumConsensus } from '../../../../src/synthesis/synthesizer/attributes/consensus.ts';
import { info } from '../../../../src/synthesis/synthesizer/attributes/context.ts';
import { planTable } from '../../../../src/synthesis/synthesizer/attributes/plan.ts';

const figure = (id: string, header: string) => {
  const spec = tableById(id);
  const cell = spec.cells.findIndex((c) => c.header === header);
  return cell >= 0 ? cell : spec.cells.length + spec.otherHeaders.indexOf(header);
};
const males1519 = (id: string) =>
  tableById(id).cells.flatMap((c, i) => (c.where['SEXP']?.[0] === 0 && c.age?.[0] === 15 && c.age[1] === 19 ? [i] : []));

describe('stratumConsensus', () => {
  it("estimates the employed among G46's males aged 15–19 from G46, G54 and G60 together", () => {
    const g46 = tableById('G46');
    const tables = new Map<string, Float64Array>([
      ['G46', new Float64Array(g46.cells.length)],
      ['G54', new Float64Array(tableById('G54').cells.length)],
      ['G60', new Float64Array(tableById('G60').cells.length)],
    ]);
    const aggregates = new Map<string, Float64Array>([['G46', new Float64Array(g46.otherCells.length)]]);
    const employed = males1519('G46').filter((i) => g46.cells[i]!.where['LFSP']![0]! <= 3); // the four employed statuses
    expect(employed).toHaveLength(4);
    for (const i of employed) tables.get('G46')![i] = 5; // 20
    for (const i of males1519('G54').slice(0, 6)) tables.get('G54')![i] = 4; // 24
    for (const i of males1519('G60').slice(0, 2)) tables.get('G60')![i] = 9; // 18
    aggregates.get('G46')![figure('G46', 'M_Tot_Emp_15_19') - g46.cells.length] = 22;
    const targets: SuburbTargets = {
      salCode: 'X',
      tables,
      aggregates,
      samePeople: [[
        { tableId: 'G46', figure: figure('G46', 'M_Tot_Emp_15_19') },
        { tableId: 'G54', figure: figure('G54', 'M_Tot_15_19') },
        { tableId: 'G60', figure: figure('G60', 'M15_19_Tot') },
      ]],
    };
    const plan = planTable('G46', g46.cells, ['LFSP'], new Set(['SEXP']), info);
    const consensus = stratumConsensus(plan, targets);
    const s = plan.strata.findIndex((st) => st.cells.some((c) => c.source === employed[0]));
    expect(consensus[s]!.groups).toEqual([{ members: employed, value: (22 + 20 + 24 + 18) / 4 }]);
    // Other strata share nothing here (their subtotals are published, but no copy is known).
    expect(consensus.filter((c) => c !== undefined)).toHaveLength(1);
  });

  it('is empty without same-people figures', () => {
    const g46 = tableById('G46');
    const plan = planTable('G46', g46.cells, ['LFSP'], new Set(['SEXP']), info);
    const targets: SuburbTargets = { salCode: 'X', tables: new Map([['G46', new Float64Array(g46.cells.length)]]) };
    expect(stratumConsensus(plan, targets).every((c) => c === undefined)).toBe(true);
  });
});
