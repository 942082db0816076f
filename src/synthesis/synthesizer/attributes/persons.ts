/**
 * The person phases of the attributes step, in the order they run (each reads what the earlier
 * ones wrote): work → schooling → personal income → partners matched on education → marital
 * status and origin (with families made to resemble each other) → care and volunteering.
 * Each fits its variables to the tables that carry them (AttributeContext) and shapes what no
 * table links with priors and ranking scores; which table and which prior is the controls
 * table's word (census/controls/controls.ts).
 */
import { controlOf, priorOf, type Phase } from '../../census/controls/controls.ts';
import type { ClassPrior, PriorInputs } from '../../census/controls/priors.ts';
import * as priors from '../../census/controls/priors.ts';
import { categoryIndex, variablesOf } from '../../census/variables.ts';
import type { Rng } from '../rng.ts';
import type { AttributeContext, Level } from './context.ts';
import { inheritCulture, matchPartnersOnEducation } from './family-resemblance.ts';
import { NATIONAL_FAMILY_STRENGTHS_2021 } from '../../shared/family-strengths.ts';
import type { InheritReport } from './inherit.ts';

/** A person level with single-year ages, and what the phases share about each person. */
export interface PersonLevel extends Level {
  readonly age: Uint8Array;
}

export interface PersonBasics {
  /** Prior age band of each person (priors.PRIOR_BANDS). */
  readonly band: Uint8Array;
  /** 1 for persons aged 15 and over. */
  readonly adult: Uint8Array;
  /** A latent "advantage" per person linking schooling, qualification, occupation and income. */
  readonly latent: Float64Array;
}

export function personBasics(persons: PersonLevel, rng: Rng): PersonBasics {
  const latent = new Float64Array(persons.count);
  for (let i = 0; i < persons.count; i++) latent[i] = rng.normal();
  return { band: priors.bandOf(persons.age), adult: Uint8Array.from(persons.age, (a) => (a >= 15 ? 1 : 0)), latent };
}

const EMPLOYED_STATUSES = new Set(
  ['Employed, worked full-time', 'Employed, worked part-time', 'Employed, away from work', 'Employed, hours of work not stated'].map((l) =>
    categoryIndex('LFSP', l),
  ),
);
const FULL_TIME = categoryIndex('LFSP', 'Employed, worked full-time');
const SECONDARY = categoryIndex('TYPP', 'Secondary');
const NOT_ATTENDING = categoryIndex('TYPP', 'Not applicable');
const DEGREE = new Set(['Bachelor Degree Level', 'Graduate Diploma and Graduate Certificate Level', 'Postgraduate Degree Level'].map((l) => categoryIndex('HEAP', l)));
const DIPLOMA_OR_CERTIFICATE = new Set(['Advanced Diploma and Diploma Level', 'Certificate Level'].map((l) => categoryIndex('HEAP', l)));

/** 1 for employed persons (any of LFSP's four employed statuses). */
export function employedOf(lfsp: Uint8Array, into: Uint8Array = new Uint8Array(lfsp.length)): Uint8Array {
  for (let i = 0; i < lfsp.length; i++) into[i] = EMPLOYED_STATUSES.has(lfsp[i]!) ? 1 : 0;
  return into;
}

/** What the persons' priors class them by (PriorInputs): the columns as dealt so far, age, band, advantage, remoteness. */
function priorInputs(ctx: AttributeContext, persons: PersonLevel, basics: PersonBasics): PriorInputs {
  return { columns: persons.columns, age: persons.age, band: basics.band, latent: basics.latent, remote: (ctx.options.dwellingLocation ?? 0) >= 3 };
}

/** A phase's controls, by variable (census/controls/controls.ts). */
const controls = (phase: Phase) => (variable: string) => controlOf(phase, variable);

