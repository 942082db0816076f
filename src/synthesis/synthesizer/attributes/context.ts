/**
 * What every attribute phase shares: the suburb's tables, the random stream, and the three ways a
 * variable gets its values — fitted to the table that carries it (`fit`: plan → weights →
 * integerise → deal, fit.ts), drawn from its prior where no table does (`draw`), or, with
 * neither, drawn uniformly over its informative categories (`drawUniform`, logged). Each
 * takes a row of the controls table (census/controls/controls.ts), which names the table, the
 * variables and the prior. Phases call them in a fixed order, so the output stays a pure
 * function of (inputs, seed).
 */
import type { SuburbTargets } from '../../census/targets.ts';
import { tableById } from '../../census/tables.ts';
import { variableByCode } from '../../census/variables.ts';
import type { Rng } from '../rng.ts';
import type { FamilyStrengths } from '../../shared/family-strengths.ts';
import { stratumConsensus } from './consensus.ts';
import { priorOf, type Control } from '../../census/controls/controls.ts';
import { CATEGORY_SHARES, type ClassPrior, type PriorInputs } from '../../census/controls/priors.ts';
import { fitTable } from './fit.ts';
import { isUninformative, notApplicableIndex, ordinalRanks } from '../../census/labels.ts';
import { planTable, type CategoryInfo, type CellLike } from './plan.ts';

export interface AttributeOptions {
  /** Small suburb (confidentiality threshold): every table borrows from the parent area's (borrow.ts). */
  readonly smallSuburb: boolean;
  /** DLOD category of the suburb (its remoteness area); no census table carries it. Default 0. */
  readonly dwellingLocation?: number;
  /** How strongly families resemble each other (default: the 2021 national figures, family-strengths.ts). */
  readonly familyStrengths?: FamilyStrengths;
}

/** One level's columns under construction (persons, families or dwellings). */
export interface Level {
  readonly count: number;
  readonly columns: Record<string, Uint8Array>;
  /** Variables with a column already: a table plan conditions on them. */
  readonly known: Set<string>;
  readonly age?: Uint8Array;
}

export function newLevel(count: number, variables: Readonly<Record<string, Uint8Array>>, age?: Uint8Array): Level {
  return { count, columns: { ...variables }, known: new Set(Object.keys(variables)), ...(age ? { age } : {}) };
}

export interface FitExtras {
  readonly eligible?: Uint8Array;
  readonly prior?: ClassPrior;
  readonly score?: Float64Array;
  readonly ranked?: boolean;
  readonly preferNotApplicable?: boolean;
  readonly categoryWeights?: ArrayLike<number>;
  readonly resolve?: (unit: number, categories: readonly number[]) => number;
}

export interface AttributeContext {
  readonly targets: SuburbTargets;
  readonly rng: Rng;
  readonly options: AttributeOptions;
  /** Per variable: units moved out of a category their class forbids (infeasible inputs). */
  readonly forced: Record<string, number>;
  /** Variables with no table for this suburb, drawn from their prior or uniformly. */
  readonly fromPriorOnly: string[];
  /** Fits the control's variables jointly to its table; false when the area has no values for it. */
  fit(level: Level, control: Control, extras?: FitExtras): boolean;
  /** Draws the control's variable from its prior alone (no table carries it). */
  draw(level: Level, control: Control, inputs: PriorInputs, eligible?: Uint8Array): void;
  /** fit with the control's prior, else draw from the prior (logged). */
  fitOrDraw(level: Level, control: Control, inputs: PriorInputs, extras?: FitExtras): void;
  /** fit (split by the control's category shares, if it names any), else informative categories at random (logged). */
  fitOrUniform(level: Level, control: Control, extras?: FitExtras): void;
  /** Informative categories at random for the eligible units, the fallback for the rest (logged). */
  drawUniform(level: Level, code: string, eligible?: Uint8Array): void;
  /** signal(i) + noise · N(0, 1) for i < n: a ranking score. */
  noisy(n: number, signal: (i: number) => number, noise: number): Float64Array;
}

export const info = (code: string): CategoryInfo => {
  const cats = variableByCode(code).categories;
  return { count: cats.length, notApplicable: notApplicableIndex(cats) };
};

/** The category of units outside a table's universe: "Not applicable", else "Not stated", else the first. */
export const fallbackOf = (code: string): number => {
  const cats = variableByCode(code).categories;
  const na = notApplicableIndex(cats);
  if (na >= 0) return na;
  const ns = cats.indexOf('Not stated');
  return ns >= 0 ? ns : 0;
};

const informativeOf = (code: string): boolean[] => variableByCode(code).categories.map((l) => !isUninformative(l));

/** Published cells, plus the table's other cells when the targets carry their values too. */
const extended = new WeakMap<object, readonly CellLike[]>();
export function cellsFor(id: string, values: ArrayLike<number>): readonly CellLike[] {
  const table = tableById(id);
  if (values.length < table.cells.length + table.otherCells.length) return table.cells;
  let all = extended.get(table);
  if (!all) extended.set(table, (all = [...table.cells, ...table.otherCells]));
  return all;
}

