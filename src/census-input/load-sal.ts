import type { CensusInputs, InputError, SuburbGeography } from '../synthesis/census/inputs.ts';
import { INPUT_TABLES } from '../synthesis/census/tables.ts';
import type { TableSpec } from '../synthesis/census/table-spec.ts';
import { figureFromParents, tableFromParents, type WeightedParent } from '../synthesis/census/from-parents.ts';
import { bindings, externalWholes, ownFirst, partWholes, SOURCE, type AreaFigures, type PartWhole, type TableSources } from '../synthesis/census/own-cells.ts';
import { err, ok, type Result } from '../core/result.ts';
import { isNonSpatialSal, salKey } from './asgs.ts';
import { realSals } from './asgs-reference.ts';
import { loadSuburbs2016 } from './correspondences-2016.ts';
import { loadDataPackTable, loadDataPackTables, readDataPackPart, type LoadedTable, type TableLoadOptions, type TableSource } from './datapack.ts';
import { dataPackKeyColumn } from './file-names.ts';
import { GCP_PART_HEADERS } from '../synthesis/census/gcp/layout.generated.ts';
import { gcpColumns, gcpTableOf, gcpVocabulary } from '../synthesis/census/gcp/cells.ts';
import { GCP_TABLE_POPULATIONS } from '../synthesis/census/gcp/populations.generated.ts';
import type { FoundPart, InputIndex } from './file-index.ts';
import { linkSuburbs2016 } from './sal-links.ts';

type Parts = ReadonlyMap<string, readonly FoundPart[]>;

/** Each universe's size: what a parent's table is scaled by (tables every level publishes whole). */
const SIZE_TABLE = { persons: 'G14', families: 'G29', dwellings: 'G35' } as const;

const hasAllParts = (parts: Parts | undefined, spec: TableSpec) => spec.files.every((f) => (parts?.get(f) ?? []).length > 0);

/** The codes with a row in a level's file of `part` (its first file per state). */
async function codesIn(parts: Parts | undefined, part: string, level: string, key: (raw: string) => string | null): Promise<Set<string> | undefined> {
  const files = parts?.get(part);
  if (!files || files.length === 0) return undefined;
  const codes = new Set<string>();
  for (const found of files) {
    const read = await readDataPackPart(found.path, part, { keyColumn: dataPackKeyColumn(level), headers: [], key: (raw) => key(raw) });
    if (read.ok) for (const k of read.value.keys) codes.add(k);
  }
  return codes;
}

const sa2Key = (raw: string) => (/^\d{9}$/.test(raw.trim()) ? raw.trim() : null);
const poaKey = (raw: string) => {
  const m = /^(?:POA)?(\d{4})$/.exec(raw.trim());
  return m ? m[1]! : null;
};
const salRowKey = (raw: string) => {
  const sal = salKey(raw);
  return sal && !isNonSpatialSal(sal) ? sal : null;
};

/** A parent level's tables for the areas suburbs lie in: SA2s by code, postal areas by postcode. */
async function parentTables(parts: Parts | undefined, level: 'SA2' | 'POA', needed: ReadonlySet<string>, specs: readonly TableSpec[], options: TableLoadOptions) {
  const out = new Map<string, LoadedTable>();
  const problems: InputError[] = [];
  if (!parts) return { tables: out, problems };
  const key = level === 'SA2' ? sa2Key : poaKey;
  const source: TableSource = { level, parts, keyColumn: dataPackKeyColumn(level), key: (raw) => { const k = key(raw); return k !== null && needed.has(k) ? k : null; }, areas: needed, areasFrom: 'the suburbs\' parents' };
  for (const spec of specs) {
    if (!hasAllParts(parts, spec)) continue;
    const loaded = await loadDataPackTable(source, spec, options);
    if (loaded.ok) out.set(spec.id, loaded.value);
    else problems.push(...loaded.error);
  }
  return { tables: out, problems };
}

