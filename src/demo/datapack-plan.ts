import type { DatasetType } from '../core/dataset.ts';
import type { Population } from '../synthesis/census/population.ts';
import { INPUT_TABLES } from '../synthesis/census/tables.ts';
import type { CellSpec } from '../synthesis/census/table-spec.ts';
import { tabulateCells } from '../synthesis/census/tabulate.ts';
import { gcpColumns, gcpPartsOf, gcpVocabulary, type GcpColumn } from '../synthesis/census/gcp/cells.ts';
import { andWhere, type Where } from '../synthesis/census/gcp/vocabulary.ts';
import { cellDefinitionHash, fnv1a, perturbCount } from './perturb.ts';

/**
 * How the demo writes one real GCP table, every column of every part file in the metadata's
 * order. A column is either *defined* — the synthesizer's own cell (tables.ts) or the table's
 * vocabulary read from the ABS long header — and then tabulated from the hidden truth, or it
 * counts something the truth does not carry (ancestry, health conditions, a single country or
 * denomination, …). Such a column is *filled*: within its sex × age group the long headers form
 * a tree ("Christianity_Anglican" sits under "Christianity_Total"), and what a parent holds
 * beyond its defined children is shared among its filled children by made-up weights, so that
 * children add up to their parent and to the group's total before perturbation, as in the real
 * tables. Weights vary by suburb and column; counts are whole numbers.
 */
export interface TablePlan {
  readonly table: string;
  readonly universe: DatasetType;
  readonly parts: readonly { readonly part: string; readonly from: number; readonly to: number }[];
  readonly columns: readonly GcpColumn[];
  /** Per column: its definition (tabulated), or undefined (filled). */
  readonly cells: readonly (CellSpec | undefined)[];
  /** Cells tabulated per suburb: the defined columns, then one total per fill group. */
  readonly tabulated: readonly CellSpec[];
  /** Per column: index into `tabulated`, or -1 when filled. */
  readonly tabulatedAt: Int32Array;
  readonly groups: readonly FillGroup[];
  /** Per column: the perturbation key (the definition's hash, or the header's for filled columns). */
  readonly hashes: Uint32Array;
}

export interface FillGroup {
  /** Index into `tabulated` of the group's total. */
  readonly totalAt: number;
  /** Columns of the group in top-down order: each after its parent. */
  readonly nodes: readonly FillNode[];
}

export interface FillNode {
  readonly column: number;
  /** Parent column, or -1 for the group's total. */
  readonly parent: number;
  readonly defined: boolean;
  /** A total-only rest ("Total"): the group's total itself. */
  readonly isTotal: boolean;
  readonly weightKey: number;
  /** The first word of the rest, for tables whose rows overlap (fillClusters). */
  readonly leadingWord: string;
}

const SEX_WHERE: Readonly<Record<string, Where>> = { M: { SEXP: [0] }, F: { SEXP: [1] }, P: {} };
const TOTAL_ONLY = /^(?:(?:Total|Tot)(?:_|$))*$/;
const TOTAL_SUFFIX = /_(?:Total|Tot)(?:_(?:Total|Tot))*$/;

function fittedCellsByHeader(table: string): Map<string, CellSpec> {
  const spec = INPUT_TABLES.find((t) => t.id === table);
  return new Map(spec ? [...spec.cells, ...spec.otherCells].map((c) => [c.header, c]) : []);
}

/** The total of a fill group: the table's population within the group's sex and age. */
function groupTotal(universe: DatasetType, table: string, col: GcpColumn): CellSpec {
  const vocabulary = gcpVocabulary(table);
  let where: Where = vocabulary?.where ?? {};
  const { sex, age, count } = col.parts;
  if (universe === 'persons') {
    if (sex) where = andWhere(where, SEX_WHERE[sex]!);
    const [lo, hi] = vocabulary?.ages ?? [0, 115];
    const [a, b] = age ?? [lo, hi];
    return { header: `group:${col.header}`, where, age: [Math.max(a, lo), Math.min(b, hi)] };
  }
  const members = count !== 'records' && sex === 'P';
  return { header: `group:${col.header}`, where, ...(members ? { count: 'members' as const } : {}) };
}

