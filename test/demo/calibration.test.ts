import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { CALIBRATION_FILE, REAL_TABLES_DIR, readRealTables, renderCalibration } from '../../scripts/gen-demo-calibration.ts';
import type { Population } from '../../src/synthesis/census/population.ts';
import { ABS_CODE_OF_STATE } from '../../src/census-names.ts';
import { createRng } from '../../src/synthesis/synthesizer/rng.ts';
import { balanceLeans } from '../../src/demo/balance.ts';
import { stateCalibration } from '../../src/demo/calibration.ts';
import { drawChildAges, expectedChildAges } from '../../src/demo/child-ages.ts';
import { drawTruth } from '../../src/demo/generate.ts';
import { buildDemoGeography } from '../../src/demo/geography.ts';
import { createPartnerAges } from '../../src/demo/partner-ages.ts';
import { AGES, CALIBRATION_AREAS, RealTables, ROLE_BANDS, type CalibrationArea, type RealTableValues } from '../../src/demo/real-tables.ts';
import { demoShares, realShares, reweightedByState, type NationalShares } from '../../src/demo/shares.ts';
import { createTruthModel } from '../../src/demo/truth-params.ts';

/** The shipped real tables, read from census/2021-gcp (not from the generated module). */
const files = readRealTables();
const real: RealTableValues = Object.fromEntries([...files].map(([area, byTable]) => [area, Object.fromEntries(byTable)]));
const tablesOf = (area: CalibrationArea) => new RealTables(real, area);
const personsOf = (area: CalibrationArea) => tablesOf(area).ageBySex().reduce((s, byAge) => s + byAge.reduce((a, b) => a + b, 0), 0);
const maxGap = (a: readonly number[], b: readonly number[]) => Math.max(...a.map((x, i) => Math.abs(x - b[i]!)));

describe('the real tables in census/2021-gcp', () => {
  it(`are what src/demo/calibration.generated.ts holds (regenerate with scripts/gen-demo-calibration.ts)`, () => {
    expect(readFileSync(CALIBRATION_FILE, 'utf8') === renderCalibration(files)).toBe(true);
    expect(REAL_TABLES_DIR).toMatch(/census[\\/]2021-gcp$/);
  });

  it('are read by what a column counts: the parts add up to the ABS totals of every area', () => {
    // Every cell is perturbed on its own, totals included, by a few persons: parts add up to
    // their total within a few persons per cell.
    const perCell = 3;
    for (const area of CALIBRATION_AREAS) {
      const t = tablesOf(area);
      expect(Math.abs(personsOf(area) - t.count('G04', {})), area).toBeLessThan(perCell * 2 * 85);
      const roles = t.rolesByAge().flat(2).reduce((a, b) => a + b, 0);
      const visitors = t.count('G27', { RLHP: [10] });
      const everyone = t.count('G27', { RLHP: Array.from({ length: 11 }, (_, r) => r) });
      expect(Math.abs(roles + visitors - everyone), area).toBeLessThan(perCell * 2 * 11 * 9);
    }
  });

  it('keep ".." (not published) as NaN, and only structurally impossible cells become nobody', () => {
    const aus = tablesOf('AUS');
    expect(aus.count('G27', { RLHP: [0], SEXP: [0] }, [0, 14])).toBeNaN(); // a partner aged 0-14
    expect(aus.impossibleAsNone('G27', { RLHP: [0], SEXP: [0] }, [0, 14])).toBe(0);
    expect(aus.householdSizes().family[0]).toBe(0); // a one-person family household
    expect(aus.count('G35', { NPRD: [0], HHCD: [0] })).toBeNaN();
  });

  it('add up, state by state, to Australia: the comparison below reweights them by the demo', () => {
    const byState = new Map<CalibrationArea, number>(CALIBRATION_AREAS.filter((a) => a !== 'AUS').map((a) => [a, personsOf(a)]));
    const weighted = realShares(reweightedByState(real, byState));
    const aus = realShares(tablesOf('AUS'));
    // Each area's cells are perturbed separately, so the states add up to Australia only closely.
    expect(Math.abs(weighted.aged65 - aus.aged65)).toBeLessThan(0.001);
    expect(maxGap(weighted.roles.flat(), aus.roles.flat())).toBeLessThan(0.002);
    expect(maxGap(weighted.medianIncome.flat(), aus.medianIncome.flat())).toBeLessThan(3);
  });
});

