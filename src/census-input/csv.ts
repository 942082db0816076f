import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/**
 * Streaming CSV rows: one line at a time, so a 15,000-row × 200-column DataPack never sits in
 * memory as text. ABS files are plain RFC 4180 without embedded newlines; quoted fields (with
 * "" escapes) are handled, a quote-free line takes the fast path.
 */
export async function* readCsvRows(path: string): AsyncGenerator<{ row: number; fields: string[] }> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let row = 0;
  for await (const raw of lines) {
    row++;
    const line = row === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw; // BOM from Excel exports
    if (line.length === 0) continue;
    yield { row, fields: line.includes('"') ? splitQuoted(line) : line.split(',') };
  }
}

/** The fields of one CSV line (RFC 4180 quoting). */
export const parseCsvLine = (line: string): string[] => (line.includes('"') ? splitQuoted(line) : line.split(','));

function splitQuoted(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"') {
        if (line[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(field);
      field = '';
    } else field += ch;
  }
  out.push(field);
  return out;
}

/** One CSV field, quoted only when it must be. */
export function csvField(value: string | number): string {
  const s = String(value);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (values: readonly (string | number)[]): string => values.map(csvField).join(',') + '\n';
