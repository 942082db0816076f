/**
 * Thrift's compact protocol, the writing half, for parquet's page headers and footer
 * (parquet-format's parquet.thrift). A struct is a list of [field id, value] in id order;
 * undefined entries are optional fields left out.
 */
export type ThriftValue =
  | { readonly i32: number }
  | { readonly i64: number }
  | { readonly bool: boolean }
  | { readonly binary: Uint8Array | string }
  | { readonly struct: ThriftStruct }
  | { readonly list: readonly ThriftValue[]; readonly of: 'i32' | 'binary' | 'struct' };
export type ThriftStruct = readonly (readonly [number, ThriftValue] | undefined)[];

const TYPE = { true: 1, false: 2, i32: 5, i64: 6, binary: 8, list: 9, struct: 12 } as const;

export const i32 = (value: number): ThriftValue => ({ i32: value });
export const i64 = (value: number): ThriftValue => ({ i64: value });
export const bool = (value: boolean): ThriftValue => ({ bool: value });
export const binary = (value: Uint8Array | string): ThriftValue => ({ binary: value });
export const struct = (fields: ThriftStruct): ThriftValue => ({ struct: fields });
export const list = (of: 'i32' | 'binary' | 'struct', values: readonly ThriftValue[]): ThriftValue => ({ list: values, of });

class Output {
  bytes = new Uint8Array(256);
  length = 0;
  byte(b: number): void {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length++] = b;
  }
  /** An unsigned varint (LEB128) of up to 2⁵³. */
  varint(n: number): void {
    while (n >= 0x80) {
      this.byte((n % 0x80) | 0x80);
      n = Math.floor(n / 0x80);
    }
    this.byte(n);
  }
  zigzag(n: number): void {
    this.varint(n >= 0 ? n * 2 : -n * 2 - 1);
  }
  raw(bytes: Uint8Array): void {
    for (const b of bytes) this.byte(b);
  }
}

const encoder = new TextEncoder();
const typeOf = (v: ThriftValue): number =>
  'i32' in v ? TYPE.i32 : 'i64' in v ? TYPE.i64 : 'bool' in v ? (v.bool ? TYPE.true : TYPE.false) : 'binary' in v ? TYPE.binary : 'struct' in v ? TYPE.struct : TYPE.list;

function writeValue(out: Output, v: ThriftValue): void {
  if ('i32' in v) out.zigzag(v.i32);
  else if ('i64' in v) out.zigzag(v.i64);
  else if ('bool' in v) out.byte(v.bool ? 1 : 2);
  else if ('binary' in v) {
    const bytes = typeof v.binary === 'string' ? encoder.encode(v.binary) : v.binary;
    out.varint(bytes.length);
    out.raw(bytes);
  } else if ('struct' in v) writeStruct(out, v.struct);
  else {
    const element = TYPE[v.of];
    if (v.list.length < 15) out.byte((v.list.length << 4) | element);
    else {
      out.byte(0xf0 | element);
      out.varint(v.list.length);
    }
    for (const item of v.list) writeValue(out, item);
  }
}

function writeStruct(out: Output, fields: ThriftStruct): void {
  let last = 0;
  for (const field of fields) {
    if (field === undefined) continue;
    const [id, value] = field;
    const type = typeOf(value);
    if (id > last && id - last <= 15) out.byte(((id - last) << 4) | type);
    else {
      out.byte(type);
      out.zigzag(id);
    }
    last = id;
    // A boolean field's value is its type nibble.
    if (!('bool' in value)) writeValue(out, value);
  }
  out.byte(0);
}

/** The compact-protocol bytes of a struct. */
export function encodeStruct(fields: ThriftStruct): Uint8Array {
  const out = new Output();
  writeStruct(out, fields);
  return out.bytes.subarray(0, out.length);
}
