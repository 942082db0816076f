import { describe, expect, it } from 'vitest';
import { INPUT_TABLES } from '../../../../src/synthesis/census/tables.ts';
import { tabulateCells } from '../../../../src/synthesis/census/tabulate.ts';
import { gcpColumns, gcpVocabulary } from '../../../../src/synthesis/census/gcp/cells.ts';
import type { CellSpec } from '../../../../src/synthesis/census/table-spec.ts';
import { buildDemoGeography } from '../../../../src/demo/geography.ts';
import { drawSuburbPopulation } from '../../../../src/demo/truth-model.ts';
import { createRng } from '../../../../src/synthesis/synthesizer/rng.ts';

/**
 * Two independent definitions of the same real columns must count the same records: the
 * hand-written specs the synthesizer fits (tables.ts, by short header) and the definitions
 * read from the ABS long headers through each table's vocabulary (gcp/vocabularies). Counted
 * on hidden-truth populations of several demo suburbs, so a wrong category set shows up as a
 * different count rather than as a different-looking but equal conjunction.
 */
const populations = buildDemoGeography('demo', 7, 6).suburbs.map((s) => drawSuburbPopulation(s, createRng(7).fork(s.index)));

describe('GCP vocabularies agree with the fitted table specs', () => {
  for (const spec of INPUT_TABLES) {
    const vocabulary = gcpVocabulary(spec.id);
    it.skipIf(!vocabulary)(`${spec.id}: every spec cell the vocabulary defines counts the same`, () => {
      const byHeader = new Map(spec.files.flatMap((p) => gcpColumns(p)).map((c) => [c.header, c.cell]));
      const ours = [...spec.cells, ...spec.otherCells];
      const pairs = ours.flatMap((c) => {
        const theirs = byHeader.get(c.header);
        return theirs ? [[c, theirs] as const] : [];
      });
      const mine: CellSpec[] = pairs.map(([c]) => c);
      const read: CellSpec[] = pairs.map(([, t]) => t);
      for (const pop of populations) {
        const a = tabulateCells(pop, spec.universe, mine);
        const b = tabulateCells(pop, spec.universe, read);
        const diff = pairs.flatMap(([c], i) => (a[i] !== b[i] ? [`${c.header}: spec ${a[i]} vs long header ${b[i]}`] : []));
        expect(diff).toEqual([]);
      }
      // The vocabulary must define every column the synthesizer reads.
      expect(ours.filter((c) => !byHeader.get(c.header)).map((c) => c.header)).toEqual([]);
    });
  }
});
