/**
 * A csv result read into a labelled table: rows of text keyed by column (ids and postcodes stay
 * text, leading zeros kept), and for every coded column its levels in the dictionary's order and
 * its measurement level: ordinal columns (levels low to high) rank their values, nominal ones
 * (sex, birthplace, occupation …) have no order. Like the
 * Python and R readers, the dictionary's missing-value codes ("Not stated", "Not applicable",
 * "Partial income stated", …) become null and are left out of the levels, so that sorting by
 * `rank` or taking a maximum never lands on non-response; `missing: 'keep'` keeps them as values
 * (and appends them to the levels, after the substantive ones). Files of both shapes read alike:
 * those whose coded column C is empty where the value is missing, with a `C_missing` column naming
 * the missing code (docs/api.md), and those written before, with the missing codes in C. Joined
 * columns (family_*, dwelling_*) read as the record's own variables do.
 */

interface VariableEntry {
  readonly code: string;
  readonly description?: string;
  readonly categories: readonly string[];
  readonly coarse_column?: string;
  readonly coarse_categories?: readonly string[];
  readonly missing?: MissingCodes;
  /** The column naming the missing code of each record whose value is missing (absent in files before it). */
  readonly missing_column?: string;
  /** "ordinal": the categories run low to high; "nominal": no order (absent on servers before measurement levels: nominal). */
  readonly measurement?: Measurement;
}

/** The part of a dictionary (the csv's `dictionary_url`) the table needs. */
export interface Dictionary {
  readonly variables?: readonly VariableEntry[];
  /** Joined columns of linked records: their variable's full dictionary (files before it: categories and measurement only). */
  readonly linked_variables?: ReadonlyArray<Omit<VariableEntry, 'code'> & { readonly column: string; readonly code?: string }>;
  /** Every column of the file with what it holds. */
  readonly columns?: ReadonlyArray<{ readonly name: string; readonly kind?: string; readonly description?: string }>;
  /** What the file says of itself (query_id, seed, implicate, version, fitted_to, …), as text. */
  readonly metadata?: Readonly<Record<string, string>>;
  readonly version?: string;
  /** The sentence saying what the pools were fitted to ("census: …" or "demo: …"). */
  readonly fitted_to?: string;
}

export type Measurement = 'nominal' | 'ordinal';

interface MissingCodes {
  readonly not_applicable?: readonly string[];
  readonly non_response?: readonly string[];
  readonly partial_response?: readonly string[];
}

/** Where a table's records come from: what reproduces the file (the same query with this seed and implicate). */
export interface Provenance {
  readonly query_id: string;
  readonly seed: string;
  readonly implicate: number;
  readonly release_version: string;
  /** "census" or "demo". */
  readonly fitted_to?: string;
  /** The dictionary's sentence saying what the pools were fitted to. */
  readonly fitted_to_text?: string;
}

export interface Table {
  readonly columns: readonly string[];
  /** One object per record; a missing value (empty cell, or a missing-value code unless kept) is null. */
  readonly rows: ReadonlyArray<Readonly<Record<string, string | null>>>;
  /** Coded column → its levels in order (the substantive ones; with missing: 'keep', the missing codes after them); a C_missing column → its missing codes. */
  readonly levels: Readonly<Record<string, readonly string[]>>;
  /** Coded column → the dictionary's missing-value codes. */
  readonly missingCodes: Readonly<Record<string, readonly string[]>>;
  /** Coded column → its measurement level: only ordinal columns have an order (levels low to high); C_missing columns are nominal. */
  readonly measurement: Readonly<Record<string, Measurement>>;
  /** Column → what it holds (the dictionary's descriptions): the variable labels. */
  readonly labels: Readonly<Record<string, string>>;
  /** Where the records come from, as far as the dictionary says (a csv's dictionary says it all). */
  readonly provenance: Partial<Provenance>;
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

/** A coded column: its categories in order, missing-value codes, measurement, and the column naming its missing codes. */
type CodedColumn = { categories: readonly string[]; missing: readonly string[]; measurement: Measurement; reason?: string };

/** The ABS labels of missing-value codes as the server classifies them (src/synthesis/census/missing-codes.ts), for linked variables whose dictionary lists none (files before they carried it). */
const MISSING_LABEL =
  /^(not applicable|not allocated|not stated|all incomes not stated|landlord type not stated|inadequately described\/not stated|level of education inadequately described|partial income stated)$|labour force status not stated/i;

const codesOf = (m: MissingCodes | undefined): string[] => [...(m?.not_applicable ?? []), ...(m?.non_response ?? []), ...(m?.partial_response ?? [])];

function codedColumns(dictionary: Dictionary): Map<string, CodedColumn> {
  const out = new Map<string, CodedColumn>();
  const byCode = new Map((dictionary.variables ?? []).map((v) => [v.code, v]));
  const linked = (dictionary.linked_variables ?? []).map((v): VariableEntry => {
    const own = byCode.get(v.code ?? '');
    const missing = codesOf(v.missing).length > 0 ? v.missing : codesOf(own?.missing).length > 0 ? own?.missing : { non_response: v.categories.filter((c) => MISSING_LABEL.test(c.trim())) };
    const measurement = v.measurement ?? own?.measurement;
    return { ...v, code: v.column, ...(missing ? { missing } : {}), ...(measurement ? { measurement } : {}) };
  });
  for (const v of [...(dictionary.variables ?? []), ...linked]) {
    const spec: CodedColumn = { categories: v.categories, missing: codesOf(v.missing), measurement: v.measurement ?? 'nominal', ...(v.missing_column ? { reason: v.missing_column } : {}) };
    out.set(v.code, spec);
    if (v.coarse_column && v.coarse_categories) out.set(v.coarse_column, { ...spec, categories: v.coarse_categories });
  }
  return out;
}

/** Column → description: every column the dictionary lists, else its variables'. */
function labelsOf(dictionary: Dictionary): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const v of dictionary.variables ?? []) if (v.description) labels[v.code] = v.description;
  for (const v of dictionary.linked_variables ?? []) if (v.description) labels[v.column] = v.description;
  for (const c of dictionary.columns ?? []) if (c.description) labels[c.name] = c.description;
  return labels;
}

