/**
 * A csv result read into a labelled table: rows of text keyed by column (ids and postcodes stay
 * text, leading zeros kept), and for every coded column its levels in the dictionary's order and
 * its measurement level: ordinal columns (levels low to high) rank their values, nominal ones
 * (sex, birthplace, occupation …) have no order. Like the
 * Python and R readers, the dictionary's missing-value codes ("Not stated", "Not applicable",
 * "Partial income stated", …) become null and are left out of the levels, so that sorting by
 * `rank` or taking a maximum never lands on non-response; `missing: 'keep'` keeps them as values
 * (and appends them to the levels, after the substantive ones).
 */

/** The part of a dictionary (the csv's `dictionary_url`) the table needs. */
export interface Dictionary {
  readonly variables?: ReadonlyArray<{
    readonly code: string;
    readonly categories: readonly string[];
    readonly coarse_column?: string;
    readonly coarse_categories?: readonly string[];
    readonly missing?: MissingCodes;
    /** "ordinal": the categories run low to high; "nominal": no order (absent on servers before measurement levels: nominal). */
    readonly measurement?: Measurement;
  }>;
  readonly linked_variables?: ReadonlyArray<{
    readonly column: string;
    readonly code?: string;
    readonly categories: readonly string[];
    readonly missing?: MissingCodes;
    readonly measurement?: Measurement;
  }>;
  readonly version?: string;
  readonly fitted_to?: string;
}

export type Measurement = 'nominal' | 'ordinal';

interface MissingCodes {
  readonly not_applicable?: readonly string[];
  readonly non_response?: readonly string[];
  readonly partial_response?: readonly string[];
}

export interface Table {
  readonly columns: readonly string[];
  /** One object per record; a missing value (empty cell, or a missing-value code unless kept) is null. */
  readonly rows: ReadonlyArray<Readonly<Record<string, string | null>>>;
  /** Coded column → its levels in order (the substantive ones; with missing: 'keep', the missing codes after them). */
  readonly levels: Readonly<Record<string, readonly string[]>>;
  /** Coded column → the dictionary's missing-value codes. */
  readonly missingCodes: Readonly<Record<string, readonly string[]>>;
  /** Coded column → its measurement level: only ordinal columns have an order (levels low to high). */
  readonly measurement: Readonly<Record<string, Measurement>>;
  /**
   * The position of a value among an ordinal column's levels (0 = lowest), or undefined for
   * null, a nominal column (sex, birthplace … have no order) or an uncoded column.
   */
  rank(column: string, value: string | null | undefined): number | undefined;
}

/** RFC 4180 csv (quoted fields, doubled quotes, CRLF or LF) into rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a byte-order mark is not part of the first header
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** Column → [categories in order, missing-value codes] for every coded column the dictionary describes. */
type CodedColumn = { categories: readonly string[]; missing: readonly string[]; measurement: Measurement };

function codedColumns(dictionary: Dictionary): Map<string, CodedColumn> {
  const codesOf = (m: MissingCodes | undefined): string[] => [...(m?.not_applicable ?? []), ...(m?.non_response ?? []), ...(m?.partial_response ?? [])];
  const out = new Map<string, CodedColumn>();
  const byCode = new Map<string, CodedColumn>();
  for (const v of dictionary.variables ?? []) {
    const spec: CodedColumn = { categories: v.categories, missing: codesOf(v.missing), measurement: v.measurement ?? 'nominal' };
    byCode.set(v.code, spec);
    out.set(v.code, spec);
    if (v.coarse_column && v.coarse_categories) out.set(v.coarse_column, { ...spec, categories: v.coarse_categories });
  }
  for (const v of dictionary.linked_variables ?? []) {
    const own = codesOf(v.missing);
    const variable = byCode.get(v.code ?? '');
    out.set(v.column, { categories: v.categories, missing: own.length > 0 ? own : (variable?.missing ?? []), measurement: v.measurement ?? variable?.measurement ?? 'nominal' });
  }
  return out;
}

/** A csv result (its text) and its dictionary as a labelled Table. */
export function readTable(csv: string, dictionary: Dictionary, options: { missing?: 'na' | 'keep' } = {}): Table {
  const keep = options.missing === 'keep';
  const [header = [], ...body] = parseCsv(csv).filter((r) => !(r.length === 1 && r[0] === ''));
  const coded = codedColumns(dictionary);
  const levels: Record<string, readonly string[]> = {};
  const missingCodes: Record<string, readonly string[]> = {};
  const measurement: Record<string, Measurement> = {};
  const missingSets = new Map<string, Set<string>>();
  for (const column of header) {
    const spec = coded.get(column);
    if (!spec) continue;
    const missing = new Set(spec.missing);
    const substantive = spec.categories.filter((c) => !missing.has(c));
    levels[column] = keep ? [...substantive, ...spec.categories.filter((c) => missing.has(c))] : substantive;
    missingCodes[column] = spec.missing;
    measurement[column] = spec.measurement;
    if (!keep) missingSets.set(column, missing);
  }
  const rows = body.map((fields) => {
    const row: Record<string, string | null> = {};
    header.forEach((column, i) => {
      const value = fields[i] ?? '';
      row[column] = value === '' || missingSets.get(column)?.has(value) ? null : value;
    });
    return row;
  });
  const ordinal = Object.entries(levels).filter(([column]) => measurement[column] === 'ordinal');
  const positions = new Map(ordinal.map(([column, values]) => [column, new Map(values.map((v, i) => [v, i]))]));
  return {
    columns: header,
    rows,
    levels,
    missingCodes,
    measurement,
    rank: (column, value) => (value === null || value === undefined ? undefined : positions.get(column)?.get(value)),
  };
}
