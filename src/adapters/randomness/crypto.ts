import { randomBytes } from 'node:crypto';
import { newId } from '../../core/keys.ts';
import type { Randomness } from '../../ports/randomness.ts';

/** Ids and seeds from the operating system's CSPRNG. */
export const cryptoRandomness: Randomness = {
  id: (prefix) => newId(prefix),
  seed: () => randomBytes(8).readBigUInt64BE(),
};
