/**
 * The Arrow schema a parquet file carries as its "ARROW:schema" key-value metadata (base64 of
 * an encapsulated IPC Schema message, as Arrow's own parquet writer stores it): Arrow readers
 * (pyarrow, polars, R arrow) take each coded column as a dictionary of strings, ordered for an
 * ordinal variable, instead of plain strings. Built with the flatbuffers builder, field slots as
 * in Arrow's format/Schema.fbs and Message.fbs.
 */
import { Builder } from 'flatbuffers';

export interface ArrowField {
  readonly name: string;
  /** Dictionary-encoded string (the parquet column's dictionary), ordered or not; else a plain string. */
  readonly dictionary?: { readonly ordered: boolean };
}

const TYPE_UTF8 = 5;
const HEADER_SCHEMA = 1;
const METADATA_V5 = 4;

function field(b: Builder, f: ArrowField, dictionaryId: number): number {
  const name = b.createString(f.name);
  b.startObject(0); // Utf8: no fields
  const utf8 = b.endObject();
  let dictionary = 0;
  if (f.dictionary) {
    b.startObject(2); // Int { bitWidth, is_signed }
    b.addFieldInt32(0, 32, 0);
    b.addFieldInt8(1, 1, 0);
    const index = b.endObject();
    b.startObject(4); // DictionaryEncoding { id, indexType, isOrdered, dictionaryKind }
    b.addFieldInt64(0, BigInt(dictionaryId), BigInt(0));
    b.addFieldOffset(1, index, 0);
    b.addFieldInt8(2, f.dictionary.ordered ? 1 : 0, 0);
    dictionary = b.endObject();
  }
  b.startVector(4, 0, 4);
  const noChildren = b.endVector();
  b.startObject(7); // Field { name, nullable, type_type, type, dictionary, children, custom_metadata }
  b.addFieldOffset(0, name, 0);
  b.addFieldInt8(1, 1, 0);
  b.addFieldInt8(2, TYPE_UTF8, 0);
  b.addFieldOffset(3, utf8, 0);
  if (dictionary !== 0) b.addFieldOffset(4, dictionary, 0);
  b.addFieldOffset(5, noChildren, 0);
  return b.endObject();
}

/** A vector of offsets, in order. */
function offsetVector(b: Builder, offsets: readonly number[]): number {
  b.startVector(4, offsets.length, 4);
  for (let k = offsets.length - 1; k >= 0; k--) b.addOffset(offsets[k]!);
  return b.endVector();
}

/** KeyValue { key, value } tables. */
function keyValues(b: Builder, metadata: Readonly<Record<string, string>>): number[] {
  return Object.entries(metadata).map(([key, value]) => {
    const k = b.createString(key);
    const v = b.createString(value);
    b.startObject(2);
    b.addFieldOffset(0, k, 0);
    b.addFieldOffset(1, v, 0);
    return b.endObject();
  });
}

/**
 * The base64 "ARROW:schema" value for these fields (all nullable), with the schema's own
 * custom_metadata: a reader that takes the schema from here (pyarrow) shows that as the table's
 * schema.metadata, not the parquet file's key-value metadata, so the file's entries go here too.
 */
export function arrowSchemaBase64(fields: readonly ArrowField[], metadata: Readonly<Record<string, string>> = {}): string {
  const b = new Builder(1024);
  const fieldVector = offsetVector(b, fields.map((f, k) => field(b, f, k)));
  const metadataVector = offsetVector(b, keyValues(b, metadata));
  b.startObject(4); // Schema { endianness, fields, custom_metadata, features }
  b.addFieldOffset(1, fieldVector, 0);
  b.addFieldOffset(2, metadataVector, 0);
  const schema = b.endObject();
  b.startObject(5); // Message { version, header_type, header, bodyLength, custom_metadata }
  b.addFieldInt16(0, METADATA_V5, 0);
  b.addFieldInt8(1, HEADER_SCHEMA, 0);
  b.addFieldOffset(2, schema, 0);
  const message = b.endObject();
  b.finish(message);
  const body = b.asUint8Array();
  // Encapsulated message: continuation marker, metadata length (padded to 8), the flatbuffer.
  const padded = (body.length + 7) & ~7;
  const out = new Uint8Array(8 + padded);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0xffffffff, true);
  view.setInt32(4, padded, true);
  out.set(body, 8);
  return Buffer.from(out).toString('base64');
}