/** The parents of one suburb with their weights: its SA2s, and its postcodes for the share no 2021 SA2 holds (all of it without an SA2 pack). */
function parentsOf(suburb: SuburbGeography, haveSa2: boolean, havePoa: boolean): { level: 'SA2' | 'POA'; code: string; weight: number }[] {
  const sa2s = haveSa2 ? (suburb.sa2s ?? []) : [];
  const inSa2 = sa2s.reduce((a, s) => a + s.ratio, 0);
  const rest = havePoa ? Math.max(0, 1 - inSa2) : 0;
  return [
    ...sa2s.map((s) => ({ level: 'SA2' as const, code: s.code, weight: s.ratio })),
    ...(rest > 1e-9 ? suburb.postcodes.map((p) => ({ level: 'POA' as const, code: p.code, weight: rest * p.ratio })) : []),
  ];
}

/**
 * A suburb build from what an operator has without the 2021 ASGS allocation files: the SAL part
 * files present, the SA2 and POA packs (the suburbs' parents), and the ABS 2016 correspondences.
 * Suburbs are 2021's (every SAL with a row in the pack, named from the ABS geography
 * descriptors), linked to their SA2s, postcodes and LGAs through the correspondences
 * (linkSuburbs2016). A table whose every part file is in the SAL pack is the suburb's own; every
 * other table is taken from its parents, weighted by the share of the suburb's people in each and
 * scaled to the suburb's own size (persons G14, families G29, dwellings G35). Every link that
 * fails is a line of the report, never an abort.
 */