export function planTable(table: string, universe: DatasetType): TablePlan {
  const partNames = gcpPartsOf(table);
  const columns: GcpColumn[] = [];
  const parts = partNames.map((part) => {
    const from = columns.length;
    columns.push(...gcpColumns(part));
    return { part, from, to: columns.length };
  });
  const fitted = fittedCellsByHeader(table);
  const cells = columns.map((c) => fitted.get(c.header) ?? c.cell);
  const tabulated: CellSpec[] = [];
  const tabulatedAt = new Int32Array(columns.length).fill(-1);
  cells.forEach((cell, i) => {
    if (cell) tabulatedAt[i] = tabulated.push(cell) - 1;
  });

  // Fill groups: only groups with at least one undefined column need a plan.
  const byGroup = new Map<string, number[]>();
  columns.forEach((c, i) => {
    const key = `${c.parts.sex ?? ''}|${c.parts.age?.join('-') ?? ''}|${c.parts.count ?? ''}`;
    const list = byGroup.get(key);
    if (list) list.push(i);
    else byGroup.set(key, [i]);
  });
  const groups: FillGroup[] = [];
  for (const members of byGroup.values()) {
    if (members.every((i) => cells[i])) continue;
    const totalAt = tabulated.push(groupTotal(universe, table, columns[members[0]!]!)) - 1;
    /** A subtotal's rest without its "_Total" (the group's own total is no subtotal). */
    const prefixOf = (i: number) => {
      const rest = columns[i]!.parts.rest;
      return TOTAL_SUFFIX.test(rest) && !TOTAL_ONLY.test(rest) ? rest.replace(TOTAL_SUFFIX, '') : undefined;
    };
    const parentOf = (i: number): number => {
      const rest = columns[i]!.parts.rest;
      let best = -1;
      let bestLength = -1;
      for (const j of members) {
        if (j === i) continue;
        const prefix = prefixOf(j);
        if (prefix === undefined || prefix.length <= bestLength) continue;
        if (rest.startsWith(`${prefix}_`) && rest !== prefix) {
          best = j;
          bestLength = prefix.length;
        }
      }
      return best;
    };
    const nodes = members.map(
      (i): FillNode => ({
        column: i,
        parent: TOTAL_ONLY.test(columns[i]!.parts.rest) ? -1 : parentOf(i),
        defined: cells[i] !== undefined,
        isTotal: TOTAL_ONLY.test(columns[i]!.parts.rest),
        weightKey: fnv1a(`${table}|${columns[i]!.header}`),
        leadingWord: columns[i]!.parts.rest.split('_')[0]!,
      }),
    );
    groups.push({ totalAt, nodes: topDown(nodes) });
  }

  const hashes = Uint32Array.from(columns, (c, i) => (cells[i] ? cellDefinitionHash(universe, cells[i]!) : fnv1a(`${table}|${c.header}`)));
  return { table, universe, parts, columns, cells, tabulated, tabulatedAt, groups, hashes };
}

/** Parents before children. */
function topDown(nodes: readonly FillNode[]): FillNode[] {
  const byColumn = new Map(nodes.map((n) => [n.column, n]));
  const depth = (n: FillNode): number => {
    let d = 0;
    for (let p = n.parent; p >= 0; p = byColumn.get(p)!.parent) d++;
    return d;
  };
  return [...nodes].sort((a, b) => depth(a) - depth(b) || a.column - b.column);
}

/** Made-up weight of a filled column in one suburb: stable, between 0.2 and 1.2. */
const weight = (key: number, area: number): number => {
  let h = Math.imul(key ^ area, 0x9e3779b1) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b) >>> 0;
  return 0.2 + ((h ^ (h >>> 13)) >>> 0) / 4294967296;
};

/** Shares `amount` in whole numbers by weights (largest remainder). */
function share(amount: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (amount <= 0 || sum <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (amount * w) / sum);
  const out = exact.map(Math.floor);
  let left = amount - out.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) out[order[k]![1]]! += 1;
  return out;
}

/**
 * Who shares what among a parent's filled children. Usually the children partition the parent,
 * and the filled ones share what the defined ones leave. In a table of selected characteristics
 * (G01) the rows overlap — their defined counts add up to more than the parent — and each run
 * of rows with the same leading word ("Highest_year_of_school_completed_…") is a partition of
 * its own, sharing the whole parent.
 */
export function fillClusters(
  kids: readonly FillNode[],
  parentValue: number,
  known: number,
): { nodes: FillNode[]; amount: number }[] {
  const filled = kids.filter((k) => !k.defined);
  if (filled.length === 0) return [];
  if (known <= parentValue) return [{ nodes: filled, amount: parentValue - known }];
  const byWord = new Map<string, FillNode[]>();
  for (const k of filled) {
    const list = byWord.get(k.leadingWord);
    if (list) list.push(k);
    else byWord.set(k.leadingWord, [k]);
  }
  return [...byWord.values()].map((nodes) => ({ nodes, amount: parentValue }));
}

/** The table's true counts for one suburb, column by column (before perturbation). */
export function trueCounts(plan: TablePlan, pop: Population, area: number): Float64Array {
  const tab = tabulateCells(pop, plan.universe, plan.tabulated);
  const out = new Float64Array(plan.columns.length);
  for (let i = 0; i < out.length; i++) if (plan.tabulatedAt[i]! >= 0) out[i] = tab[plan.tabulatedAt[i]!]!;
  for (const group of plan.groups) {
    const total = tab[group.totalAt]!;
    const value = new Map<number, number>(); // column → value; -1 = the group total
    value.set(-1, total);
    // Children of each parent, in top-down order.
    const children = new Map<number, FillNode[]>();
    for (const n of group.nodes) {
      if (n.isTotal) {
        if (!n.defined) out[n.column] = total;
        continue;
      }
      const list = children.get(n.parent);
      if (list) list.push(n);
      else children.set(n.parent, [n]);
    }
    const visit = (parent: number) => {
      const kids = children.get(parent);
      if (!kids) return;
      const parentValue = value.get(parent) ?? 0;
      const known = kids.filter((k) => k.defined).reduce((s, k) => s + out[k.column]!, 0);
      for (const cluster of fillClusters(kids, parentValue, known)) {
        const shares = share(cluster.amount, cluster.nodes.map((k) => weight(k.weightKey, area)));
        cluster.nodes.forEach((k, j) => (out[k.column] = shares[j]!));
      }
      for (const k of kids) {
        value.set(k.column, out[k.column]!);
        visit(k.column);
      }
    };
    visit(-1);
  }
  return out;
}

/** The published (perturbed) counts of one suburb. */
export function publishedCounts(plan: TablePlan, counts: Float64Array, area: number): Float64Array {
  return Float64Array.from(counts, (count, i) => perturbCount(count, plan.hashes[i]!, area));
}
