/**
 * Leans one real distribution a different way in each of several groups (the demo's suburb
 * archetypes) while keeping the real distribution for the groups together: group c gets
 * out[c][i] ∝ base[i] · lean[c][i] · k[i], with k chosen so that the groups' mixture, weighted
 * by how many each holds, is the base again: Σ_c weight[c] · out[c][i] = Σ_c weight[c] · p[i],
 * p the base normalised. k is found by fixed-point iteration (like iterative proportional
 * fitting). With no weight at all the leans apply unbalanced (k = 1). Each result sums to 1.
 */
export function balanceLeans(base: ArrayLike<number>, leans: readonly ArrayLike<number>[], weights: readonly number[]): Float64Array[] {
  const n = base.length;
  let baseTotal = 0;
  for (let i = 0; i < n; i++) baseTotal += base[i]!;
  if (!(baseTotal > 0)) throw new Error('balanceLeans: the base distribution is empty');
  const p = Float64Array.from({ length: n }, (_, i) => base[i]! / baseTotal);
  const total = weights.reduce((a, b) => a + b, 0);
  const k = new Float64Array(n).fill(1);
  const z = new Float64Array(leans.length);
  const normalisers = () => leans.forEach((lean, c) => {
    let s = 0;
    for (let i = 0; i < n; i++) s += p[i]! * lean[i]! * k[i]!;
    z[c] = s;
  });
  if (total > 0) {
    for (let it = 0; it < 500; it++) {
      normalisers();
      let change = 0;
      for (let i = 0; i < n; i++) {
        if (p[i] === 0) continue;
        let s = 0;
        leans.forEach((lean, c) => (s += (weights[c]! * lean[i]!) / z[c]!));
        if (!(s > 0)) continue; // no weighted group leans towards i: nothing to balance
        const next = total / s;
        change = Math.max(change, Math.abs(next / k[i]! - 1));
        k[i] = next;
      }
      if (change < 1e-12) break;
    }
  }
  normalisers();
  return leans.map((lean, c) => Float64Array.from({ length: n }, (_, i) => (p[i]! * lean[i]! * k[i]!) / z[c]!));
}
