/**
 * The controls of the synthesizer as data: which census table drives which variables, of which
 * universe, in which phase, and with what prior for what the table leaves out. The structure step
 * (synthesizer/structure/from-tables.ts, age-figures.ts) and the attribute phases
 * (synthesizer/attributes/) look their controls up here, so this table is the whole list of
 * bindings and of the tables fitted; test/synthesis/census/controls/controls.test.ts checks it
 * against the tables read, the vocabulary, and what each phase does use.
 *
 * The structure step's rows name the structural variables a table's cells shape (persons by sex
 * and age, roles, families, households by composition and size) and, in `anchors`, the count its
 * total fixes; it reads them by the meaning of their cells, with no prior.
 *
 * In the attribute phases, how a row is met follows from what it names: a table and a prior,
 * fitted to the table with the prior splitting its strata (drawn from the prior alone where the
 * area has no such table); a table alone, fitted (drawn uniformly over informative categories
 * where there is none); a prior alone, drawn from it (no table carries the variable). One exception, in the dwelling
 * phase: without G37, tenure and landlord are both drawn uniformly, not tenure from its prior.
 * `how` says when the table is reached otherwise than by dealing its cells. The swaps that
 * make partners and families resemble each other (synthesizer/attributes/family-resemblance.ts)
 * bind no table: they move whole bundles within strata every table nests in.
 */
import type { DatasetType } from '../../../census-names.ts';
import type { ClassPrior, PriorInputs, PriorName, SharesName } from './priors.ts';
import { PRIORS } from './priors.ts';

/** The synthesizer's phases, in the order they run: the structure step, then the attributes step's (synthesizer/attributes/index.ts). */
export const PHASES = ['structure', 'work', 'schooling', 'personal-income', 'origin', 'care', 'household-incomes', 'dwellings'] as const;
export type Phase = (typeof PHASES)[number];

export interface Control {
  readonly phase: Phase;
  readonly universe: DatasetType;
  /** The variables the row sets, fitted jointly to the table (the first is the row's name in its phase). */
  readonly variables: readonly string[];
  /** The census table (INPUT_TABLES) the variables are fitted to; none where no table carries them. */
  readonly table?: string;
  /** The prior (priors.ts PRIORS) that shapes what the table ignores, or draws the variable where no table is. */
  readonly prior?: PriorName;
  /** Shares that split a category the table lumps (priors.ts CATEGORY_SHARES), for a table fitted without a prior. */
  readonly shares?: SharesName;
  /**
   * How the table is met when not by dealing its cells: `swaps toward` (units' values swapped
   * until the table's cells are approached, other tables kept), `swaps within` (the table's
   * strata bound another row's swaps, so it stays as dealt), `bound` (its cells are a most, not
   * a count: G05's married persons cap the registered partners), `total` (only its total is
   * read: the anchor where the earlier row anchoring the same count has none).
   */
  readonly how?: 'swaps toward' | 'swaps within' | 'bound' | 'total';
  /** A second table the row's moves must keep (landlords move within G37's tenure cells). */
  readonly keeping?: string;
  /**
   * The count the table's total fixes in the structure step (its published total, else its own
   * cells'): the area's persons, its occupied private dwellings, or the persons in those. Where
   * two rows anchor the same count, their published totals come first, in row order, then their
   * cells.
   */
  readonly anchors?: 'persons' | 'dwellings' | 'private persons';
}

/** A persons row: phase, variable, table (or none), prior (or none). */
const persons = (phase: Phase, variable: string, table: string | undefined, prior?: PriorName, more: Partial<Control> = {}): Control => ({
  phase,
  universe: 'persons',
  variables: [variable],
  ...(table ? { table } : {}),
  ...(prior ? { prior } : {}),
  ...more,
});