export async function loadSalFromParents(index: InputIndex, options: TableLoadOptions, published: CensusInputs['parents']): Promise<Result<CensusInputs, InputError[]>> {
  const salParts = index.dataPack.get('SAL');
  const sizeSpecs = Object.values(SIZE_TABLE).map((id) => INPUT_TABLES.find((t) => t.id === id)!);
  const missingSize = sizeSpecs.filter((s) => !hasAllParts(salParts, s));
  if (missingSize.length > 0)
    return err(missingSize.map((s) => ({ file: `2021Census_${s.files[0]}_AUST_SAL.csv`, message: `a suburb build needs the suburbs' own ${s.id} (their size, which the tables taken from parents are scaled to); it is missing from the input directory` })));
  const inPack = (await codesIn(salParts, 'G14', 'SAL', salRowKey))!;
  const notes: string[] = [];
  const reference = realSals().filter((s) => inPack.has(s.code));
  const unknown = [...inPack].filter((c) => !reference.some((s) => s.code === c));
  if (unknown.length > 0) notes.push(`SAL pack: ${unknown.length} codes not among the ABS 2021 suburbs (${unknown.slice(0, 5).join(', ')}): left out`);

  const sa2Parts = index.dataPack.get('SA2');
  const poaParts = index.dataPack.get('POA');
  const sa2Codes = await codesIn(sa2Parts, 'G01', 'SA2', sa2Key);
  const poaCodes = await codesIn(poaParts, 'G01', 'POA', poaKey);
  const old = await loadSuburbs2016(index.byName);
  if (!old.ok) return err(old.error);
  const links = linkSuburbs2016(reference, old.value, { ...(sa2Codes ? { sa2: sa2Codes } : {}), ...(poaCodes ? { poa: poaCodes } : {}) });
  notes.push(...links.notes);
  const leftOut = [...links.leftOut, ...unknown.map((c) => ({ area: c, reason: 'not a suburb of the ABS 2021 geography descriptors' }))];
  const suburbs = links.suburbs;
  const areas = new Set(suburbs.map((s) => s.salCode));

  const own = INPUT_TABLES.filter((spec) => hasAllParts(salParts, spec));
  const derived = INPUT_TABLES.filter((spec) => !hasAllParts(salParts, spec));
  if (!sa2Parts && !poaParts && derived.length > 0) return err([{ file: 'SA2 and POA DataPacks', message: `the SAL pack lacks ${derived.map((d) => d.id).join(', ')} and neither the SA2 nor the POA pack is there to take them from` }]);
  notes.push(`SAL tables: ${own.length} of ${INPUT_TABLES.length} input tables are the suburbs' own (${own.map((s) => s.id).join(', ')}); ${derived.length} taken from their SA2s${poaParts ? ' and postcodes' : ''} (${derived.map((s) => s.id).join(', ')})`);
  for (const [level, parts] of [['SA2', sa2Parts], ['POA', poaParts]] as const) {
    if (!parts) notes.push(`${level} pack: not in the inputs; ${level === 'SA2' ? 'postcodes carry every derived table' : 'a split SA2\'s share is left out of the derived tables'}`);
    else {
      const lacking = derived.filter((spec) => !hasAllParts(parts, spec)).map((s) => s.id);
      if (lacking.length > 0) notes.push(`${level} pack: lacks part files of ${lacking.join(', ')}; those tables come from the other parent level`);
    }
  }

  const salSource: TableSource = { level: 'SAL', parts: salParts!, keyColumn: dataPackKeyColumn('SAL'), key: (raw) => { const k = salRowKey(raw); return k !== null && areas.has(k) ? k : null; }, areas, areasFrom: 'the suburbs linked' };
  const { tables, totals, aggregates, problems } = await loadDataPackTables(salSource, own, options);
  const wanted = [...derived, ...sizeSpecs];
  const neededSa2 = new Set(suburbs.flatMap((s) => (s.sa2s ?? []).map((a) => a.code)));
  const neededPoa = new Set(suburbs.flatMap((s) => s.postcodes.map((p) => p.code)));
  const sa2 = await parentTables(sa2Parts, 'SA2', neededSa2, wanted, options);
  const poa = await parentTables(poaParts, 'POA', neededPoa, wanted, options);
  problems.push(...sa2.problems, ...poa.problems);
  if (problems.length > 0) return err(problems);
  deriveTables(suburbs, derived, { SA2: sa2.tables, POA: poa.tables }, { tables, totals, aggregates });
  const into = { tables, totals, aggregates };
  const relations = new Map(derived.map((spec) => [spec.id, partWholes(spec, [...areas].flatMap((a) => figuresOf(into, spec.id, a) ?? []))]));
  const sources = new Map<string, TableSources>(own.map((spec) => [spec.id, { cells: new Uint8Array(spec.cells.length), others: new Uint8Array(spec.otherCells.length) }]));
  // The tables as taken from parents, before any own figure: what a table of part of the people is proportioned by.
  const fromParents = new Map(derived.map((spec) => [spec.id, new Map([...areas].flatMap((a) => { const f = figuresOf(into, spec.id, a); return f ? [[a, { cells: f.cells.slice(), others: f.others.slice() }] as const] : []; }))]));
  const ownParts = await overlayOwnParts(salParts!, derived, areas, into, sources);
  if (!ownParts.ok) return err(ownParts.error);
  if (ownParts.value.length > 0) notes.push(`SAL part files of tables otherwise taken from parents: ${ownParts.value.join(', ')}; the suburbs' own cells of these bind them, their parents' shares only fill what those leave open`);
  const extra = await readSourceTables(salParts!, areas);
  if (!extra.ok) return err(extra.error);
  if (extra.value.specs.length > 0)
    notes.push(`SAL part files of tables spq does not fit, read as the suburbs' own figures that bind the tables taken from parents: ${extra.value.specs.map((t) => `${t.files.join('+')} (${t.otherCells.length} columns)`).join(', ')}`);
  const figureSources = ownFirstTables(derived, suburbs, into, sources, relations, fromParents, extra.value);
  notes.push(...sourceNotes(figureSources));
  return ok({ level: 'sal', suburbs, tables, totals, aggregates, parents: published, derivedTables: new Set(derived.map((d) => d.id)), figureSources, notes, leftOut });
}

type Loaded = ReadonlyMap<string, LoadedTable>;
type Into = { tables: Map<string, ReadonlyMap<string, Float64Array>>; totals: Map<string, ReadonlyMap<string, number>>; aggregates: Map<string, ReadonlyMap<string, Float64Array>> };

/**
 * Where the SAL pack holds some part files of a table taken from parents (G04B of G04A + G04B),
 * the suburbs' own cells of those parts replace the parents' estimate: a suburb gets real figures
 * wherever the ABS publishes them. Returns the parts used.
 */
