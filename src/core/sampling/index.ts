export { sampleRows, poolSizeOf, rngFromSeed, type RowRange } from './sample.ts';
