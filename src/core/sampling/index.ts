export { sampleRows, poolSizeOf, rngFromSeed, withoutTaken, type RowRange } from './sample.ts';