async function overlayOwnParts(salParts: Parts, derived: readonly TableSpec[], areas: ReadonlySet<string>, into: Into, sources: Map<string, TableSources>): Promise<Result<string[], InputError[]>> {
  const used: string[] = [];
  for (const spec of derived) {
    const source: TableSources = { cells: new Uint8Array(spec.cells.length).fill(SOURCE.derived), others: new Uint8Array(spec.otherCells.length).fill(SOURCE.derived) };
    sources.set(spec.id, source);
    for (const part of spec.files) {
      const files = salParts.get(part) ?? [];
      if (files.length === 0) continue;
      const listed = new Set(GCP_PART_HEADERS[part] ?? []);
      const cellAt = new Map(spec.cells.map((c, i) => [c.header, i] as const).filter(([h]) => listed.has(h)));
      const aggregateAt = new Map(spec.otherHeaders.map((h, i) => [h, i] as const).filter(([h]) => listed.has(h)));
      const total = spec.totalHeader && listed.has(spec.totalHeader) ? spec.totalHeader : undefined;
      const headers = [...new Set([...cellAt.keys(), ...aggregateAt.keys(), ...(total ? [total] : [])])];
      if (headers.length === 0) continue;
      for (const i of cellAt.values()) source.cells[i] = SOURCE.own;
      for (const i of aggregateAt.values()) source.others[i] = SOURCE.own;
      for (const found of files) {
        const read = await readDataPackPart(found.path, part, { keyColumn: dataPackKeyColumn('SAL'), headers, key: (raw) => { const k = salRowKey(raw); return k !== null && areas.has(k) ? k : null; } });
        if (!read.ok) return err([read.error]);
        const at = new Map(read.value.headers.map((h, i) => [h, i]));
        for (const [area, values] of read.value.rows) {
          const cells = into.tables.get(spec.id)?.get(area);
          const aggregates = into.aggregates.get(spec.id)?.get(area);
          for (const [h, i] of cellAt) if (cells) cells[i] = values[at.get(h)!]!;
          for (const [h, i] of aggregateAt) if (aggregates) aggregates[i] = values[at.get(h)!]!;
          if (total) (into.totals.get(spec.id) as Map<string, number> | undefined)?.set(area, values[at.get(total)!]!);
        }
      }
      used.push(part);
    }
  }
  return ok(used);
}

const figuresOf = (into: Into, tableId: string, area: string): AreaFigures | undefined => {
  const cells = into.tables.get(tableId)?.get(area);
  const others = into.aggregates.get(tableId)?.get(area);
  return cells && others ? { cells, others } : undefined;
};

/**
 * Each table taken wholly or partly from parents, with the suburb's own figures first
 * (census/own-cells.ts): figures that are sums of its own figures of another table bound to
 * them, the rest rescaled to what the own and bound figures leave. Returns each table's sources
 * (own, bound, derived), the same for every suburb of the pack.
 */
function ownFirstTables(
  derived: readonly TableSpec[],
  suburbs: readonly SuburbGeography[],
  into: Into,
  sources: ReadonlyMap<string, TableSources>,
  relations: ReadonlyMap<string, PartWhole[]>,
  fromParents: ReadonlyMap<string, ReadonlyMap<string, AreaFigures>>,
  extra: SourceTables,
): Map<string, TableSources> {
  const out = new Map(sources);
  const allSources = new Map([...sources, ...extra.specs.map((t) => [t.id, { cells: new Uint8Array(0), others: new Uint8Array(t.otherCells.length) }] as const)]);
  const specs = [...INPUT_TABLES, ...extra.specs];
  const resolved = new Set<string>();
  // The table of the finest ages first (G04), then those with the most own figures: the age and
  // sex margins each settles bind the tables after it.
  const ownCount = (spec: TableSpec) => [...sources.get(spec.id)!.cells, ...sources.get(spec.id)!.others].filter((s) => s === SOURCE.own).length;
  const ages = (spec: TableSpec) => new Set([...spec.cells, ...spec.otherCells].map((c) => `${c.age?.[0]}-${c.age?.[1]}`)).size;
  for (const spec of [...derived].sort((a, b) => ages(b) - ages(a) || ownCount(b) - ownCount(a))) {
    const source = sources.get(spec.id)!;
    const byTable = bindings(spec, specs, allSources, resolved);
    const externals = externalWholes(spec, specs, allSources);
    const hasOwn = byTable.size > 0 || externals.length > 0 || source.cells.some((s) => s === SOURCE.own) || source.others.some((s) => s === SOURCE.own);
    if (!hasOwn) continue;
    const totalAt = spec.totalHeader ? spec.otherHeaders.indexOf(spec.totalHeader) : -1;
    const cells = new Map(into.tables.get(spec.id));
    const others = new Map(into.aggregates.get(spec.id));
    const totals = new Map(into.totals.get(spec.id));
    for (const suburb of suburbs) {
      const area = figuresOf(into, spec.id, suburb.salCode);
      if (!area) continue;
      const { figures } = ownFirst(spec, area, source, relations.get(spec.id) ?? [], byTable, (id) => figuresOf(into, id, suburb.salCode) ?? extra.figures.get(id)?.get(suburb.salCode), externals, (id) => fromParents.get(id)?.get(suburb.salCode));
      cells.set(suburb.salCode, figures.cells);
      others.set(suburb.salCode, figures.others);
      if (totalAt >= 0) totals.set(suburb.salCode, figures.others[totalAt]!);
    }
    into.tables.set(spec.id, cells);
    into.aggregates.set(spec.id, others);
    if (totalAt >= 0) into.totals.set(spec.id, totals);
    resolved.add(spec.id);
    const n = spec.cells.length;
    const marked = { cells: Uint8Array.from(source.cells), others: Uint8Array.from(source.others) };
    for (const w of byTable.keys()) (w < n ? marked.cells : marked.others)[w < n ? w : w - n] = SOURCE.bound;
    out.set(spec.id, marked);
  }
  return out;
}

