import { existsSync } from 'node:fs';
import { PACK_LEVEL, type AreaLevel, type CensusInputs, type InputError, type PublishedParents, type SuburbGeography } from '../synthesis/census/inputs.ts';
import { INPUT_TABLES } from '../synthesis/census/tables.ts';
import { err, ok, type Result } from '../core/result.ts';
import { STATE_BY_ABS_CODE } from '../census-names.ts';
import { loadGeography, isNonSpatialSal, salKey } from './asgs.ts';
import { gccsaOfSa2 } from './gccsa-reference.ts';
import { realParentLinks } from './sal-links-reference.ts';
import { realLgas, realPostcodes, realSa2s, type RealArea } from './asgs-reference.ts';
import { loadDataPackTable, loadDataPackTables, readDataPackPart, type TableLoadOptions, type TableSource } from './datapack.ts';
import { MB_ALLOCATION, RA_ALLOCATION, SAL_ALLOCATION, SAL_LGA_CORRESPONDENCE, SAL_POA_CORRESPONDENCE, dataPackFile, dataPackKeyColumn } from './file-names.ts';
import { hasSuburbs2016 } from './correspondences-2016.ts';
import { loadSalFromParents } from './load-sal.ts';
import { indexInputs, type FileIndex, type FoundPart, type InputIndex } from './file-index.ts';

const ASGS_FILES = [MB_ALLOCATION, SAL_ALLOCATION, RA_ALLOCATION, SAL_POA_CORRESPONDENCE, SAL_LGA_CORRESPONDENCE] as const;

/** "No usual address" and "Migratory – Offshore – Shipping" postal areas (9494, 9797), LGAs and SA2s (…9499, …9799). */
const isNonSpatialArea = (code: string): boolean => /(?:^POA9494|^POA9797|9499|9799)$/.test(code);

export interface CensusLoadOptions extends TableLoadOptions {
  /** The level whose tables are fitted (default "sal": suburbs, with the ASGS allocation files). */
  readonly level?: AreaLevel;
}

/** The part files every input table needs. */
const INPUT_PARTS: readonly string[] = [...new Set(INPUT_TABLES.flatMap((t) => t.files))];

/**
 * Everything the synthesizer needs from an input directory for one level: the areas (for
 * suburbs from the ASGS files; for SA2s, postal areas and LGAs from the DataPack's own rows and the
 * ABS geography descriptors the repository ships), one DataPack CSV per table part at that
 * level (an Australia-wide pack or every state's), and the states' and Australia's published
 * tables when their files are there. Files are found by name anywhere under `dir`, through
 * symbolic links. Every problem is reported in one run: each missing file, and each file's
 * first malformed thing (file, row and column).
 */
export async function loadCensusInputs(
  dir: string,
  onProgress?: (done: number, total: number, what: string) => void,
  options: CensusLoadOptions = {},
): Promise<Result<CensusInputs, InputError[]>> {
  if (!existsSync(dir)) return err([{ file: dir, message: 'input directory does not exist' }]);
  const level = options.level ?? 'sal';
  const index = await indexInputs(dir);
  if (level === 'sal' && !ASGS_FILES.every((f) => index.byName.has(f)) && hasSuburbs2016(index.byName)) {
    // No 2021 allocation files, but the 2016 correspondences: suburbs linked through them, tables the SAL pack lacks from their parents.
    onProgress?.(0, 2, 'geography');
    const parents = await loadPublishedParents(index, options);
    if (!parents.ok) return parents;
    const loaded = await loadSalFromParents(index, options, parents.value);
    onProgress?.(2, 2, 'done');
    return loaded;
  }
  const packLevel = PACK_LEVEL[level];
  const parts = index.dataPack.get(packLevel) ?? new Map<string, readonly FoundPart[]>();
  const problems: InputError[] = [];
  const missing = INPUT_PARTS.filter((p) => (parts.get(p) ?? []).length === 0);
  for (const part of missing) problems.push({ file: dataPackFile(part, packLevel), message: `${level.toUpperCase()} DataPack part ${part} is missing from the input directory` });

  const total = INPUT_TABLES.length + 2;
  onProgress?.(0, total, 'geography');
  const geography = level === 'sal' ? await loadSalGeography(index.byName) : await loadPackAreas(level, parts);
  if (!geography.ok) return err([...problems, ...geography.error]);
  if (missing.length > 0) return err(problems);
  const suburbs = geography.value;
  const areas = new Set(suburbs.map((s) => s.salCode));
  const areasFrom = level === 'sal' ? 'the ASGS files' : `the ${packLevel} G01 file, whose rows are the build's areas`;
  const source: TableSource = { level: packLevel, parts, keyColumn: dataPackKeyColumn(packLevel), key: areaKey(level), areas, areasFrom };
  let done = 1;
  const { tables, totals, aggregates, problems: tableProblems } = await loadDataPackTables(source, INPUT_TABLES, options, (spec) => onProgress?.(done++, total, spec.id));
  problems.push(...tableProblems);
  onProgress?.(done, total, 'states and Australia');
  const parents = await loadPublishedParents(index, options);
  if (!parents.ok) problems.push(...parents.error);
  if (problems.length > 0) return err(problems);
  onProgress?.(total, total, 'done');
  return ok({ level, suburbs, tables, totals, aggregates, parents: parents.ok ? parents.value : { states: new Map(), australia: undefined } });
}

