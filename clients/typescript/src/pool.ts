/**
 * Rubin's rules over m replicates (docs/multiple-imputation.md): the estimates Qᵢ of one analysis
 * run on each replicate's file, with their sampling variances Uᵢ (or, for a whole model, the
 * coefficient vectors with their covariance matrices: poolModel).
 * - qBar = mean Qᵢ; w = mean Uᵢ (within); b = Σ(Qᵢ − qBar)² / (m − 1) (between); t = w + (1 + 1/m)·b.
 * - df: Rubin's classic (m − 1)(1 + 1/r)², r = (1 + 1/m)·b / w; or, given the analysis's
 *   complete-data degrees of freedom (`dfComplete`), the Barnard–Rubin (1999) small-sample df.
 * - ci: qBar ∓ t_{df, (1 + level)/2}·√t.
 */
export interface Pooled {
  readonly qBar: number;
  readonly w: number;
  readonly b: number;
  readonly t: number;
  readonly df: number;
  readonly ci: readonly [number, number];
  readonly m: number;
  /** Relative increase in variance due to the between-replicate spread: (1 + 1/m)·b / w. */
  readonly r: number;
  /** The share of t due to the between-replicate spread: (1 + 1/m)·b / t. */
  readonly lambda: number;
  readonly level: number;
  readonly dfMethod: 'rubin' | 'barnard-rubin';
}

/** One coefficient of a pooled model, as mice::pool reports it. */
export interface PooledTerm {
  readonly term: string;
  readonly estimate: number;
  /** Mean of the m variances (within). */
  readonly ubar: number;
  /** Variance of the m estimates (between). */
  readonly b: number;
  /** ubar + (1 + 1/m)·b. */
  readonly t: number;
  readonly df: number;
  /** (1 + 1/m)·b / ubar. */
  readonly riv: number;
  /** (1 + 1/m)·b / t. */
  readonly lambda: number;
  /** (riv + 2/(df + 3)) / (riv + 1). */
  readonly fmi: number;
  readonly ci: readonly [number, number];
}

export interface PooledModel {
  readonly m: number;
  /** The complete-data degrees of freedom used (Infinity when none was given: Rubin's df). */
  readonly dfcom: number;
  readonly level: number;
  readonly terms: readonly PooledTerm[];
  /** The total covariance matrix: mean Uᵢ + (1 + 1/m)·B, B the covariance of the coefficient vectors. */
  readonly covariance: readonly (readonly number[])[];
}

type Vector = readonly number[];
type Matrix = readonly (readonly number[])[];

/**
 * Rubin's rules. `pool(estimates, variances)`: one estimate over m replicates (Pooled).
 * `pool(coefficients, covariances)`: a whole model, m coefficient vectors and m covariance
 * matrices, pooled per coefficient as mice::pool does (PooledModel; see poolModel).
 */
export function pool(estimates: Vector, variances: Vector, options?: { dfComplete?: number; level?: number }): Pooled;
export function pool(coefficients: readonly Vector[], covariances: readonly Matrix[], options?: { dfComplete?: number; level?: number; terms?: readonly string[] }): PooledModel;
export function pool(
  estimates: Vector | readonly Vector[],
  variances: Vector | readonly Matrix[],
  options: { dfComplete?: number; level?: number; terms?: readonly string[] } = {},
): Pooled | PooledModel {
  if (estimates.some((q) => typeof q !== 'number')) return poolModel(estimates as readonly Vector[], variances as readonly Matrix[], options);
  if (variances.some((u) => typeof u !== 'number')) throw new RangeError('pool(estimates, variances): estimates are numbers, so variances must be numbers too (one per estimate); for a model give m coefficient vectors and m covariance matrices');
  return poolScalar(estimates as Vector, variances as Vector, options);
}

function poolScalar(estimates: Vector, variances: Vector, options: { dfComplete?: number; level?: number }): Pooled {
  const m = estimates.length;
  if (m < 2 || variances.length !== m) throw new RangeError(`pool needs at least 2 estimates and one variance for each; got ${m} estimates and ${variances.length} variances`);
  const level = options.level ?? 0.95;
  const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
  const qBar = mean(estimates);
  const w = mean(variances);
  const b = estimates.reduce((a, q) => a + (q - qBar) ** 2, 0) / (m - 1);
  const t = w + (1 + 1 / m) * b;
  const r = w > 0 ? ((1 + 1 / m) * b) / w : Infinity;
  const lambda = t > 0 ? ((1 + 1 / m) * b) / t : 0;
  let df = b > 0 ? (m - 1) * (1 + 1 / r) ** 2 : Infinity;
  if (options.dfComplete !== undefined) {
    const observed = ((options.dfComplete + 1) / (options.dfComplete + 3)) * options.dfComplete * (1 - lambda);
    if (observed > 0) df = 1 / (1 / df + 1 / observed);
  }
  const half = t > 0 ? tQuantile((1 + level) / 2, df) * Math.sqrt(t) : 0;
  return { qBar, w, b, t, df, ci: [qBar - half, qBar + half], m, r, lambda, level, dfMethod: options.dfComplete === undefined ? 'rubin' : 'barnard-rubin' };
}