/** A part of a table no input of the build whose columns the DataPack vocabulary reads (some of them): read at SAL to bind. */
const bindsOnly = (part: string, inputIds: ReadonlySet<string>) =>
  !inputIds.has(gcpTableOf(part)) && gcpVocabulary(gcpTableOf(part)) !== undefined && gcpColumns(part).some((c) => c.cell && c.cell.count !== 'members');

/** Every part file a suburb build reads where the SAL pack holds it: the input tables' and those read to bind (readSourceTables). */
export function salPartsRead(): string[] {
  const inputIds = new Set(INPUT_TABLES.map((t) => t.id));
  return [...new Set([...INPUT_TABLES.flatMap((t) => t.files), ...Object.keys(GCP_PART_HEADERS).filter((p) => bindsOnly(p, inputIds))])];
}

interface SourceTables {
  readonly specs: readonly TableSpec[];
  readonly figures: ReadonlyMap<string, ReadonlyMap<string, AreaFigures>>;
}

/**
 * The SAL part files of tables that are no input of the build (G20B's persons by age, G13E …)
 * whose columns the DataPack vocabulary reads (gcp/): every column a figure of the suburb's own,
 * not fitted, but binding the tables taken from parents where it counts the same people
 * (census/own-cells.ts). A table's spec holds its present parts' columns as totals and
 * subtotals (no cells).
 */
async function readSourceTables(salParts: Parts, areas: ReadonlySet<string>): Promise<Result<SourceTables, InputError[]>> {
  const inputIds = new Set(INPUT_TABLES.map((t) => t.id));
  const specs: TableSpec[] = [];
  const figures = new Map<string, Map<string, AreaFigures>>();
  const byTable = new Map<string, string[]>();
  for (const part of [...salParts.keys()].sort()) {
    const id = gcpTableOf(part);
    if (bindsOnly(part, inputIds) && (salParts.get(part) ?? []).length > 0) byTable.set(id, [...(byTable.get(id) ?? []), part]);
  }
  for (const [id, parts] of byTable) {
    const vocabulary = gcpVocabulary(id)!;
    const columns = parts.flatMap((part) => gcpColumns(part).flatMap((c) => (c.cell && c.cell.count !== 'members' ? [{ part, cell: c.cell }] : [])));
    if (columns.length === 0) continue;
    const spec: TableSpec = {
      id,
      files: parts,
      universe: vocabulary.universe,
      population: { label: GCP_TABLE_POPULATIONS[id] ?? `all ${vocabulary.universe}`, where: vocabulary.where ?? {} },
      description: `${id} (SAL part files ${parts.join(', ')}; read to bind, not fitted)`,
      cells: [],
      otherHeaders: columns.map((c) => c.cell.header),
      otherCells: columns.map((c) => c.cell),
    };
    const byArea = new Map<string, AreaFigures>();
    for (const part of parts) {
      const headers = columns.filter((c) => c.part === part).map((c) => c.cell.header);
      if (headers.length === 0) continue;
      for (const found of salParts.get(part)!) {
        const read = await readDataPackPart(found.path, part, { keyColumn: dataPackKeyColumn('SAL'), headers, key: (raw) => { const k = salRowKey(raw); return k !== null && areas.has(k) ? k : null; } });
        if (!read.ok) return err([read.error]);
        const at = new Map(read.value.headers.map((h, i) => [h, i]));
        for (const [area, values] of read.value.rows) {
          let f = byArea.get(area);
          if (!f) byArea.set(area, (f = { cells: new Float64Array(0), others: new Float64Array(spec.otherCells.length).fill(Number.NaN) }));
          spec.otherHeaders.forEach((h, j) => at.has(h) && (f.others[j] = values[at.get(h)!]!));
        }
      }
    }
    specs.push(spec);
    figures.set(id, byArea);
  }
  return ok({ specs, figures });
}