/** LFSP (G46 by age × sex), HRSP by LFSP, OCCP (G60) by age and advantage, INDP (G54) by occupation, MTWP (G62). */
export function assignWork(ctx: AttributeContext, persons: PersonLevel, basics: PersonBasics): { employed: Uint8Array } {
  const control = controls('work');
  const inputs = priorInputs(ctx, persons, basics);
  ctx.fitOrDraw(persons, control('LFSP'), inputs);
  const employed = employedOf(persons.columns.LFSP!);
  ctx.draw(persons, control('HRSP'), inputs, employed);
  ctx.fitOrDraw(persons, control('OCCP'), inputs, { eligible: employed });
  ctx.fitOrDraw(persons, control('INDP'), inputs, { eligible: employed });
  ctx.fitOrUniform(persons, control('MTWP'), { eligible: employed });
  return { employed };
}

/** TYPP (G15), HSCP (G16 by age × sex) and HEAP (G49 by age × sex), ranked by the latent advantage. */
export function assignSchooling(ctx: AttributeContext, persons: PersonLevel, basics: PersonBasics): void {
  const { age } = persons;
  const control = controls('schooling');
  const inputs = priorInputs(ctx, persons, basics);
  // Persons G15 does not count: not attending, or attending a type not stated; their age says which.
  const typp = control('TYPP');
  ctx.fitOrDraw(persons, typp, inputs, { resolve: byPrior(priorOf(typp, inputs), ctx.rng) });
  // G16 counts persons 15+ who no longer attend school: secondary students have no HSCP yet.
  const attending = persons.columns.TYPP!;
  const leftSchool = Uint8Array.from(age, (a, i) => (a >= 15 && attending[i] !== SECONDARY ? 1 : 0));
  ctx.fitOrDraw(persons, control('HSCP'), inputs, {
    eligible: leftSchool,
    ranked: true,
    score: ctx.noisy(persons.count, (i) => basics.latent[i]!, 0.6),
  });
  // Qualifications follow occupation as well as age (priors.heapPrior).
  ctx.fitOrDraw(persons, control('HEAP'), inputs, {
    eligible: basics.adult,
    ranked: true,
    score: ctx.noisy(persons.count, (i) => basics.latent[i]!, 0.6),
    resolve: heapFromSchool(persons.columns.HSCP!),
  });
}

/**
 * INCP (G17 by age × sex), dealt by a score: full-time work first, then other work; a degree
 * and, less, a diploma or certificate raise it (2021 Census: median incomes about $1,500 a week
 * with a degree, $1,100 with a certificate, $600 with school only). The weights are stronger
 * than those log ratios because the household income swaps loosen the link again
 * (docs/synthesis.md). School students work a few hours a week at most: within G17's 15–19 band
 * the high incomes go to those who have left school.
 */
export function assignPersonalIncome(ctx: AttributeContext, persons: PersonLevel, basics: PersonBasics, employed: Uint8Array): void {
  const { LFSP: lfsp, HEAP: heap, TYPP: typp } = persons.columns;
  const signal = (i: number): number =>
    0.3 * basics.latent[i]! +
    (lfsp![i] === FULL_TIME ? 1.6 : employed[i] ? 0.9 : 0) +
    (DEGREE.has(heap![i]!) ? 0.9 : DIPLOMA_OR_CERTIFICATE.has(heap![i]!) ? 0.45 : 0) -
    (typp![i] === SECONDARY ? 1.5 : 0);
  ctx.fitOrUniform(persons, controlOf('personal-income', 'INCP'), { eligible: basics.adult, ranked: true, score: ctx.noisy(persons.count, signal, 0.5) });
}

/**
 * Partners matched on education: whole work bundles move between persons of one sex, age group
 * and attendance (family-resemblance.ts), so every table stays as dealt; `employed` is brought
 * up to date.
 */
export function matchPartners(ctx: AttributeContext, persons: PersonLevel, family: Int32Array, employed: Uint8Array): InheritReport {
  const attending = Uint8Array.from(persons.columns.TYPP!, (t) => (t === SECONDARY ? 1 : t === NOT_ATTENDING ? 0 : 2));
  const report = matchPartnersOnEducation({ age: persons.age, family, columns: persons.columns }, attending, familyStrengths(ctx), ctx.rng);
  employedOf(persons.columns.LFSP!, employed);
  return report;
}

