/**
 * One suburb's census targets as the synthesizer sees them: for each input table (by id, e.g.
 * "G04"), the cell counts in the order of that table's spec (src/core/census/tables.ts), as
 * published, i.e. perturbed and not additive. `parent` holds the same tables summed over the
 * suburb's LGA and state, for smoothing tiny suburbs toward them.
 */
export interface SuburbTargets {
  readonly salCode: string;
  readonly tables: ReadonlyMap<string, Float64Array>;
  readonly parent?: {
    readonly lga: ReadonlyMap<string, Float64Array>;
    readonly state: ReadonlyMap<string, Float64Array>;
  };
}