/** One line per table that is not wholly the suburbs' own: its cells, and its totals and subtotals, own, bound to own (or own-first) figures of another table, and derived. */
function sourceNotes(sources: ReadonlyMap<string, TableSources>): string[] {
  const counts = (xs: Uint8Array) => [SOURCE.own, SOURCE.bound, SOURCE.derived].map((k) => xs.filter((v) => v === k).length);
  return [...sources].flatMap(([id, s]) => {
    const [own = 0, bound = 0, derived = 0] = counts(s.cells);
    const [ownT = 0, boundT = 0, derivedT = 0] = counts(s.others);
    if (derived + bound + derivedT + boundT === 0) return [];
    return [`${id}: cells ${own} own, ${bound} bound, ${derived} derived; totals and subtotals ${ownT} own, ${boundT} bound, ${derivedT} derived (bound: the sum of own or own-first figures of another table counting the same people; derived: the parents' shares rescaled to those)`];
  });
}

/** Every derived table of every suburb from its parents (cells, total and subtotals alike). */
function deriveTables(
  suburbs: readonly SuburbGeography[],
  derived: readonly TableSpec[],
  parents: { readonly SA2: Loaded; readonly POA: Loaded },
  into: { tables: Map<string, ReadonlyMap<string, Float64Array>>; totals: Map<string, ReadonlyMap<string, number>>; aggregates: Map<string, ReadonlyMap<string, Float64Array>> },
): void {
  for (const spec of derived) {
    const sizeId = SIZE_TABLE[spec.universe];
    const cells = new Map<string, Float64Array>();
    const totals = new Map<string, number>();
    const aggregates = new Map<string, Float64Array>();
    for (const suburb of suburbs) {
      const size = into.totals.get(sizeId)?.get(suburb.salCode) ?? 0;
      const weighted = parentsOf(suburb, parents.SA2.has(spec.id), parents.POA.has(spec.id)).flatMap((p) => {
        const table = parents[p.level].get(spec.id)!;
        const parentSize = parents[p.level].get(sizeId)?.totals.get(p.code) ?? 0;
        const c = table.cells.get(p.code);
        return c ? [{ weight: p.weight, size: parentSize, cells: c, total: table.totals.get(p.code) ?? 0, aggregates: table.aggregates.get(p.code)! }] : [];
      });
      cells.set(suburb.salCode, tableFromParents(weighted, size) ?? new Float64Array(spec.cells.length));
      aggregates.set(suburb.salCode, tableFromParents(weighted.map((w): WeightedParent => ({ ...w, cells: w.aggregates })), size, 'each') ?? new Float64Array(spec.otherHeaders.length));
      if (spec.totalHeader) totals.set(suburb.salCode, figureFromParents(weighted.map((w) => ({ weight: w.weight, size: w.size, value: w.total })), size));
    }
    into.tables.set(spec.id, cells);
    into.aggregates.set(spec.id, aggregates);
    if (spec.totalHeader) into.totals.set(spec.id, totals);
  }
}
