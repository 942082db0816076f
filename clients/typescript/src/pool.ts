/**
 * Rubin's rules over m replicates (docs/multiple-imputation.md): the estimates Qᵢ of one analysis
 * run on each replicate's file, with their sampling variances Uᵢ.
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

export function pool(estimates: readonly number[], variances: readonly number[], options: { dfComplete?: number; level?: number } = {}): Pooled {
  const m = estimates.length;
  if (m < 2 || variances.length !== m) throw new RangeError('pool needs at least 2 estimates and one variance for each');
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