/** What the dictionary says of the file's provenance (its `metadata`, a csv's; its fitted_to sentence). */
export function dictionaryProvenance(dictionary: Dictionary): Partial<Provenance> {
  const meta = dictionary.metadata ?? {};
  const sentence = dictionary.fitted_to;
  const code = sentence?.split(':')[0]?.trim();
  const found: Record<string, string | number | undefined> = {
    query_id: meta['query_id'],
    seed: meta['seed'],
    implicate: meta['implicate'] !== undefined ? Number(meta['implicate']) : undefined,
    release_version: meta['version'] ?? dictionary.version,
    fitted_to: meta['fitted_to'] ?? (code === 'census' || code === 'demo' ? code : undefined),
    fitted_to_text: sentence,
  };
  return Object.fromEntries(Object.entries(found).filter(([, v]) => v !== undefined)) as Partial<Provenance>;
}

/** Coded column → its C_missing column, where the file has one (named by the dictionary, else by its name). */
function reasonColumns(coded: Map<string, CodedColumn>, header: readonly string[]): Map<string, string> {
  const present = new Set(header);
  const out = new Map<string, string>();
  for (const [column, spec] of coded) {
    const reason = spec.reason ?? `${column}_missing`;
    if (present.has(reason) && spec.missing.length > 0) out.set(column, reason);
  }
  return out;
}

/** A csv result (its text) and its dictionary as a labelled Table. */
export function readTable(csv: string, dictionary: Dictionary, options: { missing?: 'na' | 'keep' } = {}): Table {
  const keep = options.missing === 'keep';
  const [header = [], ...body] = parseCsv(csv).filter((r) => !(r.length === 1 && r[0] === ''));
  const coded = codedColumns(dictionary);
  const reasonOf = reasonColumns(coded, header);
  const reasons = new Map([...reasonOf].map(([column, reason]) => [reason, coded.get(column)!.missing]));
  const levels: Record<string, readonly string[]> = {};
  const missingCodes: Record<string, readonly string[]> = {};
  const measurement: Record<string, Measurement> = {};
  const missingSets = new Map<string, Set<string>>();
  for (const column of header) {
    const reasonCodes = reasons.get(column);
    if (reasonCodes) {
      levels[column] = reasonCodes;
      measurement[column] = 'nominal';
      continue;
    }
    const spec = coded.get(column);
    if (!spec) continue;
    const missing = new Set(spec.missing);
    const substantive = spec.categories.filter((c) => !missing.has(c));
    levels[column] = keep ? [...substantive, ...spec.categories.filter((c) => missing.has(c))] : substantive;
    missingCodes[column] = spec.missing;
    measurement[column] = spec.measurement;
    if (!keep) missingSets.set(column, missing);
  }
  const position = new Map(header.map((column, i) => [column, i]));
  const rows = body.map((fields) => {
    const row: Record<string, string | null> = {};
    header.forEach((column, i) => {
      const reason = keep ? reasonOf.get(column) : undefined;
      const value = fields[i] || (reason !== undefined ? (fields[position.get(reason)!] ?? '') : '');
      row[column] = value === '' || missingSets.get(column)?.has(value) ? null : value;
    });
    return row;
  });
  const ordinal = Object.entries(levels).filter(([column]) => measurement[column] === 'ordinal');
  const positions = new Map(ordinal.map(([column, values]) => [column, new Map(values.map((v, i) => [v, i]))]));
  const labels = labelsOf(dictionary);
  return {
    columns: header,
    rows,
    levels,
    missingCodes,
    measurement,
    labels: Object.fromEntries(header.filter((c) => labels[c] !== undefined).map((c) => [c, labels[c]!])),
    provenance: dictionaryProvenance(dictionary),
    rank: (column, value) => (value === null || value === undefined ? undefined : positions.get(column)?.get(value)),
  };
}
