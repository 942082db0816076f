/**
 * Writes an id as bytes at `at`: `prefix`, then `value` (an integer ≥ 0) in decimal, zero-padded
 * to `width` digits (longer numbers whole, as printf's %0Nd). Returns the position after it.
 * `scratch` needs room for the digits (16 bytes). The csv and xlsx writers share it: ids are the
 * one cell they build digit by digit instead of copying a pre-encoded piece.
 */
export function putPaddedId(out: Uint8Array, at: number, prefix: Uint8Array, value: number, width: number, scratch: Uint8Array): number {
  let pos = at;
  for (let b = 0; b < prefix.length; b++) out[pos++] = prefix[b]!;
  let n = 0;
  for (let x = value; x > 0; ) {
    const d = x % 10;
    scratch[n++] = 48 + d;
    x = (x - d) / 10;
  }
  for (let z = n; z < width; z++) out[pos++] = 48;
  while (n > 0) out[pos++] = scratch[--n]!;
  return pos;
}