/** Every ASGS file a suburb build reads, each missing one reported, then the allocation itself. */
async function loadSalGeography(files: FileIndex): Promise<Result<SuburbGeography[], InputError[]>> {
  const missing = ASGS_FILES.filter((f) => !files.has(f));
  if (missing.length > 0) return err(missing.map((file) => ({ file, message: 'required ASGS file is missing from the input directory (docs/inputs.md says where to download it)' })));
  const loaded = await loadGeography(files);
  return loaded.ok ? loaded : err([loaded.error]);
}

/** The row key of a level's DataPack files as an area code; non-spatial areas are skipped. */
function areaKey(level: AreaLevel): TableSource['key'] {
  if (level === 'sal')
    return (raw) => {
      const sal = salKey(raw);
      if (!sal) return { error: `not a SAL code: "${raw}"` };
      return isNonSpatialSal(sal) ? null : sal;
    };
  const prefix = PACK_LEVEL[level];
  // An SA2's code is its nine digits alone, as the ABS writes it; postal areas and LGAs carry their prefix.
  const [pattern, codePrefix] = level === 'sa2' ? [/^(\d{9})$/, ''] : level === 'poa' ? [/^(?:POA)?(\d{4})$/, prefix] : [/^(?:LGA)?(\d{5})$/, prefix];
  return (raw) => {
    const m = pattern.exec(raw.trim());
    if (!m) return { error: `not a ${prefix} code: "${raw}"` };
    const code = `${codePrefix}${m[1]}`;
    return isNonSpatialArea(code) ? null : code;
  };
}

const REFERENCE_AREAS: Readonly<Record<PackAreaLevel, { readonly areas: () => readonly RealArea[]; readonly word: string }>> = {
  sa2: { areas: realSa2s, word: 'an SA2' },
  poa: { areas: realPostcodes, word: 'a postal area' },
  lga: { areas: realLgas, word: 'an LGA' },
};
type PackAreaLevel = Exclude<AreaLevel, 'sal'>;

/**
 * The SA2s, postal areas or LGAs of an SA2, POA or LGA build: every area with a row in the
 * level's G01 file(s), named from the ABS geography descriptors (src/census-input/reference). A
 * row whose code the descriptors do not know is an error naming it.
 */
async function loadPackAreas(level: PackAreaLevel, parts: ReadonlyMap<string, readonly FoundPart[]>): Promise<Result<SuburbGeography[], InputError[]>> {
  const files = parts.get('G01') ?? [];
  if (files.length === 0) return ok([]); // reported as a missing part by the caller
  const reference = REFERENCE_AREAS[level];
  const known = new Map(reference.areas().map((a) => [a.code, a]));
  const key = areaKey(level);
  const codes: string[] = [];
  const problems: InputError[] = [];
  for (const found of files) {
    const file = found.path.split(/[\\/]/).at(-1)!;
    const read = await readDataPackPart(found.path, 'G01', {
      keyColumn: dataPackKeyColumn(PACK_LEVEL[level]),
      headers: [],
      key: (raw) => {
        const code = key(raw, file);
        if (code === null || typeof code !== 'string') return code;
        if (!known.has(code)) return { error: `${code} is not ${reference.word} of the ABS 2021 geography descriptors` };
        return code;
      },
    });
    if (!read.ok) problems.push(read.error);
    else codes.push(...read.value.keys);
  }
  if (problems.length > 0) return err(problems);
  const areas = [...new Set(codes)].sort().map((code) => known.get(code)!);
  return ok(level === 'poa' ? areas.map(postalArea) : level === 'sa2' ? areas.map(sa2Area) : lgaAreas(areas));
}

/**
 * A postal area's or SA2's real LGAs, postcodes, GCCSA and largest suburbs, from its suburbs'
 * links (reference/sal-links-2021.csv): the ABS 2016 correspondences matched to 2021's suburbs.
 */