describe('calibration pieces', () => {
  it('property: leaned distributions balance back to the base, each leaning its own way', () => {
    const positive = fc.double({ min: 0.05, max: 20, noNaN: true });
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 8 }).chain((n) =>
          fc.tuple(fc.array(positive, { minLength: n, maxLength: n }), fc.array(fc.array(positive, { minLength: n, maxLength: n }), { minLength: 1, maxLength: 6 })),
        ),
        // Groups absent from a geography weigh nothing.
        fc.array(fc.oneof(fc.constant(0), fc.double({ min: 0.001, max: 1000, noNaN: true })), { minLength: 6, maxLength: 6 }),
        ([base, leans], w) => {
          const weights = leans.map((_, c) => w[c]!);
          const total = weights.reduce((a, b) => a + b, 0);
          const out = balanceLeans(base, leans, weights);
          const baseTotal = base.reduce((a, b) => a + b, 0);
          for (const dist of out) expect(dist.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
          if (total === 0) return;
          base.forEach((b, i) => {
            const mixed = out.reduce((s, dist, c) => s + weights[c]! * dist[i]!, 0) / total;
            expect(mixed).toBeCloseTo(b / baseTotal, 6);
          });
          // Each group keeps its lean: between two groups the ratio of shares is the ratio of leans, up to a constant.
          const ratio = (i: number) => out[0]![i]! / out[leans.length - 1]![i]! / (leans[0]![i]! / leans[leans.length - 1]![i]!);
          base.forEach((_, i) => expect(ratio(i) / ratio(0)).toBeCloseTo(1, 9));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the children process draws the children the calibration expects', () => {
    const rng = createRng(11);
    for (const [parent, stay] of [[19, 0.7], [31, 0.5], [43, 0.75], [58, 0.7], [80, 0.9]] as const) {
      const runs = 40_000;
      const seen = new Float64Array(AGES);
      for (let i = 0; i < runs; i++) for (const age of drawChildAges(rng, parent, stay)) seen[age]! += 1 / runs;
      const expected = expectedChildAges(parent, stay);
      expect(maxGap(Array.from(seen), Array.from(expected)), `parent ${parent}`).toBeLessThan(0.012);
      for (let age = parent - 17; age < AGES; age++) expect(expected[age], `parent ${parent}, child ${age}`).toBe(0); // 18 years younger at least
    }
  });

  it("partners' ages: the men get the real men partners' ages whatever the women's, and are close to their partner's", () => {
    const c = stateCalibration('AUS');
    const women = c.womenNoChildren.map((n, a) => n + c.mothers[a]!);
    const menWeights = new Float64Array(AGES);
    ROLE_BANDS.forEach(([lo, hi], b) => {
      const t = tablesOf('AUS').rolesByAge();
      const n = t[0]![b]![0]! + t[1]![b]![0]!;
      for (let a = lo; a <= Math.min(hi, AGES - 1); a++) menWeights[a] = n / (Math.min(hi, AGES - 1) - lo + 1);
    });
    const partners = createPartnerAges(women, menWeights);
    const total = women.reduce((a, b) => a + b, 0);
    const men = new Float64Array(AGES);
    women.forEach((w, a) => partners.menGiven(a).forEach((p, m) => (men[m]! += (w / total) * p)));
    const menTotal = menWeights.reduce((a, b) => a + b, 0);
    expect(maxGap(Array.from(men), Array.from(menWeights, (x) => x / menTotal))).toBeLessThan(0.002);
    const rng = createRng(5);
    const gaps = Array.from({ length: 20_000 }, () => {
      const woman = 25 + rng.int(40);
      return partners.draw(rng, woman) - woman;
    });
    const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    expect(mean).toBeGreaterThan(0.5); // men partners are older than women partners
    expect(mean).toBeLessThan(4);
    expect(gaps.filter((g) => Math.abs(g) > 12).length / gaps.length).toBeLessThan(0.05);
  });

  it("fits each state's children: G29's couples with children, G27's children by band", () => {
    for (const area of CALIBRATION_AREAS) {
      const c = stateCalibration(area);
      const t = tablesOf(area);
      expect(c.mothers.reduce((a, b) => a + b, 0) / (t.families().byType[1]! + t.families().byType[2]!), area).toBeCloseTo(1, 3);
      const roles = t.rolesByAge();
      const band = (b: number) => {
        const [lo, hi] = ROLE_BANDS[b]!;
        let n = 0;
        for (let a = lo; a <= Math.min(hi, AGES - 1); a++) n += c.children[a]!;
        return n;
      };
      const under15 = roles[3]![0]![0]! + roles[3]![0]![1]!;
      // Measured ≤ 6.3% (Queensland); Other Territories' 4,500 persons, perturbed cell by cell,
      // leave its couples with children (95% of women partners 35-44 already) 25% short.
      expect(Math.abs(band(0) / under15 - 1), `${area} under 15`).toBeLessThan(area === '9' ? 0.3 : 0.08);
      const older = roles[4]![1]![0]! + roles[4]![1]![1]! + roles[5]![1]![0]! + roles[5]![1]![1]!;
      expect(Math.abs(band(1) / older - 1), `${area} 15-24`).toBeLessThan(0.05); // measured ≤ 4.8% (Northern Territory)
    }
  });
});

