import type { IdPrefix } from '../core/keys.ts';

/**
 * Where use cases get ids and seeds: the operating system's CSPRNG in production, a seeded
 * generator in tests that must know a query's id or reproduce its draw.
 */
export interface Randomness {
  /** A new id of this kind: "<prefix>_" and 20 base62 characters, never repeated. */
  id(prefix: IdPrefix): string;
  /** A 64-bit seed for one sampling draw. */
  seed(): bigint;
}
