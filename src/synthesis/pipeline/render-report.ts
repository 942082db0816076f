import { SIZE_BANDS } from '../quality/metrics.ts';
import { renderRealism } from '../quality/realism-render.ts';
import { renderStrengths } from './borrowing.ts';
import { columnsReadLine, type TableColumnsRead } from './columns-read.ts';
import type { BuildReport } from './report.ts';

const fmt = (value: number | null) => (value === null ? '—' : value.toFixed(4));

/** The readable summary (report.txt and the CLI's closing lines). */
export function renderReport(report: BuildReport, seconds: number): string {
  const lines = [
    `pool release ${report.version}: ${report.suburbs} suburbs, ${report.persons} persons, ${report.families} families, ${report.dwellings} dwellings (${seconds.toFixed(1)} s)`,
    `SRMSE vs input tables: median ${fmt(report.inputs.overall.median)}, p95 ${fmt(report.inputs.overall.p95)} over ${report.inputs.overall.pairs} (suburb, table) pairs`,
    ...SIZE_BANDS.map((band) => {
      const d = report.inputs.bySizeBand[band];
      return `  ${band.padEnd(9)} persons: median ${fmt(d.median)}, p95 ${fmt(d.p95)} (${d.pairs} pairs)`;
    }),
  ];
  const noise = report.noiseFloor;
  if (noise && noise.overall.pairs > 0) {
    lines.push(`census noise floor (each table's published subtotals against its cells): median ${fmt(noise.overall.median)}, p95 ${fmt(noise.overall.p95)} over ${noise.overall.pairs} pairs; fit / floor`);
    for (const band of SIZE_BANDS) {
      const d = noise.bySizeBand[band];
      const fit = report.inputs.bySizeBand[band];
      const ratio = (a: number | null, b: number | null) => (a === null || b === null || !(b > 0) ? '—' : `${(a / b).toFixed(2)}×`);
      lines.push(`  ${band.padEnd(9)} persons: floor median ${fmt(d.median)}, p95 ${fmt(d.p95)}; fit / floor ${ratio(fit.median, d.median)}, ${ratio(fit.p95, d.p95)}`);
    }
  }
  if (report.borrowingStrength) lines.push(...renderStrengths(report.borrowingStrength));
  if (report.floor) lines.push(`perturbation floor (the hidden truth vs the tables it was published as): median ${fmt(report.floor.median)}, p95 ${fmt(report.floor.p95)}`);
  if (report.truth) {
    lines.push(`SRMSE vs hidden truth (cross-tabs not used as inputs): median ${fmt(report.truth.overall.median)}, p95 ${fmt(report.truth.overall.p95)}`);
  }
  lines.push(`structural violations: ${report.structuralViolations}`);
  const np = report.cellsNotPublished;
  if (np.estimated + np.structural > 0) lines.push(`cells the ABS does not publish (..): ${np.structural} structural zeros (published at no level), ${np.estimated} estimated from a parent area`);
  lines.push(`suburbs whose person or dwelling total misses the census total: ${report.totalsMismatched.length}`);
  if (report.ownTables)
    lines.push(`SRMSE vs the areas' own tables (not those taken from parents): median ${fmt(report.ownTables.median)}, p95 ${fmt(report.ownTables.p95)} over ${report.ownTables.pairs} pairs`);
  if (report.ownTablesByBand)
    lines.push(`  by size band (fit / census noise floor, median): ${Object.entries(report.ownTablesByBand).map(([b, d]) => `${b} ${fmt(d.fit.median)} / ${fmt(d.floor.median)} (${d.fit.pairs} pairs)`).join(', ')}`);
  if (report.ownCells)
    lines.push(`SRMSE vs the areas' own published cells (own tables, and own cells of tables partly taken from parents): median ${fmt(report.ownCells.overall.median)}, p95 ${fmt(report.ownCells.overall.p95)} over ${report.ownCells.overall.pairs} pairs`);
  if (report.derivedTargets)
    lines.push(`SRMSE vs the cells taken from parents (targets, not the areas' published figures): median ${fmt(report.derivedTargets.median)}, p95 ${fmt(report.derivedTargets.p95)} over ${report.derivedTargets.pairs} pairs`);
  for (const note of report.inputNotes) lines.push(`inputs: ${note}`);
  if (report.areasLeftOut.length > 0) {
    lines.push(`areas not built because of the inputs: ${report.areasLeftOut.length}`);
    for (const f of report.areasLeftOut) lines.push(`  ${f.area}: ${f.reason}`);
  }
  if (report.areasFailed.length > 0) {
    lines.push(`areas that could not be fitted (not in the release): ${report.areasFailed.length}`);
    for (const f of report.areasFailed) lines.push(`  ${f.area}: ${f.reason}`);
  }
  lines.push('per table (median SRMSE, p95, total absolute error; census noise floor median, p95):');
  for (const table of report.tables) {
    const floor = table.floor && table.floor.pairs > 0 ? `  floor ${fmt(table.floor.median)}  ${fmt(table.floor.p95)}` : '';
    lines.push(`  ${table.kind === 'truth' ? 'truth ' : ''}${table.tableId.padEnd(8)} ${fmt(table.srmse.median)}  ${fmt(table.srmse.p95)}  ${Math.round(table.totalAbsoluteError)}${floor}`);
  }
  const read = report.columnsRead;
  const count = (t: TableColumnsRead) => t.fitted.length + t.readOnly.length;
  lines.push(
    `DataPack columns read: ${read.reduce((n, t) => n + count(t), 0)} of ${read.reduce((n, t) => n + t.columns, 0)} in ${read.length} tables (fitted + totals; the rest of the part files is skipped):`,
  );
  for (const t of read) lines.push(`  ${columnsReadLine(t)}`);
  lines.push('', `realism (${report.realism.all.suburbs} suburbs, in fine categories before small suburbs are coarsened):`, ...renderRealism(report.realism));
  return `${lines.join('\n')}\n`;
}