function linksOf(kind: 'postcodes' | 'sa2s', code: string, state: SuburbGeography['state']): Pick<SuburbGeography, 'lgas' | 'lgaCode' | 'lgaName' | 'gccsa' | 'largestSuburbs'> & { postcodes?: SuburbGeography['postcodes'] } {
  const links = realParentLinks(kind).get(code);
  const gccsa = kind === 'sa2s' ? gccsaOfSa2(code, state) : (links?.gccsa ?? gccsaOfSa2(undefined, state));
  if (!links) return { lgas: [], lgaCode: '', lgaName: '', gccsa, largestSuburbs: [] };
  const lgas = links.lgas.map((l) => ({ ...l }));
  return {
    lgas,
    lgaCode: lgas[0]?.code ?? '',
    lgaName: lgas[0]?.name ?? '',
    gccsa,
    largestSuburbs: links.largestSuburbs,
    ...(kind === 'sa2s' ? { postcodes: links.postcodes.map((p) => ({ ...p })) } : {}),
  };
}

/**
 * An SA2: its identifier is the ABS name, unique in Australia; its state the code's first digit.
 * Its postcodes and LGAs are not known from the DataPack alone (correspondences place them).
 */
const sa2Area = (a: RealArea): SuburbGeography => ({
  level: 'sa2',
  salCode: a.code,
  absName: a.absName,
  name: a.name,
  suburbId: a.absName,
  state: a.state,
  postcodes: [],
  postcode: '',
  ...withPrimaryPostcode(linksOf('sa2s', a.code, a.state)),
  remoteness: undefined,
  areaSqkm: a.areaSqkm,
});

const withPrimaryPostcode = <T extends { postcodes?: SuburbGeography['postcodes'] }>(links: T): T & { postcode?: string } =>
  links.postcodes && links.postcodes.length > 0 ? { ...links, postcode: links.postcodes[0]!.code } : links;

const postalArea = (a: RealArea): SuburbGeography => ({
  level: 'poa',
  salCode: a.code,
  absName: a.absName,
  name: a.name,
  suburbId: a.name,
  state: a.state,
  postcodes: [{ code: a.name, ratio: 1 }],
  postcode: a.name,
  ...linksOf('postcodes', a.name, a.state),
  remoteness: undefined,
  areaSqkm: a.areaSqkm,
});

/** LGAs: a name used in more than one state carries " (STATE)", as docs/spec/decisions.md has it for LGA selections. */
function lgaAreas(areas: readonly RealArea[]): SuburbGeography[] {
  const states = new Map<string, Set<string>>();
  for (const a of areas) states.set(a.name, (states.get(a.name) ?? new Set()).add(a.state));
  return areas.map((a) => {
    const id = states.get(a.name)!.size > 1 ? `${a.name} (${a.state})` : a.name;
    return {
      level: 'lga',
      salCode: a.code,
      absName: a.absName,
      name: a.name,
      suburbId: id,
      state: a.state,
      postcodes: [],
      lgas: [{ code: a.code, name: a.name, ratio: 1 }],
      postcode: '',
      lgaCode: a.code,
      lgaName: a.name,
      gccsa: '',
      remoteness: undefined,
      areaSqkm: a.areaSqkm,
    };
  });
}

/**
 * The input tables as published for each state (STE files) and Australia (AUS files), when the
 * directory has them: the parents that unpublished cells are estimated from and small areas
 * borrow strength from. Absent files are no error (a suburb build sums its own parents); a
 * malformed one is.
 */
async function loadPublishedParents(index: InputIndex, options: TableLoadOptions): Promise<Result<PublishedParents, InputError[]>> {
  const states = new Map<string, Map<string, Float64Array>>();
  let australia: Map<string, Float64Array> | undefined;
  const problems: InputError[] = [];
  for (const [packLevel, into] of [['STE', 'states'], ['AUS', 'australia']] as const) {
    const parts = index.dataPack.get(packLevel);
    if (!parts || INPUT_PARTS.some((p) => (parts.get(p) ?? []).length === 0)) continue;
    const key = packLevel === 'STE' ? (raw: string) => STATE_BY_ABS_CODE[raw.trim()] ?? { error: `not a state code: "${raw}"` } : () => 'AUS';
    const areas = new Set(packLevel === 'STE' ? Object.values(STATE_BY_ABS_CODE) : ['AUS']);
    const source: TableSource = { level: packLevel, parts, keyColumn: dataPackKeyColumn(packLevel), key, areas, areasFrom: 'the states and Australia' };
    for (const spec of INPUT_TABLES) {
      const loaded = await loadDataPackTable(source, spec, options);
      if (!loaded.ok) {
        problems.push(...loaded.error);
        continue;
      }
      for (const [area, cells] of loaded.value.cells) {
        if (into === 'australia') (australia ??= new Map()).set(spec.id, cells);
        else {
          let tables = states.get(area);
          if (!tables) states.set(area, (tables = new Map()));
          tables.set(spec.id, cells);
        }
      }
    }
  }
  return problems.length > 0 ? err(problems) : ok({ states, australia });
}
