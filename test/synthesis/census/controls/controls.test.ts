import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTROLS, PHASES, type Phase } from '../../../../src/synthesis/census/controls/controls.ts';
import { CATEGORY_SHARES, PRIORS } from '../../../../src/synthesis/census/controls/priors.ts';
import { GCP_TABLES_READ } from '../../../../src/synthesis/census/controls/tables-read.ts';
import { GCP_PART_HEADERS } from '../../../../src/synthesis/census/gcp/layout.generated.ts';
import { INPUT_TABLES } from '../../../../src/synthesis/census/tables.ts';
import { variablesOf } from '../../../../src/synthesis/census/variables.ts';
import { structureTargetsFrom } from '../../../../src/synthesis/synthesizer/structure/from-tables.ts';
import { synthesizeSuburb } from '../../../../src/synthesis/synthesizer/synthesize.ts';
import { toySuburb } from '../../synthesizer/attributes/fixture.ts';

/** Every control a phase (the structure step's included) looked up, as "phase variable", in the order looked up. */
const looked: string[] = [];
vi.mock('../../../../src/synthesis/census/controls/controls.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/synthesis/census/controls/controls.ts')>();
  return {
    ...actual,
    controlOf: (phase: Phase, variable: string) => {
      looked.push(`${phase} ${variable}`);
      return actual.controlOf(phase, variable);
    },
  };
});

const rowKey = (c: (typeof CONTROLS)[number]) => `${c.phase} ${c.variables[0]}`;

describe('the controls table', () => {
  it('names only tables the synthesizer fits, each in the list of tables read and in the generated layout, of the row’s universe', () => {
    for (const c of CONTROLS.filter((row) => row.table)) {
      const spec = INPUT_TABLES.find((t) => t.id === c.table);
      expect(spec, rowKey(c)).toBeDefined();
      expect(spec!.universe, rowKey(c)).toBe(c.universe);
      expect(GCP_TABLES_READ, rowKey(c)).toContain(c.table);
      expect(Object.keys(GCP_PART_HEADERS).some((part) => part.startsWith(c.table!)), rowKey(c)).toBe(true);
    }
    for (const c of CONTROLS.filter((row) => row.keeping)) expect(INPUT_TABLES.map((t) => t.id), rowKey(c)).toContain(c.keeping);
  });

  it('covers every table the synthesizer fits', () => {
    const named = new Set(CONTROLS.flatMap((c) => (c.table ? [c.table] : [])));
    expect(named).toEqual(new Set(INPUT_TABLES.map((t) => t.id)));
  });

  it('binds the structure step to tables alone, and only its rows anchor a count, bound or give a total', () => {
    for (const c of CONTROLS.filter((row) => row.phase === 'structure')) {
      expect(c.table, rowKey(c)).toBeDefined();
      expect([c.prior, c.shares, c.keeping], rowKey(c)).toEqual([undefined, undefined, undefined]);
    }
    for (const c of CONTROLS.filter((row) => row.phase !== 'structure')) {
      expect(c.anchors, rowKey(c)).toBeUndefined();
      expect(['bound', 'total'], rowKey(c)).not.toContain(c.how);
    }
  });

  it('names only variables of the vocabulary, of the row’s universe', () => {
    for (const c of CONTROLS) for (const code of c.variables) expect(variablesOf(c.universe).map((v) => v.code), rowKey(c)).toContain(code);
  });

  it('names only priors and shares that exist, and every row has a table or a prior', () => {
    for (const c of CONTROLS) {
      if (c.prior) expect(Object.keys(PRIORS), rowKey(c)).toContain(c.prior);
      if (c.shares) expect(Object.keys(CATEGORY_SHARES), rowKey(c)).toContain(c.shares);
      expect(Boolean(c.table || c.prior), rowKey(c)).toBe(true);
    }
    // Every prior is named by a row: none lies about unused.
    expect(new Set(CONTROLS.flatMap((c) => (c.prior ? [c.prior] : [])))).toEqual(new Set(Object.keys(PRIORS)));
  });

  it('has one row per phase and first variable, in phases that exist, every phase with rows', () => {
    const keys = CONTROLS.map(rowKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const c of CONTROLS) expect(PHASES, rowKey(c)).toContain(c.phase);
    expect(new Set(CONTROLS.map((c) => c.phase))).toEqual(new Set(PHASES));
  });

  describe('what the phases use', () => {
    beforeAll(() => {
      const suburb = toySuburb(600, 31);
      looked.length = 0;
      synthesizeSuburb(suburb.targets, { seed: 3, smallSuburb: false });
    });

    it('each phase, the structure step’s included, looks up exactly its rows, in the order the phases run', () => {
      expect(new Set(looked)).toEqual(new Set(CONTROLS.map(rowKey)));
      const order = [...new Set(looked.map((key) => key.split(' ')[0]))];
      expect(order).toEqual([...PHASES]);
    });
  });

  it('each anchor is the count the structure step builds to: the published total of the first row naming it that has one', () => {
    const { targets } = toySuburb(300, 7);
    const anchoring = CONTROLS.filter((c) => c.anchors);
    const field = { persons: 'persons', dwellings: 'dwellings', 'private persons': 'privatePersons' } as const;
    expect(new Set(anchoring.map((c) => c.anchors))).toEqual(new Set(Object.keys(field)));
    const totals = new Map(anchoring.map((c, i) => [c.table!, 200 + 10 * i]));
    for (const [anchor, key] of Object.entries(field)) {
      const tables = anchoring.filter((c) => c.anchors === anchor).map((c) => c.table!);
      tables.forEach((table, k) => {
        const published = new Map([...totals].filter(([id]) => !tables.slice(0, k).includes(id)));
        const built = structureTargetsFrom(targets, { smallSuburb: false, totals: published });
        expect(built[key], `${anchor} from ${table}`).toBe(totals.get(table));
      });
    }
  });
});
