/**
 * The realism figures as markdown tables: the build report's "realism" section and
 * bench/realism.ts print the same thing. Where the truth or the oracle is not known (a build of
 * real census data), their columns show "—".
 */
import { SIZE_BANDS } from './metrics.ts';
import { REALISM_PAIRS } from './associations.ts';
import { OPPOSITE_SEX_GAP_10_PLUS_2011 } from '../census/reference/family-figures.ts';
import { IMPLAUSIBLE_CHECKS } from './implausible.ts';
import { type GroupFigures, type RateFigure, type RealismSummary, type SourceFigures } from './realism.ts';
import { type ErrorRemoved } from './recovery.ts';
import { RESEMBLANCE_LINKS } from './resemblance.ts';

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
  for (const pair of REALISM_PAIRS) row(`Cramér's V ${pair.name}`, (s) => num(s.cramersV[pair.name], 3));
  const lang = (r: RateFigure) => pct(r.rate, 1);
  row(`Indigenous persons speaking an Indigenous language, remote (${all.synthetic.indigenousLanguage.denominator} synthetic)`, (s) => lang(s.indigenousLanguage));
  out.push('', ...renderFamilies(all));
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

/**
 * Families against independence (docs/synthesis.md, "Families"): per link the share of pairs
 * alike in the records, what the same records' margins give by chance, the synthesizer's target
 * at those margins, the national figure the strength comes from, and (demo inputs) the truth's
 * and the oracle's shares; then couples' age gaps and degree holders' pairing over chance.
 */
export function renderFamilies(all: GroupFigures): string[] {
  const out: string[] = [];
  const line = (cells: readonly string[]) => out.push(`| ${cells.join(' | ')} |`);
  const maybe = (s: SourceFigures | undefined, of: (s: SourceFigures) => string) => (s ? of(s) : '—');
  out.push("families: share of pairs alike; independence = the records' own margins shuffled; target = the synthesizer's aim at those margins; published = the national figure");
  out.push('');
  line(['link (pairs, synthetic)', 'synthetic', 'independence', 'target', 'published', 'truth', 'oracle', 'source']);
  line(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---']);
  for (const link of RESEMBLANCE_LINKS) {
    const mine = all.synthetic.resemblance.links[link.name]!;
    // A reference written by an older generator may lack the section: its columns show "—".
    const alike = (s: SourceFigures) => pct(s.resemblance?.links[link.name]?.alike, 1);
    line([`${link.name} (${mine.pairs})`, alike(all.synthetic), pct(mine.independence, 1), pct(mine.target, 1), pct(mine.published, 1), maybe(all.truth, alike), maybe(all.oracle, alike), link.source]);
  }
  const parents = all.synthetic.resemblance.parentsOfDependentChildren;
  const g30 = 'G30 (Australia, 2021), counted as G30 counts: per dependent child of an opposite-sex couple';
  const parentsAlike = (s: SourceFigures) => pct(s.resemblance?.parentsOfDependentChildren?.alike, 1);
  const parentsOdds = (s: SourceFigures) => num(s.resemblance?.parentsOfDependentChildren?.oddsRatio, 1);
  line([`parents of dependent children born in Australia or overseas alike (${parents.children})`, parentsAlike(all.synthetic), pct(parents.independence, 1), '—', pct(parents.published.alike, 1), maybe(all.truth, parentsAlike), maybe(all.oracle, parentsAlike), g30]);
  line(['the same: odds ratio', parentsOdds(all.synthetic), '1.0', '—', num(parents.published.oddsRatio, 1), maybe(all.truth, parentsOdds), maybe(all.oracle, parentsOdds), g30]);
  const language = all.synthetic.resemblance.parentsLanguage;
  const g12 = "G12's classes of parents; no table in the inputs crosses them (G12 is not in the DataPack copy)";
  const oneEnglishOnly = (s: SourceFigures) => pct(s.resemblance?.parentsLanguage?.oneEnglishOnly, 1);
  const languageV = (s: SourceFigures) => num(s.resemblance?.parentsLanguage?.cramersV);
  line([`children under 15 of couples with exactly one English-only parent (${language?.children ?? 0})`, oneEnglishOnly(all.synthetic), '—', '—', '—', maybe(all.truth, oneEnglishOnly), maybe(all.oracle, oneEnglishOnly), g12]);
  line(["the same children: Cramér's V between the parents' language", languageV(all.synthetic), '0.00', '—', '—', maybe(all.truth, languageV), maybe(all.oracle, languageV), g12]);
  const home = all.synthetic.resemblance.homeLanguage;
  const homeRatio = (s: SourceFigures) => num(s.resemblance?.homeLanguage?.householdsOverPersons);
  line([`households using another language at home, over persons using one (${home?.households ?? 0} households)`, homeRatio(all.synthetic), '—', '—', num(home?.published), maybe(all.truth, homeRatio), maybe(all.oracle, homeRatio), '2011 Census: 20.4% of households (QuickStats, via Crikey) over 18.1% of persons (ABS CO/60: 76.8% English only; 2011 quality statement: 5.1% not stated)']);
  const degree = all.synthetic.resemblance.degreeOverChance;
  const overChance = (s: SourceFigures) => num(s.resemblance?.degreeOverChance.records);
  line([`both partners with a degree, × chance (${degree.couples})`, num(degree.records), '1.00', num(degree.target), num(degree.published), maybe(all.truth, overChance), maybe(all.oracle, overChance), 'e61 Institute, 2021 Census (unverified)']);
  const couples = all.synthetic.couples;
  const opposite = couples.couples - couples.sameSex;
  const age = (label: string, of: (s: SourceFigures) => string, published: string, source: string) =>
    line([label, of(all.synthetic), '—', '—', published, maybe(all.truth, of), maybe(all.oracle, of), source]);
  age(`opposite-sex couples: mean man − woman age gap, years (${opposite})`, (s) => num(s.couples.meanAgeGap), '—', 'structure (couples matched by age rank, noise sd 2.5 years, a tenth sd 8); no figure at hand');
  age('opposite-sex couples 10 or more years apart', (s) => pct(s.couples.gap10PlusShare, 1), pct(OPPOSITE_SEX_GAP_10_PLUS_2011, 0), 'ABS, Australian Social Trends 2013 (2011 Census)');
  age('opposite-sex couples: the man older', (s) => pct(s.couples.manOlderShare, 1), '—', 'no figure at hand');
  age('opposite-sex couples: the same age (whole years)', (s) => pct(s.couples.sameAgeShare, 1), '—', 'no figure at hand');
  return out;
}