describe('the default demo truth (300 suburbs, seed 2021) against the real tables', () => {
  let demo: NationalShares;
  /** The real shares at the demo's state mix: the model is calibrated state by state (see reweightedByState). */
  let expected: NationalShares;
  let partners15to19 = 0;

  beforeAll(() => {
    const suburbs = buildDemoGeography('demo', 2021).suburbs;
    const model = createTruthModel(suburbs);
    const base = createRng(2021);
    const byState = new Map<CalibrationArea, number>();
    let teens = 0;
    const pops: Population[] = [];
    for (const suburb of suburbs) {
      const pop = drawTruth(base, suburb, model); // what `spq demo-inputs` writes
      pops.push(pop);
      const area = ABS_CODE_OF_STATE[suburb.state] as CalibrationArea;
      byState.set(area, (byState.get(area) ?? 0) + pop.persons.count);
      for (let p = 0; p < pop.persons.count; p++) {
        if (pop.persons.age[p]! < 15 || pop.persons.age[p]! > 19) continue;
        teens++;
        if (pop.persons.variables.RLHP![p]! <= 1) partners15to19++;
      }
    }
    partners15to19 /= teens;
    demo = demoShares(pops);
    expected = realShares(reweightedByState(real, byState));
  });

  // Tolerances: with 650,000 persons, sampling error is a few tenths of a point at most for the
  // shares here (more for the income distribution of small cells, said there), so each
  // tolerance is what the model's structure leaves (measured, see docs/inputs.md "Hidden
  // truth"), with some room; the model before calibration misses each by far more.

  it('has about 17% aged 65 and over, and the real age bands', () => {
    // 16.3% expected from G27 (private dwellings) at the demo's state mix; G04's 17.2% for
    // Australia also counts aged care and other non-private dwellings, which the demo has not.
    expect(Math.abs(demo.aged65 - expected.aged65)).toBeLessThan(0.005); // measured 0.04 point; uncalibrated −7.6
    const g04 = tablesOf('AUS').ageBySex();
    const aged65 = g04.reduce((s, byAge) => s + byAge.slice(65).reduce((a, b) => a + b, 0), 0) / personsOf('AUS');
    expect(Math.abs(demo.aged65 - aged65)).toBeLessThan(0.015);
    expect(maxGap(demo.ageBands, expected.ageBands)).toBeLessThan(0.008); // measured 0.4 point (under 15: the children fit)
  });

  it('has partners among the young as rarely as the real ones', () => {
    expect(Math.abs(demo.partners15to24 - expected.partners15to24)).toBeLessThan(0.01); // measured 0.1 point; uncalibrated +1.9
    // G05's married 15-19-year-olds (0.3%) bound the registered ones; de facto ones are not published by age 15-19.
    expect(Math.abs(demo.marital[0]![4]! - expected.marital[0]![4]!)).toBeLessThan(0.002);
    expect(partners15to19).toBeLessThan(0.015);
  });

  it('has each age band’s relationships in household as G27 (lone persons, group members, partners, children …)', () => {
    for (let b = 1; b < ROLE_BANDS.length; b++) {
      // Measured ≤ 0.4 point; other seeds up to 1 point in the small old bands. Uncalibrated: 10.7 (group members 25-34).
      expect(maxGap(demo.roles[b]!, expected.roles[b]!), `band ${ROLE_BANDS[b]}`).toBeLessThan(0.015);
    }
  });

  it('has the real incomes by age band and sex: median and shape (G17)', () => {
    demo.medianIncome.forEach((bySex, b) =>
      bySex.forEach((median, sex) => {
        const want = expected.medianIncome[b]![sex]!;
        // Measured ≤ $15 or 1.6%; uncalibrated, men 15-19 had $381 for the real $32.
        expect(Math.abs(median - want), `band ${b} sex ${sex}: $${median.toFixed(0)} vs $${want.toFixed(0)}`).toBeLessThan(Math.max(20, 0.03 * want));
        // Total variation between the band distributions: the smallest cells (men 85+, about
        // 5,000 persons over 15 bands) differ by about 0.02 from sampling alone.
        const tv = demo.incomeBands[b]![sex]!.reduce((s, x, k) => s + Math.abs(x - expected.incomeBands[b]![sex]![k]!), 0) / 2;
        expect(tv, `band ${b} sex ${sex} income distribution`).toBeLessThan(0.035);
      }),
    );
  });

  it('has the real labour force by age band and sex (G46) and marital status by age band (G05)', () => {
    // Archetypes lean their labour force (remote: more unemployed) and are rebalanced by persons,
    // not by persons of each age band: measured 0.6 point (employed), 1.2 (not in the labour force).
    expect(maxGap(demo.employed.flat(), expected.employed.flat())).toBeLessThan(0.015);
    expect(maxGap(demo.notInLabourForce.flat(), expected.notInLabourForce.flat())).toBeLessThan(0.02);
    // Registered marital status by band: measured ≤ 0.5 point to 84. At 85+ G05 also counts aged
    // care, where fewer are married, while G27's married partners (the demo's) are of private
    // dwellings only: 36% against G05's 33%.
    for (let b = 0; b < 8; b++) expect(maxGap(demo.marital[b]!, expected.marital[b]!), `band ${b}`).toBeLessThan(0.015);
    expect(maxGap(demo.marital[8]!, expected.marital[8]!)).toBeLessThan(0.04);
  });

  it('has the real households (G35) and families (G29)', () => {
    expect(Math.abs(demo.lone - expected.lone)).toBeLessThan(0.01); // measured 0.2 point
    expect(Math.abs(demo.group - expected.group)).toBeLessThan(0.01); // measured 0.2 point; uncalibrated +2.2
    // Three-person households run high (couples with one child): measured +2.7 points.
    expect(maxGap(demo.householdSize, expected.householdSize)).toBeLessThan(0.035);
    // One-parent families' children run a little old (more without a child under 15): measured 1.1 points.
    expect(maxGap(demo.familyTypes, expected.familyTypes)).toBeLessThan(0.02);
  });
});
