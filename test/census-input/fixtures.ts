import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INPUT_TABLES } from '../../src/synthesis/census/tables.ts';
import type { TableSpec } from '../../src/synthesis/census/table-spec.ts';
import { GCP_PART_HEADERS } from '../../src/synthesis/census/gcp/layout.generated.ts';
import {
  MB_ALLOCATION,
  MB_ALLOCATION_HEADER,
  RA_ALLOCATION,
  RA_ALLOCATION_HEADER,
  SAL_ALLOCATION,
  SAL_ALLOCATION_HEADER,
  SAL_LGA_CORRESPONDENCE,
  SAL_LGA_HEADER,
  SAL_POA_CORRESPONDENCE,
  SAL_POA_HEADER,
  dataPackFile,
} from '../../src/census-input/file-names.ts';

const line = (cells: readonly (string | number)[]) => cells.join(',') + '\n';
const mbRow = (mb: string, gccsaCode: string, gccsa: string, state: string, stateName: string) =>
  line([mb, 'Residential', '0', 'No change', mb, '201011001', 'X', '20101', 'X', '201', 'X', gccsaCode, gccsa, state, stateName, 'AUS', 'Australia', '0.1', 'uri']);
const salRow = (mb: string, sal: string, name: string, state: string, stateName: string) =>
  line([mb, sal, name, state, stateName, 'AUS', 'Australia', '0.1', 'uri']);

/**
 * A tiny but complete input directory with real ABS headers: three Victorian suburbs (Richmond
 * straddles two postcodes and two LGAs), one NSW Richmond, plus the ABS's "No usual address"
 * SAL which the loaders skip. Every table has the value `value(sal, header)`.
 */
export function writeFixture(value: (sal: string, header: string, i: number) => number = (_s, _h, i) => i % 7): string {
  const dir = mkdtempSync(join(tmpdir(), 'spq-abs-'));
  const asgs = join(dir, 'asgs');
  const gcp = join(dir, 'nested', 'SAL', 'AUS');
  mkdirSync(asgs, { recursive: true });
  mkdirSync(gcp, { recursive: true });
  writeFileSync(
    join(asgs, MB_ALLOCATION),
    line(MB_ALLOCATION_HEADER) +
      mbRow('20000000001', '2GMEL', 'Greater Melbourne', '2', 'Victoria') +
      mbRow('20000000002', '2GMEL', 'Greater Melbourne', '2', 'Victoria') +
      mbRow('20000000003', '2RVIC', 'Rest of Vic.', '2', 'Victoria') +
      mbRow('20000000004', '2GMEL', 'Greater Melbourne', '2', 'Victoria') +
      mbRow('20000000005', '2RVIC', 'Rest of Vic.', '2', 'Victoria') +
      mbRow('10000000001', '1RNSW', 'Rest of NSW', '1', 'New South Wales') +
      mbRow('29999999999', '2ZZZZ', 'No usual address (Vic.)', '2', 'Victoria'),
  );
  writeFileSync(
    join(asgs, SAL_ALLOCATION),
    line(SAL_ALLOCATION_HEADER) +
      salRow('20000000001', '22170', 'Richmond (Vic.)', '2', 'Victoria') +
      salRow('20000000002', '22170', 'Richmond (Vic.)', '2', 'Victoria') +
      salRow('20000000003', '22170', 'Richmond (Vic.)', '2', 'Victoria') +
      salRow('20000000004', '20900', 'Fitzroy', '2', 'Victoria') +
      salRow('20000000005', '20100', 'Ascot (Ballarat - Vic.)', '2', 'Victoria') +
      salRow('10000000001', '13250', 'Richmond (NSW)', '1', 'New South Wales') +
      salRow('29999999999', '29494', 'No usual address (Vic.)', '2', 'Victoria'),
  );
  // Remoteness by SA1 (each mesh block its own SA1 here, with the same code): Fitzroy in Major Cities, Richmond (Vic.) two of its three mesh blocks there, Ascot inner regional, Richmond (NSW) outer regional.
  writeFileSync(
    join(asgs, RA_ALLOCATION),
    line(RA_ALLOCATION_HEADER) +
      [
        ['20000000001', '20'], ['20000000002', '20'], ['20000000003', '21'], ['20000000004', '20'], ['20000000005', '21'],
        ['10000000001', '12'], ['29999999999', '29'],
      ]
        .map(([mb, ra]) => line([mb!, ra!, 'X', ra!.slice(0, 1), 'X', 'AUS', 'Australia', '0.1', 'uri']))
        .join(''),
  );
  writeFileSync(
    join(asgs, SAL_POA_CORRESPONDENCE),
    line(SAL_POA_HEADER) +
      line(['22170', 'Richmond (Vic.)', '3121', '3121', '0.93', '', 'Good', '']) +
      line(['22170', 'Richmond (Vic.)', '3002', '3002', '0.07', '', 'Good', '']) +
      line(['20900', 'Fitzroy', '3065', '3065', '1', '', 'Good', '']) +
      line(['20100', 'Ascot (Ballarat - Vic.)', '3350', '3350', '1', '', 'Good', '']) +
      line(['13250', 'Richmond (NSW)', '2753', '2753', '1', '', 'Good', '']),
  );
  writeFileSync(
    join(asgs, SAL_LGA_CORRESPONDENCE),
    line(SAL_LGA_HEADER) +
      line(['22170', 'Richmond (Vic.)', '27350', 'Yarra', '0.4', '', 'Good', '']) +
      line(['22170', 'Richmond (Vic.)', '24600', 'Melbourne', '0.6', '', 'Good', '']) +
      line(['20900', 'Fitzroy', '27350', 'Yarra', '1', '', 'Good', '']) +
      line(['20100', 'Ascot (Ballarat - Vic.)', '20570', 'Ballarat', '1', '', 'Good', '']) +
      line(['13250', 'Richmond (NSW)', '14300', 'Hawkesbury', '1', '', 'Good', '']),
  );
  for (const spec of INPUT_TABLES) writeTable(gcp, spec, ['SAL22170', 'SAL20900', 'SAL20100', 'SAL13250', 'SAL29494'], value);
  return dir;
}

export const GCP_SUBDIR = join('nested', 'SAL', 'AUS');

/** A table's part files in the real layout (every column the ABS metadata lists, in its order). */
export function writeTable(dir: string, spec: TableSpec, sals: readonly string[], value: (sal: string, header: string, i: number) => number): void {
  const headers = [...spec.cells.map((c) => c.header), ...spec.otherHeaders];
  for (const part of spec.files) {
    const columns = GCP_PART_HEADERS[part]!;
    let text = line(['SAL_CODE_2021', ...columns]);
    for (const sal of sals) text += line([sal, ...columns.map((h) => value(sal, h, headers.indexOf(h)))]);
    writeFileSync(join(dir, dataPackFile(part)), text);
  }
}
