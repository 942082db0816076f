/**
 * Parquet's RLE / bit-packing hybrid (parquet-format Encodings.md): runs of 8 or more equal
 * values as one RLE run, the rest bit-packed in groups of 8, least significant bit first.
 * Dictionary codes of a sampled file are mostly bit-packed (records vary), but sorted columns
 * (suburb_code, the selection, the hierarchy) and definition levels are long runs.
 */

/** The fewest bits that hold every value below `count` (0 for a single value). */
export const bitWidthOf = (count: number): number => (count <= 1 ? 0 : 32 - Math.clz32(count - 1));

/** Largest bit-packed run: 63 groups of 8 values (its header then fits one varint byte). */
const MAX_GROUPS = 63;

export class HybridEncoder {
  #out: Uint8Array;
  #length = 0;
  constructor(capacity: number) {
    this.#out = new Uint8Array(capacity);
  }

  #ensure(extra: number): void {
    if (this.#length + extra <= this.#out.length) return;
    const grown = new Uint8Array(Math.max(this.#out.length * 2, this.#length + extra));
    grown.set(this.#out.subarray(0, this.#length));
    this.#out = grown;
  }

  #varint(n: number): void {
    while (n >= 0x80) {
      this.#out[this.#length++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.#out[this.#length++] = n;
  }

  /** values[from, from + count) bit-packed, padded with zeros to whole groups of 8. */
  #packed(values: Uint16Array, from: number, count: number, width: number): void {
    const groups = Math.ceil(count / 8);
    this.#ensure(5 + groups * width);
    this.#varint((groups << 1) | 1);
    const out = this.#out;
    let p = this.#length;
    let acc = 0;
    let bits = 0;
    const end = from + count;
    for (let i = from; i < end; i++) {
      acc |= values[i]! << bits;
      bits += width;
      while (bits >= 8) {
        out[p++] = acc & 0xff;
        acc >>>= 8;
        bits -= 8;
      }
    }
    // The last group padded with zeros (only the last run of a page can end short of 8).
    for (let i = end; i < from + groups * 8; i++) {
      bits += width;
      while (bits >= 8) {
        out[p++] = acc & 0xff;
        acc >>>= 8;
        bits -= 8;
      }
    }
    this.#length = p;
  }

  #run(value: number, count: number, width: number): void {
    this.#ensure(10);
    this.#varint(count << 1);
    for (let b = 0; b < width; b += 8) this.#out[this.#length++] = (value >>> b) & 0xff;
  }

  /**
   * Encodes values[0, count) at `width` bits each, after what was encoded before, and returns
   * all the bytes so far (a view: valid until the next call).
   */
  encode(values: Uint16Array, count: number, width: number): Uint8Array {
    let literalFrom = 0;
    let i = 0;
    while (i < count) {
      const v = values[i]!;
      // A run of 8 from here needs the 8th value equal: most positions of varied codes fail at once.
      if (values[i + 7] !== v || i + 7 >= count) {
        i++;
        continue;
      }
      let j = i + 1;
      while (j < count && values[j] === v) j++;
      // A run of 8 or more (after topping the literals up to whole groups) goes as one RLE run.
      const topUp = (8 - ((i - literalFrom) & 7)) & 7;
      if (j - i - topUp >= 8) {
        const runFrom = i + topUp;
        for (let from = literalFrom; from < runFrom; from += MAX_GROUPS * 8) this.#packed(values, from, Math.min(MAX_GROUPS * 8, runFrom - from), width);
        this.#run(v, j - runFrom, width);
        literalFrom = j;
      }
      i = j;
    }
    for (let from = literalFrom; from < count; from += MAX_GROUPS * 8) this.#packed(values, from, Math.min(MAX_GROUPS * 8, count - from), width);
    return this.#out.subarray(0, this.#length);
  }

  reset(): void {
    this.#length = 0;
  }
}