export function createAttributeContext(targets: SuburbTargets, rng: Rng, options: AttributeOptions): AttributeContext {
  const forced: Record<string, number> = {};
  const fromPriorOnly: string[] = [];
  const fit = fitter(targets, rng, options, forced);
  const draw = drawer(rng);
  const drawUniform = uniformDrawer(rng, fromPriorOnly);

  return {
    targets,
    rng,
    options,
    forced,
    fromPriorOnly,
    fit,
    draw(level, control, inputs, eligible) {
      if (control.table) throw new Error(`${control.variables[0]} has a table (${control.table}): fit it, do not draw it from its prior alone`);
      draw(level, control.variables[0]!, priorOf(control, inputs), eligible);
    },
    drawUniform,
    fitOrDraw(level, control, inputs, extras = {}) {
      const prior = priorOf(control, inputs);
      if (!fit(level, control, { ...extras, prior })) {
        fromPriorOnly.push(control.variables[0]!);
        draw(level, control.variables[0]!, prior, extras.eligible);
      }
    },
    fitOrUniform(level, control, extras = {}) {
      if (control.prior) throw new Error(`${control.variables[0]}'s control names a prior (${control.prior}): fitOrDraw, not fitOrUniform`);
      const shares = control.shares ? { categoryWeights: CATEGORY_SHARES[control.shares] } : {};
      if (!fit(level, control, { ...shares, ...extras })) drawUniform(level, control.variables[0]!, extras.eligible);
    },
    noisy(n, signal, noise) {
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) out[i] = signal(i) + noise * rng.normal();
      return out;
    },
  };
}

/** `fit`: a variable fitted to the table that carries it (plan → weights → integerise → deal); counts the units forced out of a forbidden category. */
function fitter(targets: SuburbTargets, rng: Rng, options: AttributeOptions, forced: Record<string, number>): AttributeContext['fit'] {
  return (level, control, extras = {}) => {
    const { table: id, variables: codes } = control;
    if (!id) throw new Error(`the control for ${codes.join(', ')} in phase ${control.phase} names no table to fit`);
    const values = targets.tables.get(id);
    if (!values) return false;
    const plan = planTable(id, cellsFor(id, values), codes, level.known, info);
    const parent = targets.parent?.lga.get(id) ?? targets.parent?.state.get(id);
    const result = fitTable(
      {
        plan,
        target: values,
        parent,
        units: level.count,
        conditionColumns: plan.conditionVars.map((v) => level.columns[v]!),
        age: level.age,
        eligible: extras.eligible,
        small: options.smallSuburb,
        pseudoCount: targets.borrowingStrength?.get(id),
        consensus: stratumConsensus(plan, targets, options.smallSuburb),
        informative: codes.map(informativeOf),
        fallback: codes.map(fallbackOf),
        preferNotApplicable: extras.preferNotApplicable,
        categoryWeights: extras.categoryWeights,
        resolve: extras.resolve,
        prior: extras.prior,
        score: extras.score,
        categoryRank: extras.ranked ? ordinalRanks(variableByCode(codes[0]!).categories) : undefined,
      },
      rng,
    );
    codes.forEach((code, t) => {
      level.columns[code] = result.values[t]!;
      level.known.add(code);
    });
    if (result.forced > 0) forced[codes[0]!] = (forced[codes[0]!] ?? 0) + result.forced;
    return true;
  };
}

/** A variable drawn from its prior, unit by unit. */
function drawer(rng: Rng): (level: Level, code: string, prior: ClassPrior, eligible?: Uint8Array) => void {
  return (level, code, prior, eligible) => {
    const fallback = fallbackOf(code);
    const k = variableByCode(code).categories.length;
    const cumulative = new Float64Array(prior.classes * k);
    for (let cls = 0; cls < prior.classes; cls++) {
      let run = 0;
      for (let c = 0; c < k; c++) cumulative[cls * k + c] = run += Math.max(0, prior.weight(cls, c));
    }
    const out = new Uint8Array(level.count).fill(fallback);
    for (let i = 0; i < level.count; i++) {
      if (eligible && !eligible[i]) continue;
      const base = prior.classOf[i]! * k;
      const total = cumulative[base + k - 1]!;
      if (!(total > 0)) continue;
      const u = rng.next() * total;
      let c = 0;
      while (c < k - 1 && cumulative[base + c]! <= u) c++;
      out[i] = c;
    }
    level.columns[code] = out;
    level.known.add(code);
  };
}

/** `drawUniform`: a variable with neither table nor prior, drawn uniformly over its informative categories (and logged). */
function uniformDrawer(rng: Rng, fromPriorOnly: string[]): AttributeContext['drawUniform'] {
  return (level, code, eligible) => {
    fromPriorOnly.push(code);
    const choices = informativeOf(code).flatMap((ok, k) => (ok ? [k] : []));
    const out = new Uint8Array(level.count).fill(fallbackOf(code));
    for (let i = 0; i < level.count; i++) if ((!eligible || eligible[i]) && choices.length > 0) out[i] = choices[rng.int(choices.length)]!;
    level.columns[code] = out;
    level.known.add(code);
  };
}
