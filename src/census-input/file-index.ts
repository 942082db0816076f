import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { GCP_ALL_PARTS } from '../synthesis/census/gcp/parts.generated.ts';
import { parseDataPackFileName, type DataPackFileName } from './file-names.ts';

/** File name → path, for every file under a directory (ABS zips nest their CSVs several levels deep). */
export type FileIndex = ReadonlyMap<string, string>;

/** One DataPack part file found under the input directory. */
export interface FoundPart extends DataPackFileName {
  readonly path: string;
}

export interface InputIndex {
  /** Every file by name (the first in sorted path order when a name occurs twice). */
  readonly byName: FileIndex;
  /**
   * DataPack part files by geography level ("SAL", "POA", "LGA", "STE", "AUS", …) and part
   * ("G04A"): the Australia-wide file when there is one, else every state's file.
   */
  readonly dataPack: ReadonlyMap<string, ReadonlyMap<string, readonly FoundPart[]>>;
  /** Files named like DataPack parts whose part the ABS 2021 metadata does not know. */
  readonly unknownParts: readonly FoundPart[];
}

/**
 * Every file under `dir`, following symbolic links (an operator links a downloaded pack in
 * rather than copying 200 MB), each real directory visited once so a link cycle ends.
 */
async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const visited = new Set<string>();
  const walk = async (at: string): Promise<void> => {
    const real = await realpath(at);
    if (visited.has(real)) return;
    visited.add(real);
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const target = await stat(path).catch(() => undefined); // a dangling link is no file
        isDir = target?.isDirectory() ?? false;
        isFile = target?.isFile() ?? false;
      }
      if (isDir) await walk(path);
      else if (isFile) out.push(path);
    }
  };
  await walk(dir);
  // Sorted so that a duplicate name resolves the same way on every run.
  return out.sort();
}

export async function indexFiles(dir: string): Promise<FileIndex> {
  return (await indexInputs(dir)).byName;
}

export async function indexInputs(dir: string): Promise<InputIndex> {
  const byName = new Map<string, string>();
  const found = new Map<string, Map<string, FoundPart[]>>();
  const unknownParts: FoundPart[] = [];
  for (const path of await listFiles(dir)) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (!byName.has(name)) byName.set(name, path);
    const parsed = parseDataPackFileName(name);
    if (!parsed) continue;
    const part = { ...parsed, path };
    if (GCP_ALL_PARTS[parsed.part] === undefined) {
      unknownParts.push(part);
      continue;
    }
    let level = found.get(parsed.level);
    if (!level) found.set(parsed.level, (level = new Map()));
    const list = level.get(parsed.part);
    if (list) list.push(part);
    else level.set(parsed.part, [part]);
  }
  const dataPack = new Map<string, Map<string, readonly FoundPart[]>>();
  for (const [level, parts] of found) {
    const chosen = new Map<string, readonly FoundPart[]>();
    for (const [part, files] of parts) {
      // An Australia-wide file already holds every state's rows: state files beside it would repeat them.
      const wide = files.find((f) => f.australiaWide);
      const states = files.filter((f) => !f.australiaWide);
      // The same state's file twice (two unzipped copies): the first in path order, as for any other name.
      const byRegion = new Map<string, FoundPart>();
      for (const f of states) if (!byRegion.has(f.region)) byRegion.set(f.region, f);
      chosen.set(part, wide ? [wide] : [...byRegion.values()]);
    }
    dataPack.set(level, chosen);
  }
  return { byName, dataPack, unknownParts };
}