function checkShapes(coefficients: readonly Vector[], covariances: readonly Matrix[]): number {
  const m = coefficients.length;
  if (m < 2) throw new RangeError(`pool needs the fits of at least 2 replicates; got ${m}`);
  if (covariances.length !== m) throw new RangeError(`pool needs one covariance matrix per coefficient vector; got ${m} vectors and ${covariances.length} matrices`);
  const p = coefficients[0]!.length;
  if (p === 0 || coefficients.some((v) => v.length !== p)) throw new RangeError(`every coefficient vector must have the same length; got lengths ${coefficients.map((v) => v.length).join(', ')}`);
  covariances.forEach((c, i) => {
    if (!Array.isArray(c) || c.length !== p || c.some((row) => !Array.isArray(row) || row.length !== p)) {
      throw new RangeError(`covariance matrix ${i + 1} must be ${p} x ${p}, one row and column per coefficient`);
    }
  });
  return p;
}

/**
 * Rubin's rules for a whole model, per coefficient, as mice::pool computes them: estimate (mean
 * of the m coefficients), ubar (mean of their variances), b (variance of the estimates),
 * t = ubar + (1 + 1/m)·b, df (Barnard–Rubin with the complete-data df `dfComplete`, e.g. an lm's
 * residual df; without it Infinity, which gives Rubin's (m − 1)/λ²; λ floored at 1e-4 as mice
 * does), riv, lambda, fmi and the confidence interval at `level`; `terms` names the coefficients.
 */
export function poolModel(coefficients: readonly Vector[], covariances: readonly Matrix[], options: { dfComplete?: number; level?: number; terms?: readonly string[] } = {}): PooledModel {
  const p = checkShapes(coefficients, covariances);
  const m = coefficients.length;
  const level = options.level ?? 0.95;
  const dfcom = options.dfComplete ?? Infinity;
  const range = [...Array(p).keys()];
  const mean = range.map((j) => coefficients.reduce((a, v) => a + v[j]!, 0) / m);
  const ubar = range.map((j) => range.map((k) => covariances.reduce((a, c) => a + c[j]![k]!, 0) / m));
  const between = range.map((j) => range.map((k) => coefficients.reduce((a, v) => a + (v[j]! - mean[j]!) * (v[k]! - mean[k]!), 0) / (m - 1)));
  const covariance = range.map((j) => range.map((k) => ubar[j]![k]! + (1 + 1 / m) * between[j]![k]!));
  const terms = range.map((j): PooledTerm => {
    const [u, b, t] = [ubar[j]![j]!, between[j]![j]!, covariance[j]![j]!];
    const lambda = t > 0 ? ((1 + 1 / m) * b) / t : 0;
    const riv = u > 0 ? ((1 + 1 / m) * b) / u : Infinity;
    const df = barnardRubin(m, lambda, dfcom);
    const half = t > 0 ? tQuantile((1 + level) / 2, df) * Math.sqrt(t) : 0;
    return { term: options.terms?.[j] ?? String(j + 1), estimate: mean[j]!, ubar: u, b, t, df, riv, lambda, fmi: (riv + 2 / (df + 3)) / (riv + 1), ci: [mean[j]! - half, mean[j]! + half] };
  });
  return { m, dfcom, level, terms, covariance };
}

/** mice's barnard.rubin(): λ floored at 1e-4; Rubin's (m − 1)/λ² when the complete-data df is infinite. */
function barnardRubin(m: number, lambda: number, dfcom: number): number {
  const floored = Math.max(lambda, 1e-4);
  const old = (m - 1) / floored ** 2;
  if (!Number.isFinite(dfcom)) return old;
  const observed = ((dfcom + 1) / (dfcom + 3)) * dfcom * (1 - floored);
  return (old * observed) / (old + observed);
}

/** The p quantile of Student's t with df degrees of freedom (bisection on its distribution function). */
export function tQuantile(p: number, df: number): number {
  let lo = -1e3;
  let hi = 1e3;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (tCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

function tCdf(t: number, df: number): number {
  if (!Number.isFinite(df)) return 0.5 * (1 + erf(t / Math.SQRT2));
  const tail = 0.5 * incompleteBeta(df / 2, 0.5, df / (df + t * t));
  return t > 0 ? 1 - tail : tail;
}

/** erf(x) = sign(x)·P(1/2, x²), the regularised lower incomplete gamma by its series (1 to double precision past |x| = 6). */
function erf(x: number): number {
  if (Math.abs(x) > 6) return Math.sign(x);
  if (x === 0) return 0;
  const z = x * x;
  let sum = 1 / 0.5;
  let term = 1 / 0.5;
  for (let n = 1; n < 500; n++) {
    term *= z / (0.5 + n);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  const p = Math.exp(-z + 0.5 * Math.log(z) - logGamma(0.5)) * sum;
  return Math.sign(x) * Math.min(1, p);
}

/** The regularised incomplete beta function I_x(a, b) (continued fraction, modified Lentz). */
function incompleteBeta(a: number, b: number, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  if (x > (a + 1) / (a + b + 2)) return 1 - incompleteBeta(b, a, 1 - x);
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) > tiny ? d : tiny);
  let f = d;
  for (let i = 1; i < 400; i++) {
    let delta = 1;
    for (const numerator of [(i * (b - i) * x) / ((a + 2 * i - 1) * (a + 2 * i)), (-(a + i) * (a + b + i) * x) / ((a + 2 * i) * (a + 2 * i + 1))]) {
      d = 1 + numerator * d;
      d = 1 / (Math.abs(d) > tiny ? d : tiny);
      c = 1 + numerator / c;
      c = Math.abs(c) > tiny ? c : tiny;
      delta = c * d;
      f *= delta;
    }
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return (front * f) / a;
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9). */
function logGamma(x: number): number {
  const g = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const y = x - 1;
  let a = g[0]!;
  const t = y + 7.5;
  for (let i = 1; i < 9; i++) a += g[i]! / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}
