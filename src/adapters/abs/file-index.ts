import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** File name → path, for every file under a directory (ABS zips nest their CSVs several levels deep). */
export type FileIndex = ReadonlyMap<string, string>;

export async function indexFiles(dir: string): Promise<FileIndex> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const index = new Map<string, string>();
  // Sorted so that a duplicate name resolves the same way on every run.
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)).sort();
  for (const path of files) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (!index.has(name)) index.set(name, path);
  }
  return index;
}