/** The culture climb's random stream (ctx.rng.fork), apart from the attribute step's own. */
const CULTURE_STREAM = 29;

/**
 * MSTP (G05 by age × sex, registered partners married, minors never), then origin: INGP (by age), BPLP,
 * CITP, LANP (G01, by birthplace, Indigenous status and remoteness), ENGLP, RELP (G14, by
 * birthplace); then families are made to resemble each other (family-resemblance.ts).
 */
export function assignOrigin(ctx: AttributeContext, persons: PersonLevel, basics: PersonBasics, family: Int32Array): InheritReport {
  const { age } = persons;
  const control = controls('origin');
  const inputs = priorInputs(ctx, persons, basics);
  ctx.fitOrDraw(persons, control('MSTP'), inputs, { eligible: basics.adult });
  ctx.fitOrDraw(persons, control('INGP'), inputs);
  ctx.fitOrUniform(persons, control('BPLP'));
  ctx.fitOrDraw(persons, control('CITP'), inputs);
  ctx.fitOrDraw(persons, control('LANP'), inputs);
  ctx.draw(persons, control('ENGLP'), inputs);
  ctx.fitOrDraw(persons, control('RELP'), inputs);
  // A stream of its own: how many draws the climb takes depends on the links pursued, and the
  // phases after it (incomes, dwellings) fit tables whose outcome should not move with that.
  return inheritCulture({ age, family, columns: persons.columns }, familyStrengths(ctx), ctx.rng.fork(CULTURE_STREAM));
}

/** ASSNP (G18 by age × sex), LTHP and UAI5P by age (no table), VOLWP (G23 by age × sex); any variable still missing, uniformly. */
export function assignCare(ctx: AttributeContext, persons: PersonLevel, basics: PersonBasics): void {
  const { adult } = basics;
  const control = controls('care');
  const inputs = priorInputs(ctx, persons, basics);
  ctx.fitOrDraw(persons, control('ASSNP'), inputs);
  ctx.draw(persons, control('LTHP'), inputs);
  ctx.draw(persons, control('UAI5P'), inputs, adult);
  ctx.fitOrDraw(persons, control('VOLWP'), inputs, { eligible: adult });
  for (const v of variablesOf('persons')) if (!persons.columns[v.code]) ctx.drawUniform(persons, v.code);
}

/** The strengths of family resemblance passed in, else the 2021 national ones. */
const familyStrengths = (ctx: AttributeContext) => ctx.options.familyStrengths ?? NATIONAL_FAMILY_STRENGTHS_2021;

/** A category within a cell's choice, drawn by the prior's weights for the unit's class. */
export function byPrior(prior: ClassPrior, rng: Rng): (unit: number, categories: readonly number[]) => number {
  return (unit, categories) => {
    const cls = prior.classOf[unit]!;
    let total = 0;
    for (const k of categories) total += Math.max(0, prior.weight(cls, k));
    if (!(total > 0)) return categories[0]!;
    let u = rng.next() * total;
    for (const k of categories) if ((u -= Math.max(0, prior.weight(cls, k))) < 0) return k;
    return categories[categories.length - 1]!;
  };
}

/** HEAP for persons without a non-school qualification follows their schooling (G49 does not count them). */
export function heapFromSchool(hscp: Uint8Array): (unit: number, categories: readonly number[]) => number {
  const y10plus = new Set(['Year 12 or equivalent', 'Year 11 or equivalent', 'Year 10 or equivalent', 'Not stated'].map((l) => categoryIndex('HSCP', l)));
  const none = categoryIndex('HSCP', 'Did not go to school');
  const sec10 = categoryIndex('HEAP', 'Secondary Education - Years 10 and above');
  const sec9 = categoryIndex('HEAP', 'Secondary Education - Years 9 and below');
  const noEdu = categoryIndex('HEAP', 'No educational attainment');
  return (unit, categories) => {
    const h = hscp[unit]!;
    const wanted = y10plus.has(h) ? sec10 : h === none ? noEdu : sec9;
    return categories.includes(wanted) ? wanted : categories[0]!;
  };
}

export { SECONDARY };
