/**
 * The dwelling phase: STRD (G36, by household size), BEDRD (G41 by structure, ranked by size),
 * TEND and LLDD (G37 by structure, by the oldest member's age, flat or not, and household
 * income), landlords brought toward G40's count of them (landlords.ts), RNTRD (G40 by landlord) and MRERD (G38 by structure) ranked by household income,
 * VEHRD (G34, ranked by adults), and DLOD (the suburb's remoteness area). Every one of those
 * tables counts occupied private dwellings only (their cells say DWTD), so the non-private
 * dwelling is in none of their strata and keeps "Not applicable"; where a table is missing, the
 * fallback draws are for occupied private dwellings too.
 */
import { controlOf, priorOf } from '../../census/controls/controls.ts';
import { categoryIndex, variablesOf } from '../../census/variables.ts';
import type { AttributeContext, Level } from './context.ts';
import { fallbackOf } from './context.ts';
import type { IncomeTally } from './income.ts';
import { shareLandlords } from './landlords.ts';

export function assignDwellings(ctx: AttributeContext, dwellings: Level, personAge: Uint8Array, personDwelling: ArrayLike<number>, tally: IncomeTally): void {
  const D = dwellings.count;
  const nprd = dwellings.columns.NPRD!;
  const occupied = categoryIndex('DWTD', 'Occupied private dwelling');
  const privateDwelling = Uint8Array.from(dwellings.columns.DWTD!, (k) => (k === occupied ? 1 : 0));
  const both = (a: Uint8Array): Uint8Array => a.map((x, d) => x & privateDwelling[d]!);
  const householdDollars = tally.sum;
  const scoreOf = (signal: (d: number) => number, noise: number) => ctx.noisy(D, signal, noise);
  const control = (variable: string) => controlOf('dwellings', variable);
  ctx.fitOrDraw(dwellings, control('STRD'), { columns: dwellings.columns }, { eligible: privateDwelling });
  const strd = dwellings.columns.STRD!;
  const house = categoryIndex('STRD', 'Separate house');
  ctx.fitOrUniform(dwellings, control('BEDRD'), { eligible: privateDwelling, ranked: true, score: scoreOf((d) => nprd[d]! + (strd[d] === house ? 1.5 : 0), 1) });
  const oldest = new Int32Array(D);
  for (let i = 0; i < personAge.length; i++) {
    const d = personDwelling[i]!;
    if (personAge[i]! > oldest[d]!) oldest[d] = personAge[i]!;
  }
  const flat = Uint8Array.from(strd, (k) => (k >= 3 && k <= 7 ? 1 : 0));
  const tenure = control('TEND');
  // Without G37 neither tenure nor landlord has a table: both uniform, not the tenure prior alone.
  if (!ctx.fit(dwellings, tenure, { eligible: privateDwelling, prior: priorOf(tenure, { columns: dwellings.columns, oldest, flat, weeklyIncome: householdDollars }) })) {
    ctx.drawUniform(dwellings, 'TEND', privateDwelling);
    ctx.drawUniform(dwellings, 'LLDD', privateDwelling);
  }
  const tend = (dwellings.columns.TEND = dwellings.columns.TEND!.slice());
  const lldd = (dwellings.columns.LLDD = dwellings.columns.LLDD!.slice());
  const rented = categoryIndex('TEND', 'Rented');
  const lldNa = fallbackOf('LLDD');
  const lldNs = categoryIndex('LLDD', 'Landlord type not stated');
  // Landlords belong to renters only: the tenure cells of owners do not name one.
  for (let d = 0; d < D; d++) {
    if (tend[d] !== rented) lldd[d] = lldNa;
    else if (lldd[d] === lldNa) lldd[d] = lldNs;
  }
  // G37 dealt tenure and landlords; G40 counts the same renters by landlord, perturbed apart: meet both.
  shareLandlords(ctx.targets, control('LLDD'), dwellings, privateDwelling, ctx.options.smallSuburb, ctx.rng);
  const renter = Uint8Array.from(tend, (t) => (t === rented ? 1 : 0));
  const mortgagor = Uint8Array.from(tend, (t) => (t === categoryIndex('TEND', 'Owned with a mortgage') ? 1 : 0));
  const byIncome = (): Float64Array => scoreOf((d) => Math.log1p(Math.max(0, householdDollars[d]!)), 0.5);
  ctx.fitOrUniform(dwellings, control('RNTRD'), { eligible: both(renter), ranked: true, score: byIncome() });
  ctx.fitOrUniform(dwellings, control('MRERD'), { eligible: both(mortgagor), ranked: true, score: byIncome() });
  const adults = tally.adults;
  ctx.fitOrUniform(dwellings, control('VEHRD'), { eligible: privateDwelling, ranked: true, score: scoreOf((d) => adults[d]! + (strd[d] === house ? 0.7 : 0), 0.8) });
  // A non-private dwelling is in the area too: it has the area's remoteness.
  dwellings.columns.DLOD = new Uint8Array(D).fill(ctx.options.dwellingLocation ?? categoryIndex('DLOD', 'Not allocated'));
  for (const v of variablesOf('dwellings')) if (!dwellings.columns[v.code]) ctx.drawUniform(dwellings, v.code, privateDwelling);
}
