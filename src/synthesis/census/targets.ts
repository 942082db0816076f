import type { SamePeople } from './same-people.ts';

/**
 * One suburb's census targets as the synthesizer sees them: for each input table (by id, e.g.
 * "G04"), the cell counts in the order of that table's spec (src/synthesis/census/tables.ts), as
 * published, i.e. perturbed and not additive. `parent` holds the same tables summed over the
 * suburb's LGA and state, which small areas borrow strength from (synthesizer/borrow.ts).
 */
export interface SuburbTargets {
  readonly salCode: string;
  readonly tables: ReadonlyMap<string, Float64Array>;
  /**
   * The tables' published totals and subtotals (table id → values in the order of the spec's
   * otherCells; NaN where not published), where the inputs carry them: the margins small areas
   * are fitted within (the same people's subtotal is the same number in every table).
   */
  readonly aggregates?: ReadonlyMap<string, Float64Array>;
  /** Figures of different tables that count the same people, read from the level's data (same-people.ts). */
  readonly samePeople?: SamePeople;
  readonly parent?: {
    readonly lga: ReadonlyMap<string, Float64Array>;
    readonly state: ReadonlyMap<string, Float64Array>;
  };
  /**
   * Per table, how strongly this area borrows from the parent where it borrows (pseudo-units k,
   * synthesizer/borrow.ts), chosen for the table and the area's size band on held-out subtotals
   * (synthesizer/borrow-strength.ts); a table without one borrows with the default.
   */
  readonly borrowingStrength?: ReadonlyMap<string, number>;
}
