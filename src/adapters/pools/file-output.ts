import { open, rm } from 'node:fs/promises';

/** Writes a file through `produce` (which resolves with its row count) and removes it when that fails: no partial file is left. */
export async function writeNewFile(destPath: string, produce: (write: (bytes: Uint8Array) => Promise<void>) => Promise<number>): Promise<number> {
  const file = await open(destPath, 'w');
  try {
    const rows = await produce(async (bytes) => {
      for (let done = 0; done < bytes.length; ) done += (await file.write(bytes, done, bytes.length - done)).bytesWritten;
    });
    await file.close();
    return rows;
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(destPath, { force: true });
    throw error;
  }
}
