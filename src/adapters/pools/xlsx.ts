/**
 * A streaming xlsx writer for sampled records: the data sheet's XML is produced row batch by
 * row batch and deflated into the zip as it goes, so memory stays bounded whatever the row
 * count. Category labels repeat, so they go to a shared-strings table and every such cell is
 * a pre-encoded `<v>index</v>`; unique ids are inline strings.
 */
import { createWriteStream } from 'node:fs';
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import yazl from 'yazl';

/** One column of the data sheet. */
export type XlsxColumn =
  /** Values arrive as indices into labels (e.g. DuckDB enum codes). */
  | { readonly name: string; readonly kind: 'coded'; readonly labels: readonly string[] }
  /** Values arrive as strings that repeat (suburb codes, geography): shared strings. */
  | { readonly name: string; readonly kind: 'shared' }
  /** Values arrive as strings that rarely repeat (ids): inline strings. */
  | { readonly name: string; readonly kind: 'inline' };

/** A batch of rows, column-major: coded columns as typed arrays of indices, others as strings (null = empty cell). */
export interface XlsxBatch {
  readonly rowCount: number;
  readonly columns: readonly (ArrayLike<number> | readonly (string | null)[])[];
}

export interface XlsxSheet {
  readonly name: string;
  readonly rows: readonly (readonly (string | number)[])[];
}

export interface XlsxOptions {
  readonly destPath: string;
  readonly sheetName: string;
  readonly columns: readonly XlsxColumn[];
  readonly batches: AsyncIterable<XlsxBatch>;
  /** Small extra sheets (dictionary, metadata) written after the data sheet. */
  readonly extraSheets: readonly XlsxSheet[];
  /** zlib level: 1 is ~4× faster than 6 on this XML and only ~15 % bigger. */
  readonly compressionLevel?: number;
}

export const escapeXml = (s: string): string =>
  s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'))
    // Control characters other than tab, newline and carriage return are not allowed in XML 1.0.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

export function columnLetters(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** Shared strings, numbered in first-use order. */
class SharedStrings {
  private readonly index = new Map<string, number>();
  uses = 0;
  add(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.index.size;
      this.index.set(s, i);
    }
    return i;
  }
  xml(): string {
    const items = [...this.index.keys()].map((s) => `<si><t xml:space="preserve">${escapeXml(s)}</t></si>`).join('');
    return `${XML_HEAD}<sst xmlns="${NS}" count="${this.uses}" uniqueCount="${this.index.size}">${items}</sst>`;
  }
}

const inlineCell = (ref: string, value: string | number): string =>
  typeof value === 'number' ? `<c r="${ref}"><v>${value}</v></c>` : `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(value)}</t></is></c>`;

function smallSheetXml(rows: readonly (readonly (string | number)[])[]): string {
  const body = rows
    .map((row, r) => `<row r="${r + 1}">${row.map((v, c) => inlineCell(`${columnLetters(c)}${r + 1}`, v)).join('')}</row>`)
    .join('');
  return `${XML_HEAD}<worksheet xmlns="${NS}"><sheetData>${body}</sheetData></worksheet>`;
}

function workbookParts(sheetNames: readonly string[]): Record<string, string> {
  const sheets = sheetNames.map((n, i) => `<sheet name="${escapeXml(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
  const rels = sheetNames.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${NS_R}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('');
  const n = sheetNames.length;
  return {
    '[Content_Types].xml':
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      sheetNames.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('') +
      '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      '</Types>',
    '_rels/.rels': `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${NS_R}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `${XML_HEAD}<workbook xmlns="${NS}" xmlns:r="${NS_R}"><sheets>${sheets}</sheets></workbook>`,
    'xl/_rels/workbook.xml.rels':
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}` +
      `<Relationship Id="rId${n + 1}" Type="${NS_R}/sharedStrings" Target="sharedStrings.xml"/>` +
      `<Relationship Id="rId${n + 2}" Type="${NS_R}/styles" Target="styles.xml"/></Relationships>`,
    'xl/styles.xml':
      `${XML_HEAD}<styleSheet xmlns="${NS}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>` +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs></styleSheet>',
  };
}

/** Writes the workbook; resolves with the number of data rows once the file is complete on disk. */
export async function writeXlsx(opts: XlsxOptions): Promise<number> {
  const zip = new yazl.ZipFile();
  const out = createWriteStream(opts.destPath);
  zip.outputStream.pipe(out);
  const outDone = finished(out);
  const mtime = new Date();
  const level = opts.compressionLevel ?? 1;
  const sst = new SharedStrings();
  const sheetNames = [opts.sheetName, ...opts.extraSheets.map((s) => s.name)];
  for (const [path, xml] of Object.entries(workbookParts(sheetNames))) zip.addBuffer(Buffer.from(xml), path, { mtime, compressionLevel: level });

  const sheet = new PassThrough({ highWaterMark: 1 << 20 });
  zip.addReadStream(sheet, 'xl/worksheets/sheet1.xml', { mtime, compressionLevel: level });

  const letters = opts.columns.map((_, c) => columnLetters(c));
  // Per coded column: the tail of each cell after its reference, e.g. `" t="s"><v>17</v></c>`.
  const codedTails = opts.columns.map((col) => (col.kind === 'coded' ? col.labels.map((l) => `" t="s"><v>${sst.add(l)}</v></c>`) : []));
  const header = opts.columns.map((col, c) => `<c r="${letters[c]}1" t="s"><v>${sst.add(col.name)}</v></c>`).join('');
  sst.uses += opts.columns.length;

  let pending = `${XML_HEAD}<worksheet xmlns="${NS}"><sheetData><row r="1">${header}</row>`;
  const flush = async (): Promise<void> => {
    if (!sheet.write(pending)) await new Promise<void>((resolve) => sheet.once('drain', resolve));
    pending = '';
  };
  let rowNumber = 1;
  for await (const batch of opts.batches) {
    for (let i = 0; i < batch.rowCount; i++) {
      rowNumber++;
      const r = String(rowNumber);
      let row = `<row r="${r}">`;
      for (let c = 0; c < opts.columns.length; c++) {
        const col = opts.columns[c]!;
        const values = batch.columns[c]!;
        if (col.kind === 'coded') {
          row += `<c r="${letters[c]}${r}${codedTails[c]![(values as ArrayLike<number>)[i]!]}`;
          sst.uses++;
        } else {
          const v = (values as readonly (string | null)[])[i];
          if (v === null || v === undefined) continue;
          if (col.kind === 'shared') {
            row += `<c r="${letters[c]}${r}" t="s"><v>${sst.add(v)}</v></c>`;
            sst.uses++;
          } else row += inlineCell(`${letters[c]}${r}`, v);
        }
      }
      pending += row + '</row>';
    }
    if (pending.length > 1 << 16) await flush();
  }
  pending += '</sheetData></worksheet>';
  await flush();
  sheet.end();

  zip.addBuffer(Buffer.from(sst.xml()), 'xl/sharedStrings.xml', { mtime, compressionLevel: level });
  opts.extraSheets.forEach((s, k) => zip.addBuffer(Buffer.from(smallSheetXml(s.rows)), `xl/worksheets/sheet${k + 2}.xml`, { mtime, compressionLevel: level }));
  zip.end();
  await outDone;
  return rowNumber - 1;
}
