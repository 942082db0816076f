/**
 * The realism figures as markdown tables: the build report's "realism" section and
 * bench/realism.ts print the same thing. Where the truth or the oracle is not known (a build of
 * real census data), their columns show "—".
 */
import { SIZE_BANDS } from './metrics.ts';
import { FAMILY_LIKENESS, IMPLAUSIBLE_CHECKS, REALISM_PAIRS, type ErrorRemoved, type GroupFigures, type RateFigure, type RealismSummary, type SourceFigures } from './realism.ts';

const pct = (x: number | undefined, digits = 2) => (x === undefined ? '—' : `${(100 * x).toFixed(digits)}%`);
const num = (x: number | undefined, digits = 2) => (x === undefined ? '—' : x.toFixed(digits));

export function renderRealism(summary: RealismSummary): string[] {
  const { all, byBand } = summary;
  const out: string[] = [];
  const line = (cells: readonly string[]) => out.push(`| ${cells.join(' | ')} |`);
  const header = (first: string, rest: readonly string[]) => {
    line([first, ...rest]);
    line(['---', ...rest.map(() => '---:')]);
  };
  const bandHeads = SIZE_BANDS.map((b) => `${b} (${byBand[b].suburbs})`);
  const maybe = (s: SourceFigures | undefined, of: (s: SourceFigures) => string) => (s ? of(s) : '—');
  /** One figure: all suburbs synthetic / truth / oracle, then synthetic / truth per band. */
  const row = (label: string, of: (s: SourceFigures) => string) =>
    line([
      label,
      of(all.synthetic),
      maybe(all.truth, of),
      maybe(all.oracle, of),
      ...SIZE_BANDS.map((b) => `${of(byBand[b].synthetic)} / ${maybe(byBand[b].truth, of)}`),
    ]);

  out.push('synthetic = the records; truth = the hidden truth (demo inputs only); oracle = a second draw of the truth model; per band: synthetic / truth');
  out.push('');
  header('implausible combination (numerator/denominator, synthetic)', ['synthetic', 'truth', 'oracle', ...bandHeads]);
  for (const check of IMPLAUSIBLE_CHECKS) {
    const r = (s: SourceFigures) => s.implausible[check.name];
    const syn = r(all.synthetic);
    row(`${check.name} (${syn?.numerator ?? 0}/${syn?.denominator ?? 0})`, (s) => pct(r(s)?.rate));
  }
  out.push('');
  header('figure', ['synthetic', 'truth', 'oracle', ...bandHeads]);
  row('couples: mean man − woman age gap (years)', (s) => num(s.couples.meanAgeGap));
  row('couples: same-sex share', (s) => pct(s.couples.sameSexShare));
  row("mothers: min age at eldest child's birth", (s) => num(s.mothers.min, 0));
  row("mothers: p5 age at eldest child's birth", (s) => num(s.mothers.p5, 1));
  row("mothers: median age at eldest child's birth", (s) => num(s.mothers.median, 1));
  for (const check of FAMILY_LIKENESS) row(check.name, (s) => pct(s.likeness?.[check.name]?.rate, 1));
  for (const pair of REALISM_PAIRS) row(`Cramér's V ${pair.name}`, (s) => num(s.cramersV[pair.name], 3));
  const lang = (r: RateFigure) => pct(r.rate, 1);
  row(`Indigenous persons speaking an Indigenous language, remote (${all.synthetic.indigenousLanguage.denominator} synthetic)`, (s) => lang(s.indigenousLanguage));
  const tables = Object.keys(all.errorRemoved);
  if (tables.length === 0) return out;
  out.push('');
  out.push('share of the independence error removed against the truth (1 − Σ|x − truth| / Σ|independence(x) − truth|), synthetic / oracle;');
  out.push('per suburb, then pooled (each cross-tab summed over the suburbs first, as a researcher tabulating a region sees it)');
  header('cross-tab', ['all cells', ...bandHeads, 'stated categories', 'pooled', 'pooled, stated', ...bandHeads.map((b) => `pooled ${b}`)]);
  const share = (e: ErrorRemoved | undefined) => (e ? `${pct(e.synthetic, 0)} / ${pct(e.oracle, 0)}` : '—');
  for (const id of tables) {
    const of = (g: GroupFigures) => g.errorRemoved[id];
    line([
      id,
      share(of(all)?.cells),
      ...SIZE_BANDS.map((b) => share(of(byBand[b])?.cells)),
      share(of(all)?.stated),
      share(of(all)?.pooled),
      share(of(all)?.pooledStated),
      ...SIZE_BANDS.map((b) => share(of(byBand[b])?.pooled)),
    ]);
  }
  return out;
}