export const CONTROLS: readonly Control[] = [
  // Persons by sex (G01's two cells split the anchor) and age: G01's sex × age groups, then G04's single years (age-figures.ts).
  { phase: 'structure', universe: 'persons', variables: ['SEXP', 'AGE5P'], table: 'G01', anchors: 'persons' },
  { phase: 'structure', universe: 'persons', variables: ['AGE5P', 'SEXP'], table: 'G04', anchors: 'persons' },
  // Households by composition × size; G42's total counts the same occupied private dwellings.
  { phase: 'structure', universe: 'dwellings', variables: ['HHCD', 'NPRD'], table: 'G35', anchors: 'dwellings' },
  { phase: 'structure', universe: 'dwellings', variables: ['DWTD'], table: 'G42', how: 'total', anchors: 'dwellings' },
  // Families by type and the share with a child under 15; beyond G35's family households, the households of two families.
  { phase: 'structure', universe: 'families', variables: ['FMCF'], table: 'G29' },
  // Roles by sex × age band and the de facto share of partners; its total splits the persons between households and the rest.
  { phase: 'structure', universe: 'persons', variables: ['RLHP', 'MDCP'], table: 'G27', anchors: 'private persons' },
  { phase: 'structure', universe: 'persons', variables: ['MDCP'], table: 'G05', how: 'bound' },

  persons('work', 'LFSP', 'G46', 'LFSP_BY_AGE'),
  persons('work', 'HRSP', undefined, 'HRSP_BY_LFSP'),
  persons('work', 'OCCP', 'G60', 'OCCP_BY_AGE_AND_ADVANTAGE'),
  persons('work', 'INDP', 'G54', 'INDP_BY_OCCP'),
  persons('work', 'MTWP', 'G62'),

  persons('schooling', 'TYPP', 'G15', 'TYPP_BY_AGE_AND_STUDENT'),
  persons('schooling', 'HSCP', 'G16', 'HSCP_BY_AGE'),
  persons('schooling', 'HEAP', 'G49', 'HEAP_BY_AGE_AND_OCCP'),

  persons('personal-income', 'INCP', 'G17'),

  persons('origin', 'MSTP', 'G05', 'MSTP_BY_AGE_AND_REGISTRATION'),
  persons('origin', 'INGP', 'G01', 'INGP_BY_AGE'),
  persons('origin', 'BPLP', 'G01', undefined, { shares: 'BPLP_OVERSEAS_SHARES' }),
  persons('origin', 'CITP', 'G01', 'CITP_BY_BIRTHPLACE'),
  persons('origin', 'LANP', 'G01', 'LANP_BY_ORIGIN_AND_REMOTENESS'),
  persons('origin', 'ENGLP', undefined, 'ENGLP_BY_LANP'),
  persons('origin', 'RELP', 'G14', 'RELP_BY_BIRTHPLACE'),

  persons('care', 'ASSNP', 'G18', 'ASSNP_BY_AGE'),
  persons('care', 'LTHP', undefined, 'LTHP_BY_AGE'),
  persons('care', 'UAI5P', undefined, 'UAI5P_BY_AGE'),
  persons('care', 'VOLWP', 'G23', 'VOLWP_BY_AGE'),

  { phase: 'household-incomes', universe: 'dwellings', variables: ['HIND'], table: 'G33', how: 'swaps toward' },
  { phase: 'household-incomes', universe: 'families', variables: ['FINF'], table: 'G32', how: 'swaps toward' },
  persons('household-incomes', 'INCP', 'G17', undefined, { how: 'swaps within' }),

  { phase: 'dwellings', universe: 'dwellings', variables: ['STRD'], table: 'G36', prior: 'STRD_BY_SIZE' },
  { phase: 'dwellings', universe: 'dwellings', variables: ['BEDRD'], table: 'G41' },
  { phase: 'dwellings', universe: 'dwellings', variables: ['TEND', 'LLDD'], table: 'G37', prior: 'TEND_BY_AGE_FLAT_AND_INCOME' },
  { phase: 'dwellings', universe: 'dwellings', variables: ['LLDD'], table: 'G40', how: 'swaps toward', keeping: 'G37' },
  { phase: 'dwellings', universe: 'dwellings', variables: ['RNTRD'], table: 'G40' },
  { phase: 'dwellings', universe: 'dwellings', variables: ['MRERD'], table: 'G38' },
  { phase: 'dwellings', universe: 'dwellings', variables: ['VEHRD'], table: 'G34' },
];

/** The phase's row for `variable` (its first variable); throws when the table has none, so a phase cannot bind a table the table does not list. */
export function controlOf(phase: Phase, variable: string): Control {
  const found = CONTROLS.find((c) => c.phase === phase && c.variables[0] === variable);
  if (!found) throw new Error(`no control for ${variable} in phase ${phase}`);
  return found;
}

/** The prior a row names, over the units `inputs` describe; throws for a row without one. */
export function priorOf(control: Control, inputs: PriorInputs): ClassPrior {
  if (!control.prior) throw new Error(`the control for ${control.variables.join(', ')} in phase ${control.phase} names no prior`);
  return PRIORS[control.prior](inputs);
}

/** The table a row binds; throws for a row without one (a variable drawn from its prior alone). */
export function tableOf(control: Control): string {
  if (!control.table) throw new Error(`the control for ${control.variables.join(', ')} in phase ${control.phase} names no table`);
  return control.table;
}
