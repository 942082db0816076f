/**
 * Raw column files of a release, `columns/<dataset>/<name>.bin`: one little-endian typed array
 * per column, row i at position i. Serving reads them into memory at open, so sampling and
 * gathering the chosen rows are O(n) array reads whatever the pool size (scanning pools.duckdb
 * for a spread-out sample would cost a full table scan per export).
 */
import type { DatasetType } from '../../core/dataset.ts';

export type ColumnKind = 'u8' | 'u32' | 'i32';

/** Link columns per dataset (variables are u8 ENUM indices, one file per variable code). */
export const LINK_FILES: Readonly<Record<DatasetType, readonly { readonly name: string; readonly kind: ColumnKind }[]>> = {
  persons: [
    { name: 'suburb_ordinal', kind: 'u32' },
    { name: 'family_row', kind: 'i32' },
    { name: 'dwelling_row', kind: 'u32' },
  ],
  families: [
    { name: 'suburb_ordinal', kind: 'u32' },
    { name: 'dwelling_row', kind: 'u32' },
  ],
  dwellings: [{ name: 'suburb_ordinal', kind: 'u32' }],
};

export const columnFile = (dataset: DatasetType, name: string): string => `columns/${dataset}/${name}.bin`;

export type ColumnArray = Uint8Array | Uint32Array | Int32Array;

/** A typed view of a file's bytes (copied when the buffer is not aligned for the element size). */
export function viewAs(kind: ColumnKind, bytes: Uint8Array): ColumnArray {
  if (kind === 'u8') return bytes;
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
  if (aligned.byteLength % 4 !== 0) throw new Error('column file length is not a multiple of 4');
  return kind === 'u32' ? new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4) : new Int32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
}
