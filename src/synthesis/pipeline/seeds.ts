/**
 * The seeds a build's syntheses draw from: one per implicate, one per area within it (FNV-1a of
 * the build seed and a name), so one area's records depend on no other's and each implicate is
 * an independent synthesis.
 */

/**
 * Implicate k's synthesis seed: the build seed for k = 1 (a one-implicate release is what it was),
 * else the build seed mixed with k (FNV-1a), so each implicate is an independent synthesis.
 */
export function implicateSeed(buildSeed: number, k: number): number {
  if (k === 1) return buildSeed;
  let hash = 0x811c9dc5 ^ (buildSeed >>> 0);
  for (const c of `implicate ${k}`) hash = Math.imul(hash ^ c.charCodeAt(0), 0x01000193);
  return hash >>> 0;
}

/** Per-suburb seed: the build seed mixed with the SAL code (FNV-1a), so one suburb's records don't depend on another's. */
export function suburbSeed(buildSeed: number, salCode: string): number {
  let hash = 0x811c9dc5 ^ (buildSeed >>> 0);
  for (let i = 0; i < salCode.length; i++) hash = Math.imul(hash ^ salCode.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
