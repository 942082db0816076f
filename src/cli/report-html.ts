/**
 * report.html: the release's quality page (the one /quality serves), written by `spq build`
 * beside report.txt, readable offline (stylesheet inline, no script, no link it needs). Written
 * after the manifest, from the release as serving opens it: the page a buyer sees is the file.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openPoolRelease } from '../adapters/pools/release.ts';
import { releasePage } from '../http/web/quality/routes.ts';
import { qualityDocument } from '../http/web/quality/pages.ts';

export const REPORT_HTML = 'report.html';

/** Writes <release>/report.html; returns its path. */
export async function writeReportHtml(releaseDir: string): Promise<string> {
  const pools = await openPoolRelease(releaseDir, { verify: 'sampled' });
  try {
    const page = await releasePage({ pools }, { offline: true });
    if (!page.ok) throw new Error(`report.html: ${page.error.detail}`);
    const path = join(releaseDir, REPORT_HTML);
    await writeFile(path, qualityDocument(page.value.title, page.value.body, { offline: true }));
    return path;
  } finally {
    await pools.close();
  }
}
